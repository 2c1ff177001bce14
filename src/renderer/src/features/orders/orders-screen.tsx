// The orders of the active environment, the screen store staff work in, laid
// out as a desktop tool: a toolbar (search, filters, the bulk-cancel actions
// while orders are ticked, export, the cancel log, refresh), a bulk cancel's
// strip while one is shown, the grid taking all the height left (it scrolls
// inside itself) with a side panel for the selected order or the cancel log,
// and a status bar (what is shown, when the list was refreshed, progress).
// Outcomes are short messages that go away; conditions (offline, holds, the
// key) are in the window's notice area.

import {
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
} from 'react';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import type { ReviewMarks } from '../../../../shared/orders-local.ts';
import { fileStamp, saveTextFile } from '../../components/save-file.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { Toast } from '../../components/toast.tsx';
import { useBefore, useNow } from '../../components/use-now.ts';
import { formatClock, formatCount } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { BulkCancelDialog } from '../bulk-cancel/bulk-cancel-dialog.tsx';
import { keepChanges } from '../changes/change-lookup.ts';
import { GoneOrders } from '../changes/gone-orders.tsx';
import { useOrderChanges } from '../changes/use-changes.ts';
import { BulkCancelFailure, BulkCancelPanel } from '../bulk-cancel/bulk-cancel-panel.tsx';
import { RowSelection } from '../bulk-cancel/row-selection.ts';
import { pendingHold } from '../quota/quota-meter-model.ts';
import { planAutoRefresh, type AutoRefreshPlan } from './auto-refresh.ts';
import { CancelLogPanel } from './cancel-log-view.tsx';
import { CancelOrderDialog } from './cancel-order-dialog.tsx';
import { CancelOutcome } from './cancel-outcome.tsx';
import { OrderDetails } from './order-details.tsx';
import { isFiltered } from './order-filters.tsx';
import type { SortColumn, ViewQuery } from './table/order-table.ts';
import { usePreparedSorts } from './table/prepared-sorts.ts';
import { ordersCsvParts } from './orders-csv.ts';
import { OrdersGrid } from './orders-grid.tsx';
import {
  lastRefreshOf,
  waitsForSettings,
  type EnvironmentOrders,
  type LoadedOrders,
  type OrdersLoad,
  type OrdersQuery,
} from './orders-slice.ts';
import { OrdersStatusBar } from './orders-status-bar.tsx';
import { OrdersToolbar } from './orders-toolbar.tsx';
import { canStillCancel, rowStatuses, type RowStatus } from './row-status.ts';
import { endOfLocalDay, startOfLocalDay } from './time-words.ts';
import './orders.css';

const EMPTY_MARKS: ReviewMarks = {};
const IDLE: OrdersLoad = { kind: 'idle' };
const NO_ROWS = new Uint32Array(0);

