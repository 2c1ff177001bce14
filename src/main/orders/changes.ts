// Changes since the last refresh, per service (see service-scope.ts): each
// time a list becomes the cached one, it is compared with the list it
// replaced (the cache keeps that previous generation on disk, so this works
// offline and after a restart). Orders are new, changed (complete, ship
// date, quantity, pet, with the values before) or gone; the cancel log tells
// the gone ones this computer cancelled from those that left by themselves.
//
// The comparison runs on columns (changes-diff.ts). What it keeps is only
// what changed: the list before is read back from its file, a chunk at a
// time, and let go, so main holds no list between refreshes (at a million
// orders that is 87 MB it would otherwise keep).

import {
  CHANGE_FIELDS,
  departuresFromLog,
  goneBy,
  type ChangeField,
  type GoneOrder,
  type OrderChangesView,
} from '../../shared/order-changes.ts';
import { ordersOf, type OrderColumns } from '../../shared/order-columns.ts';
import { OrderListScanner } from '../../shared/order-list-scanner.ts';
import type { CancelLogEntry } from '../../shared/orders-local.ts';
import type { ServiceScope } from '../environments/service-scope.ts';
import type { CancelLog } from './cancel-log.ts';
import {
  CHANGED_COMPLETE,
  CHANGED_PET,
  CHANGED_QUANTITY,
  CHANGED_SHIP_DATE,
  diffOrderLists,
  pickRows,
  type ListDiff,
} from './changes-diff.ts';
import type { CacheCommit, CacheGeneration, OrderCache } from './order-cache.ts';

/** One saved list: when it was received, and its orders. */
export interface ListGeneration {
  readonly receivedAt: number;
  readonly columns: OrderColumns;
}

/** What changed between two lists, keeping only the orders concerned (as columns). */
export interface OrderChanges {
  readonly since: number;
  readonly at: number;
  readonly count: number;
  readonly diff: ListDiff;
  /** The new orders, as they are now (in the order of diff.added). */
  readonly added: OrderColumns;
  /** The changed orders as they were before, and as they are (in the order of diff.changed). */
  readonly changedBefore: OrderColumns;
  readonly changedAfter: OrderColumns;
  /** The gone orders as they were (in the order of diff.gone). */
  readonly gone: OrderColumns;
}

type NothingToCompare = Extract<OrderChangesView, { kind: 'nothing-to-compare' }>['reason'];

const FIELD_BITS: Readonly<Record<ChangeField, number>> = {
  complete: CHANGED_COMPLETE,
  shipDate: CHANGED_SHIP_DATE,
  quantity: CHANGED_QUANTITY,
  petId: CHANGED_PET,
};

export function compareLists(previous: ListGeneration, current: ListGeneration): OrderChanges {
  const diff = diffOrderLists(previous.columns, current.columns);
  return {
    since: previous.receivedAt,
    at: current.receivedAt,
    count: current.columns.count,
    diff,
    added: pickRows(current.columns, diff.added),
    changedBefore: pickRows(previous.columns, diff.changedFrom),
    changedAfter: pickRows(current.columns, diff.changed),
    gone: pickRows(previous.columns, diff.gone),
  };
}

/** The changes as the renderer and the CLI take them. */
export function changesView(
  environment: OrderChangesView['environment'],
  changes: OrderChanges,
  log: readonly CancelLogEntry[],
): OrderChangesView {
  const { diff } = changes;
  const departures = departuresFromLog(log, changes.since);
  const added = ordersOf(changes.added);
  const before = ordersOf(changes.changedBefore);
  const after = ordersOf(changes.changedAfter);
  const gone: GoneOrder[] = ordersOf(changes.gone).map((order) => {
    const id = order.id!; // orders without an id are never gone: they cannot be followed
    const departure = departures.get(id);
    return departure
      ? goneBy({ ...order, id }, departure)
      : { order: { ...order, id }, how: 'left' };
  });
  return {
    kind: 'compared',
    environment,
    summary: {
      added: added.length,
      changed: before.length,
      gone: gone.length,
      cancelledHere: gone.filter((order) => order.how === 'cancelled-here').length,
      since: changes.since,
      at: changes.at,
      count: changes.count,
      unidentified: diff.unidentified.previous + diff.unidentified.current,
    },
    added: { ids: added.map((order) => order.id!), rows: Array.from(diff.added) },
    changed: before.map((order, k) => ({
      id: order.id!,
      row: diff.changed[k]!,
      fields: CHANGE_FIELDS.filter((field) => (diff.changedFields[k]! & FIELD_BITS[field]) !== 0),
      before: order,
      after: after[k]!,
    })),
    gone,
  };
}

/** A list's columns from its JSON text (a saved copy), with the scanner the refresh uses. */
export function columnsOfBody(body: string): OrderColumns {
  const bytes = Buffer.from(body, 'utf8');
  const scanner = new OrderListScanner({ expectedBytes: bytes.length });
  scanner.push(bytes);
  return scanner.finish();
}

