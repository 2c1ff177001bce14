// What the orders workspace shows of a list, derived in one place: the rows
// the query keeps (searched, filtered, sorted, and narrowed to the changes
// asked for), each order's status from the cancel log, the ticked orders, the
// selected row's place in the view, and why no cancel can be sent now. The
// components only lay it out.

import { useMemo } from 'react';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import type { ReviewMarks } from '../../../../shared/orders-local.ts';
import { useNow } from '../../components/use-now.ts';
import { formatMomentWithSeconds } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import type { LeftOutReason, TickedOrders } from '../bulk-cancel/bulk-cancel-slice.ts';
import { rowsOfIds, RowSelection, type AllState } from '../bulk-cancel/row-selection.ts';
import { keepChanges, type ChangeLookup } from '../changes/change-lookup.ts';
import { useOrderChanges } from '../changes/use-changes.ts';
import { useCurrentHold } from '../quota/use-hold.ts';
import { exactIdFirst, exactIdRow } from './exact-first.ts';
import { isSetUp, type EnvironmentOrders, type OrdersQuery } from './orders-slice.ts';
import { canStillCancel, rowStatuses, statusOf, type RowStatus } from './row-status.ts';
import type { OrderTable, SortColumn, ViewQuery } from './table/order-table.ts';
import { usePreparedSorts } from './table/prepared-sorts.ts';
import { endOfLocalDay, startOfLocalDay } from './time-words.ts';

const EMPTY_MARKS: ReviewMarks = {};
const NO_ROWS = new Uint32Array(0);

export interface OrdersView {
  readonly query: OrdersQuery;
  readonly table: OrderTable | undefined;
  /** The rows shown, in the order shown. */
  readonly rows: Uint32Array;
  /** The whole list's costly sorts are built (see prepared-sorts.ts). */
  readonly sortsReady: boolean;
  readonly changes: ChangeLookup | undefined;
  readonly marks: ReviewMarks;
  readonly statuses: ReadonlyMap<string, RowStatus>;
  readonly selection: RowSelection;
  readonly tickedState: AllState;
  readonly setSelection: (next: RowSelection) => void;
  readonly clearTicks: () => void;
  /** The ticked orders that can still be cancelled, by id, and what was left out of the ticks and why. */
  readonly cancellableTicked: () => { orderIds: string[]; ticks: TickedOrders };
  readonly selectedRow: number | undefined;
  /** Where the selected row is in `rows`; -1 when it is not shown. */
  readonly position: number;
  /** Why no cancel can be sent now, in a few words; undefined when one can. */
  readonly cancelBlocked: string | undefined;
  /** Sorts by a column: ascending, descending, then back to the order the service sent. */
  readonly sortBy: (column: SortColumn) => void;
}

export function useOrdersView(
  environment: EnvironmentId,
  orders: EnvironmentOrders | undefined,
  offline: boolean,
): OrdersView {
  const query = useAppStore((state) => state.ordersQuery);
  const setQuery = useAppStore((state) => state.setOrdersQuery);
  const ticks = useAppStore((state) => state.ticks);
  const setTicks = useAppStore((state) => state.setTicks);
  const list = orders?.list;
  const table = list?.table;
  const marks = orders?.marks ?? EMPTY_MARKS;
  const cancelLog = orders?.cancelLog;

  // The rows follow each keystroke in the same render: a fresh search of a million orders takes
  // well under the 50 ms a keystroke may, and one that extends the query looks only among the
  // rows already found. Deferring the rows (useDeferredValue) rendered the screen twice and left
  // the rows a frame behind the field.
  const viewQuery = useMemo(() => toViewQuery(query), [query]);
  const changes = useOrderChanges(environment, list);
  // Sorts are built in idle time once the list is whole.
  const sortsReady = usePreparedSorts(list && !list.partial ? table : undefined);
  const changesFilter = query.changes;
  const outcome = query.bulkOutcome?.environment === environment ? query.bulkOutcome : undefined;
  const outcomeRows = useMemo(
    () => (table && outcome ? new Set(rowsOfIds(table, outcome.ids).values()) : undefined),
    [table, outcome],
  );
  const rows = useMemo(() => {
    if (!table) return NO_ROWS;
    const kept = keepChanges(table.view(viewQuery), changesFilter, changes);
    if (outcomeRows) return kept.filter((row) => outcomeRows.has(row));
    return exactIdFirst(kept, exactIdRow(table, viewQuery.search, viewQuery.scope));
  }, [table, viewQuery, changesFilter, changes, outcomeRows]);
  const statuses: ReadonlyMap<string, RowStatus> = useMemo(
    () => rowStatuses(cancelLog ?? [], list?.receivedAt ?? 0),
    [cancelLog, list?.receivedAt],
  );
  // Ticked rows belong to one list: a new list starts with none.
  // One empty selection per list: a new one each render would cost a megabyte and a pass over every row.
  const noTicks = useMemo(() => RowSelection.empty(table?.count ?? 0), [table]);
  const selection = table && ticks?.table === table ? ticks.selection : noTicks;
  const setSelection = (next: RowSelection) => table && setTicks(table, next);
  const selectedRow = orders?.selection?.row;
  const position = useMemo(
    () => (selectedRow === undefined ? -1 : rows.indexOf(selectedRow)),
    [rows, selectedRow],
  );
  const cancelBlocked = useCancelBlocked(environment, offline);
  const tickedState = useMemo(() => selection.stateOf(rows), [selection, rows]);

  const cancellableTicked = () => tickedForCancel(table, selection, rows, statuses);

  return {
    query,
    table,
    rows,
    sortsReady,
    changes,
    marks,
    statuses,
    selection,
    tickedState,
    setSelection,
    clearTicks: () => setSelection(noTicks),
    cancellableTicked,
    selectedRow,
    position,
    cancelBlocked,
    sortBy: (column) => setQuery({ sort: nextSort(query, column) }),
  };
}