export function OrdersScreen() {
  const environment = useAppStore((state) => state.activeEnvironment);
  const orders = useAppStore((state) => state.orders[environment]);
  const openOrders = useAppStore((state) => state.openOrders);
  const offline = useAppStore((state) => state.connectivity[environment]?.reachable === false);
  const service = useAppStore(
    (state) => state.environments.find((view) => view.id === environment)?.baseUrl,
  );
  const outcomeRef = useRef<HTMLDivElement>(null);
  const [exported, setExported] = useState<string | undefined>();
  const now = useNow(15_000);
  const load = orders?.load ?? IDLE;
  const list = orders?.list;
  const label = ENVIRONMENT_LABELS[environment];
  const plan = useAutoRefresh(environment, orders, offline, now);

  // Again when the environment is pointed at another service (its address changed in Settings).
  useEffect(() => {
    void openOrders(environment);
  }, [environment, service, openOrders]);

  // A bulk cancel may have been running since before a restart; when one finishes, the rows learn their outcome.
  const loadBulkCancel = useAppStore((state) => state.loadBulkCancel);
  const loadCancelLog = useAppStore((state) => state.loadCancelLog);
  const bulkStatus = useAppStore((state) => state.bulkJobs[environment]?.status);
  const bulkDone = useAppStore((state) => {
    const job = state.bulkJobs[environment];
    return job ? job.total - job.counts.waiting : 0;
  });
  useEffect(() => {
    void loadBulkCancel(environment);
  }, [environment, loadBulkCancel]);
  useEffect(() => {
    if (bulkDone > 0) void loadCancelLog(environment);
  }, [environment, bulkStatus, loadCancelLog, bulkDone]);

  return (
    <section aria-labelledby="orders-heading" className="orders-screen">
      <h2 id="orders-heading" className="visually-hidden">
        Orders — {label}
      </h2>
      {/* Announces the milestones of a refresh; the status bar shows them throughout. */}
      <StatusRegion label="Order list status" className="visually-hidden">
        {load.kind === 'loading'
          ? `Downloading the ${label} orders…`
          : load.kind === 'failed'
            ? `The ${label} orders were not refreshed.`
            : list?.source === 'service' && !list.partial
              ? `Refreshed: ${formatCount(list.table.count)} ${label} orders at ${formatClock(list.receivedAt)}.`
              : undefined}
      </StatusRegion>

      <OrdersWorkspace
        environment={environment}
        list={list}
        orders={orders}
        offline={offline}
        plan={plan}
        now={now}
        onExported={setExported}
      />

      <div className="toasts">
        <CancelOutcome ref={outcomeRef} />
        <BulkCancelFailure />
        <Toast label="Export" onDone={() => setExported(undefined)} messageKey={exported}>
          {exported && <p>{exported}</p>}
        </Toast>
      </div>
      <CancelOrderDialog fallbackFocus={outcomeRef} />
      <BulkCancelDialog fallbackFocus={outcomeRef} />
    </section>
  );
}

