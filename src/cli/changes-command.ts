// store-admin orders changes: what changed between the last two lists
// `orders list` saved for an address, from those saved lists alone (no
// request is sent). The lists are kept as the app keeps its cache (two
// generations, written crash-safe: src/main/orders/order-cache.ts) in the
// CLI's own folder, and compared by the app's own comparison.

import { serviceScope, type ServiceScope } from '../main/environments/service-scope.ts';
import { CancelLog } from '../main/orders/cancel-log.ts';
import { changesView, OrderChangesTracker, type Compared } from '../main/orders/changes.ts';
import type { CancelLogEntry } from '../shared/orders-local.ts';
import { ordersOf } from '../shared/order-columns.ts';
import { OrderCache } from '../main/orders/order-cache.ts';
import type { LocalFiles } from '../main/local-data/local-files.ts';
import type { Order } from '../shared/order.ts';
import type { ChangeField, GoneOrder, OrderChangesView } from '../shared/order-changes.ts';
import type { CliEnvironment } from './app-environment.ts';

/**
 * An address's local data from a shell: the app's for the address, under
 * the environment the app has it in (app-environment.ts).
 */
export function cliScope(baseUrl: string, environment: CliEnvironment): ServiceScope {
  return serviceScope(environment, baseUrl);
}

/** The saved lists and the CLI's own cancel log, in its folder (`files`: how they reach the disk). */
export function cliLists(cacheDir: string, files?: LocalFiles) {
  const cache = new OrderCache(cacheDir, files);
  const cancelLog = new CancelLog(cacheDir, files);
  return { cache, cancelLog, tracker: new OrderChangesTracker(cache, cancelLog) };
}

const FIELD_WORDS: Readonly<Record<ChangeField, string>> = {
  complete: 'complete',
  shipDate: 'ship date',
  quantity: 'quantity',
  petId: 'pet ID',
};

/** How a gone order left, as the app's label says it (its tooltip, in a few more words). */
function howWords({ how, maybe }: GoneOrder): string {
  switch (how) {
    case 'cancelled-here':
      return 'cancelled from this computer';
    case 'maybe-cancelled-here':
      return maybe === 'not-found-after-listed'
        ? 'may have been cancelled from this computer (its cancel found it gone; the network may have sent it twice)'
        : 'may have been cancelled from this computer (an answer was lost)';
    case 'left':
      return 'left the service (cancelled elsewhere, or removed)';
  }
}

const NOTHING_WORDS: Readonly<
  Record<Extract<OrderChangesView, { kind: 'nothing-to-compare' }>['reason'], string>
> = {
  'no-list':
    'No list of this address is saved yet. Run "store-admin orders list" twice, some time apart, to see what changed in between.',
  'first-list':
    'Only one list of this address is saved yet. Run "store-admin orders list" again later to see what changed since.',
  unreadable:
    'The saved lists of this address cannot be read. Run "store-admin orders list" twice to save new ones.',
};

const valueOf = (order: Order, field: ChangeField): string => {
  const value = order[field];
  if (value === undefined) return '(not given)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
};

const iso = (epochMs: number) => new Date(epochMs).toISOString();

function table(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].map((text) => `  ${text}`).join('\n');
}

const orderCells = (order: Order): string[] => [
  order.id ?? '-',
  order.petId ?? '-',
  order.quantity?.toString() ?? '-',
  order.shipDate ?? '-',
  order.complete === undefined ? '-' : order.complete ? 'yes' : 'no',
];
const ORDER_HEADER = ['ID', 'PET ID', 'QTY', 'SHIP DATE', 'COMPLETE'];

/** What the CLI prints: the changes, with the new orders' fields. */
export interface CliChanges {
  readonly view: OrderChangesView;
  readonly added: readonly Order[];
}

export function cliChanges(compared: Compared, log: readonly CancelLogEntry[]): CliChanges {
  if (!compared.ok) {
    return {
      view: { kind: 'nothing-to-compare', environment: 'production', reason: compared.reason },
      added: [],
    };
  }
  return {
    view: changesView('production', compared.changes, log),
    added: ordersOf(compared.changes.added),
  };
}

/** The changes as text for a person. */
export function changesText({ view, added }: CliChanges): string {
  if (view.kind === 'nothing-to-compare') return `${NOTHING_WORDS[view.reason]}\n`;
  const { summary } = view;
  const here = summary.cancelledHere > 0 ? ` (${summary.cancelledHere} cancelled from here)` : '';
  const lines = [
    `Changes between the list saved at ${iso(summary.since)} and the one saved at ${iso(summary.at)} (${summary.count} orders):`,
    `+${summary.added} new, ${summary.gone} gone${here}, ${summary.changed} changed.`,
  ];
  if (summary.unidentified > 0)
    lines.push(`${summary.unidentified} orders without an ID could not be compared.`);
  if (added.length > 0) lines.push('', 'New:', table(ORDER_HEADER, added.map(orderCells)));
  if (view.changed.length > 0) {
    const rows = view.changed.flatMap((order) =>
      order.fields.map((field) => [
        order.id,
        FIELD_WORDS[field],
        valueOf(order.before, field),
        valueOf(order.after, field),
      ]),
    );
    lines.push('', 'Changed:', table(['ID', 'FIELD', 'BEFORE', 'NOW'], rows));
  }
  if (view.gone.length > 0) {
    const rows = view.gone.map((gone) => [...orderCells(gone.order), howWords(gone)]);
    lines.push('', 'Gone (as they were):', table([...ORDER_HEADER, 'HOW'], rows));
  }
  return `${lines.join('\n')}\n`;
}

/** The changes as JSON for scripts (ids as exact strings, times in ISO 8601). */
export function changesJson({ view, added }: CliChanges) {
  if (view.kind === 'nothing-to-compare') return { ok: true, compared: false, reason: view.reason };
  const { summary } = view;
  return {
    ok: true,
    compared: true,
    since: iso(summary.since),
    at: iso(summary.at),
    count: summary.count,
    summary: {
      added: summary.added,
      changed: summary.changed,
      gone: summary.gone,
      cancelledHere: summary.cancelledHere,
      unidentified: summary.unidentified,
    },
    added,
    changed: view.changed.map(({ id, fields, before, after }) => ({ id, fields, before, after })),
    gone: view.gone.map(({ order, how, cancelledAt, maybe }) => ({
      ...order,
      how,
      ...(maybe !== undefined ? { maybe } : {}),
      ...(cancelledAt !== undefined ? { cancelledAt: iso(cancelledAt) } : {}),
    })),
  };
}