function toViewQuery(query: OrdersQuery): ViewQuery {
  return {
    search: query.search,
    scope: query.scope,
    mode: query.mode,
    complete: query.complete,
    shipFrom: startOfLocalDay(query.shipFrom),
    shipBefore: endOfLocalDay(query.shipTo),
    sort: query.sort,
  };
}

function nextSort(query: OrdersQuery, column: SortColumn): OrdersQuery['sort'] {
  if (query.sort?.column !== column) return { column, direction: 'ascending' };
  return query.sort.direction === 'ascending' ? { column, direction: 'descending' } : undefined;
}

/**
 * Why no cancel can be sent now, in a few words for the disabled buttons'
 * description (the notice area says it in full, once); undefined when one can.
 */
export function useCancelBlocked(environment: EnvironmentId, offline: boolean): string | undefined {
  const label = ENVIRONMENT_LABELS[environment];
  const setUp = useAppStore((state) => isSetUp(state, environment));
  // One order at a time waits for the bulk cancel: it may hold that very order.
  const bulkUnderWay = useAppStore((state) => {
    const status = state.bulkJobs[environment]?.status;
    return status === 'running' || status === 'paused';
  });
  // The gate's hold in main, as the quota view reports it: its real time, and only while it lasts.
  const hold = useCurrentHold(environment);
  // Only to name the day of a hold that ends on another one.
  const now = useNow(60_000);
  if (!setUp) return `Cancelling waits: ${label} is not set up yet (no API key).`;
  if (bulkUnderWay)
    return `Cancelling waits: a bulk cancel is under way in ${label}. Stop it or let it finish first.`;
  if (offline) return `Cancelling waits: ${label} cannot be reached.`;
  // A 429's hold of a few seconds: a cancel waits for its end, as a refresh does (a ban is
  // said until it ends, as the notice says it).
  if (hold && (hold.reason === 'banned' || hold.failsAtOnce)) {
    return hold.reason === 'banned'
      ? `Cancelling waits until ${formatMomentWithSeconds(hold.until, now)}: the API key is banned.`
      : `Cancelling waits until ${formatMomentWithSeconds(hold.until, now)}: requests to ${label} are paused.`;
  }
  return undefined;
}

/** Why an order in this status is left out of a bulk cancel. */
function leftOutReason(status: RowStatus | undefined): LeftOutReason {
  return status === 'shipped' ? 'shipped' : status === 'cancelled' ? 'cancelled' : 'gone';
}

/**
 * The ticked orders a bulk cancel would send (those that can still be
 * cancelled), and what the ticks hold besides: orders left out and why,
 * and ticked orders the search and filters do not show now.
 */
export function tickedForCancel(
  table: OrderTable | undefined,
  selection: RowSelection,
  shown: Uint32Array,
  statuses: ReadonlyMap<string, RowStatus>,
): { orderIds: string[]; ticks: TickedOrders } {
  const orderIds: string[] = [];
  const leftOut: Partial<Record<LeftOutReason, number>> = {};
  const ticked = table ? selection.rows() : [];
  for (const row of ticked) {
    const id = table!.idAt(row);
    const status = statusOf(statuses, id, table!.completeAt(row));
    if (id !== undefined && canStillCancel(status)) {
      orderIds.push(id);
      continue;
    }
    const why = id === undefined ? 'no-id' : leftOutReason(status);
    leftOut[why] = (leftOut[why] ?? 0) + 1;
  }
  let tickedShown = 0;
  if (ticked.length > 0) for (const row of shown) if (selection.has(row)) tickedShown += 1;
  return {
    orderIds,
    ticks: { ticked: ticked.length, leftOut, notShown: ticked.length - tickedShown },
  };
}