/**
 * Whether every column still holds the list: a typed array whose buffer was
 * transferred to another thread reads as empty afterwards.
 */
function intact(columns: OrderColumns): boolean {
  return (
    columns.idHighs.length === columns.count &&
    columns.lineStarts.length === columns.count + 1 &&
    columns.shipStarts.length === columns.count + 1
  );
}

export type Compared =
  { readonly ok: true; readonly changes: OrderChanges } | NothingToCompareResult;
type NothingToCompareResult = { readonly ok: false; readonly reason: NothingToCompare };
type Loaded = { readonly ok: true; readonly list: ListGeneration } | NothingToCompareResult;

interface ScopeState {
  readonly compared: Promise<Compared>;
}

/** Waits for the event loop's next turn: a comparison never delays the answer that caused it. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class OrderChangesTracker {
  readonly #cache: OrderCache;
  readonly #cancelLog: CancelLog;
  readonly #states = new Map<string, ScopeState>();

  constructor(cache: OrderCache, cancelLog: CancelLog) {
    this.#cache = cache;
    this.#cancelLog = cancelLog;
    cache.onCommit((commit) => this.#committed(commit));
  }

  /** What changed at the scope's last refresh, for `orders:changes` and the CLI. */
  async changes(scope: ServiceScope): Promise<OrderChangesView> {
    const compared = await this.compared(scope);
    if (!compared.ok) {
      return {
        kind: 'nothing-to-compare',
        environment: scope.environment,
        reason: compared.reason,
      };
    }
    return changesView(scope.environment, compared.changes, await this.#cancelLog.read(scope));
  }

  /** The same as columns, with the new orders' fields (the CLI prints them). */
  compared(scope: ServiceScope): Promise<Compared> {
    let state = this.#states.get(scope.key);
    if (!state) {
      // After a start: both lists from disk.
      state = {
        compared: this.#compare(scope, this.#load(scope, 'previous'), this.#load(scope, 'current')),
      };
      this.#states.set(scope.key, state);
    }
    return state.compared;
  }

  #committed({ scope, receivedAt, columns }: CacheCommit): void {
    // The list before is read back from its file (the cache has just kept it as the
    // previous generation), so main holds no list between refreshes: only what changed.
    const handed = columns && intact(columns) ? columns : undefined;
    const current: Promise<Loaded> = handed
      ? Promise.resolve({ ok: true, list: { receivedAt, columns: handed } })
      : this.#load(scope, 'current');
    this.#states.set(scope.key, {
      compared: this.#compare(scope, this.#load(scope, 'previous'), current),
    });
  }

  async #compare(
    scope: ServiceScope,
    previous: Promise<Loaded>,
    current: Promise<Loaded>,
  ): Promise<Compared> {
    try {
      return await this.#compareLoaded(scope, await previous, await current);
    } catch {
      return { ok: false, reason: 'unreadable' };
    }
  }

  async #compareLoaded(scope: ServiceScope, before: Loaded, after: Loaded): Promise<Compared> {
    if (!after.ok)
      return { ok: false, reason: after.reason === 'first-list' ? 'no-list' : after.reason };
    if (!before.ok) return before;
    // After a crash between keeping the old list and putting the new one in place, both are one list.
    if (before.list.receivedAt >= after.list.receivedAt) return { ok: false, reason: 'first-list' };
    await nextTurn();
    let { list: beforeList } = before;
    let { list: afterList } = after;
    if (!intact(beforeList.columns)) {
      const reloaded = await this.#load(scope, 'previous');
      if (!reloaded.ok) return reloaded;
      beforeList = reloaded.list;
    }
    if (!intact(afterList.columns)) {
      const reloaded = await this.#load(scope, 'current');
      if (!reloaded.ok) return { ok: false, reason: 'unreadable' };
      afterList = reloaded.list;
    }
    return { ok: true, changes: compareLists(beforeList, afterList) };
  }

  /**
   * A saved list's columns, scanned from its file a chunk at a time (never its
   * whole text in memory); a missing previous list means there is only one.
   */
  async #load(scope: ServiceScope, generation: CacheGeneration): Promise<Loaded> {
    const opened = await this.#cache.open(scope, generation);
    if (!opened.ok) {
      if (opened.problem === 'missing') return { ok: false, reason: 'first-list' };
      return { ok: false, reason: 'unreadable' };
    }
    const reader = opened.value;
    await nextTurn();
    try {
      const scanner = new OrderListScanner({ expectedBytes: reader.bytes });
      for await (const chunk of reader.chunks()) scanner.push(chunk);
      return { ok: true, list: { receivedAt: reader.receivedAt, columns: scanner.finish() } };
    } catch {
      await reader.close();
      return { ok: false, reason: 'unreadable' };
    }
  }
}