/** Schedules the automatic refresh the quota allows, and says what it will do. */
function useAutoRefresh(
  environment: EnvironmentId,
  orders: EnvironmentOrders | undefined,
  offline: boolean,
  now: number,
): AutoRefreshPlan {
  const quota = useAppStore((state) => state.quotas[environment]);
  const autoRefreshIfDue = useAppStore((state) => state.autoRefreshIfDue);
  const load = orders?.load ?? IDLE;
  const ready = orders?.local === 'read';
  const plan = planAutoRefresh({
    now,
    lastAttemptAt: lastRefreshOf(orders),
    quota,
    offline,
    refreshing: load.kind === 'loading',
    needsSettings: waitsForSettings(load),
  });
  const at = plan.kind === 'paused' ? undefined : plan.at;
  useEffect(() => {
    if (!ready || at === undefined) return;
    // The store decides again when the timer fires, from the state as it is then.
    const timer = setTimeout(
      () => void autoRefreshIfDue(environment),
      Math.max(0, at - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [ready, at, environment, autoRefreshIfDue]);
  return plan;
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
  // Ascending, descending, then back to the order the service sent.
  if (query.sort?.column !== column) return { column, direction: 'ascending' };
  return query.sort.direction === 'ascending' ? { column, direction: 'descending' } : undefined;
}

/**
 * Why no cancel can be sent now, in a few words for the disabled buttons'
 * description (the notice area says it in full, once); undefined when one can.
 */
function useCancelBlocked(environment: EnvironmentId, offline: boolean): string | undefined {
  const quota = useAppStore((state) => state.quotas[environment]);
  const label = ENVIRONMENT_LABELS[environment];
  // The gate's hold in main, as the quota view reports it: its real time, and only while it lasts.
  const hold = pendingHold(quota);
  const holding = useBefore(hold?.until);
  if (offline) return `Cancelling waits: ${label} cannot be reached.`;
  if (hold && holding) {
    return hold.reason === 'banned'
      ? `Cancelling waits until ${formatClock(hold.until)}: the API key is banned.`
      : `Cancelling waits until ${formatClock(hold.until)}: requests to ${label} are paused.`;
  }
  return undefined;
}

function OrdersWorkspace({
  environment,
  list,
  orders,
  offline,
  plan,
  now,
  onExported,
}: {
  environment: EnvironmentId;
  list: LoadedOrders | undefined;
  orders: EnvironmentOrders | undefined;
  offline: boolean;
  plan: AutoRefreshPlan;
  now: number;
  onExported: (message: string) => void;
}) {
  const query = useAppStore((state) => state.ordersQuery);
  const setQuery = useAppStore((state) => state.setOrdersQuery);
  const clearFilters = useAppStore((state) => state.clearOrdersFilters);
  const selectOrderRow = useAppStore((state) => state.selectOrderRow);
  const askToCancel = useAppStore((state) => state.askToCancel);
  const panel = useAppStore((state) => state.ordersPanel);
  const showPanel = useAppStore((state) => state.showOrdersPanel);
  const ticks = useAppStore((state) => state.ticks);
  const setTicks = useAppStore((state) => state.setTicks);
  const [detailsFocus, setDetailsFocus] = useState(0);
  const workspaceRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const blockedId = useId();
  const table = list?.table;
  const marks = orders?.marks ?? EMPTY_MARKS;
  const cancelLog = orders?.cancelLog;
  const label = ENVIRONMENT_LABELS[environment];

  // Typing stays responsive: the list follows the query a moment later if it needs the time.
  const viewQuery = useMemo(() => toViewQuery(query), [query]);
  const deferredQuery = useDeferredValue(viewQuery);
  const changes = useOrderChanges(environment, list);
  // Sorts are built in idle time once the list is whole; `data-sorts` tells a benchmark when.
  const sortsReady = usePreparedSorts(list && !list.partial ? table : undefined);
  const changesFilter = query.changes;
  const rows = useMemo(
    () => (table ? keepChanges(table.view(deferredQuery), changesFilter, changes) : NO_ROWS),
    [table, deferredQuery, changesFilter, changes],
  );
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

  /** The ticked orders that can still be cancelled, by id. */
  const cancellableTicked = () =>
    table
      ? selection
          .rows()
          .map((row) => table.idAt(row))
          .filter((id): id is string => id !== undefined && canStillCancel(statuses.get(id)))
      : [];

  const exportView = () => {
    if (!table) return;
    const name = `orders-${environment}-${fileStamp(Date.now())}.csv`;
    saveTextFile(name, ordersCsvParts(table, rows, marks, statuses), 'text/csv');
    onExported(`Exported ${formatCount(rows.length)} orders to ${name}.`);
  };

  const focusList = () =>
    workspaceRef.current?.querySelector<HTMLElement>('[role="row"][tabindex="0"]')?.focus();

  return (
    <div
      ref={workspaceRef}
      className="orders-workspace"
      data-sorts={sortsReady ? 'ready' : undefined}
    >
      <OrdersToolbar
        environment={environment}
        hasList={table !== undefined}
        ticked={selection.size}
        cancelBlocked={cancelBlocked}
        cancelBlockedId={blockedId}
        onCancelTicked={cancellableTicked}
        onClearTicks={() => setSelection(noTicks)}
        onExport={exportView}
        logOpen={panel === 'log'}
        onToggleLog={() =>
          showPanel(panel === 'log' ? (selectedRow === undefined ? 'none' : 'details') : 'log')
        }
      />
      <BulkCancelPanel environment={environment} />
      {/* The one place the reason is written out for the disabled Cancel buttons (the notice says it in full). */}
      {cancelBlocked && (
        <p id={blockedId} className="visually-hidden">
          {cancelBlocked}
        </p>
      )}
      {/* The id columns' widths, from the data, for the grid and the panel beside it. Custom
          properties set through the CSSOM (React's style prop), which the CSP allows. */}
      <div
        className="orders-body"
        style={
          {
            '--id-chars': table?.widestId ?? 8,
            '--pet-id-chars': table?.widestPetId ?? 8,
          } as CSSProperties
        }
      >
        {table && changesFilter === 'gone' ? (
          // Gone orders are not in the list any more: they are listed from the one before.
          <GoneOrders environment={environment} now={now} />
        ) : table ? (
          <OrdersGrid
            label={`${label} orders`}
            busy={list?.partial === true}
            table={table}
            rows={rows}
            position={position}
            sort={query.sort}
            marks={marks}
            changeMarkOf={changes?.markOf}
            statuses={statuses}
            cancelBlocked={cancelBlocked}
            cancelBlockedId={blockedId}
            onSort={(column) => setQuery({ sort: nextSort(query, column) })}
            onSelect={(at, how) => {
              const row = rows[at];
              if (row !== undefined) selectOrderRow(environment, row);
              if (how === 'pointer' && panel !== 'details') showPanel('details');
            }}
            onOpenDetails={() => {
              showPanel('details');
              setDetailsFocus((n) => n + 1);
            }}
            onCancel={(id) => askToCancel(environment, id)}
            selection={selection}
            tickedState={tickedState}
            onTick={(at, range) => {
              const row = rows[at];
              if (row === undefined) return;
              setSelection(range ? selection.range(rows, at) : selection.toggle(row));
            }}
            onTickAll={() => setSelection(selection.toggleAll(rows))}
            empty={
              <NoMatch query={query} total={table.count} onClear={clearFilters} label={label} />
            }
          />
        ) : (
          <NoList environment={environment} orders={orders} />
        )}
        {panel === 'details' && table && (
          <OrderDetails
            environment={environment}
            table={table}
            row={selectedRow}
            inView={position >= 0}
            statuses={statuses}
            cancelBlocked={cancelBlocked}
            cancelBlockedId={blockedId}
            headingRef={headingRef}
            focusRequest={detailsFocus}
            onLeave={focusList}
            onClose={() => {
              showPanel('none');
              focusList();
            }}
          />
        )}
        {panel === 'log' && (
          <CancelLogPanel
            environment={environment}
            now={now}
            onExported={onExported}
            onClose={() => showPanel(selectedRow === undefined ? 'none' : 'details')}
          />
        )}
      </div>
      <OrdersStatusBar
        environment={environment}
        list={list}
        load={orders?.load ?? IDLE}
        downloaded={orders?.downloaded}
        shown={rows.length}
        updating={viewQuery !== deferredQuery}
        plan={plan}
        now={now}
      />
    </div>
  );
}

/** What an empty view says in the grid: what matched nothing, and one way back. */
function NoMatch({
  query,
  total,
  onClear,
  label,
}: {
  query: OrdersQuery;
  total: number;
  onClear: () => void;
  label: string;
}) {
  if (total === 0) return <p>The {label} service has no orders.</p>;
  if (!isFiltered(query)) return null;
  const search = query.search.trim();
  return (
    <>
      <p>
        {search
          ? `No orders match “${search}” with the filters set.`
          : 'No orders match the filters set.'}
      </p>
      <button type="button" onClick={onClear}>
        Clear search and filters
      </button>
    </>
  );
}

/** Where the grid will be: looking for the saved copy, or nothing saved and nothing downloaded yet. */
function NoList({
  environment,
  orders,
}: {
  environment: EnvironmentId;
  orders: EnvironmentOrders | undefined;
}) {
  const label = ENVIRONMENT_LABELS[environment];
  const load = orders?.load ?? IDLE;
  let text: string | undefined;
  if (orders?.local !== 'read' && load.kind === 'idle') {
    text = `Looking for the ${label} orders saved on this computer…`;
  } else if (load.kind === 'loading') {
    text = `Downloading the ${label} orders…`;
  } else if (load.kind === 'idle') {
    text = `No orders loaded for ${label} yet. Press Refresh to download them.`;
  } else {
    text = `No ${label} orders to show.`;
  }
  return (
    <div className="orders-placeholder">
      <p>{text}</p>
    </div>
  );
}
