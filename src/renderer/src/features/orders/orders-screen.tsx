// The orders of the active environment, the screen store staff work in: the
// saved copy at once, then a refresh (by hand, and by itself as the quota
// allows) with progress; the whole list searchable, filterable and sortable;
// the selected order's details, review mark and cancel; the cancel log; CSV
// exports. Offline, the last list stays with a banner saying how old it is.

import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  ENVIRONMENT_LABELS,
  isRemoteEnvironment,
  type EnvironmentId,
} from '../../../../shared/environments.ts';
import type { Failure } from '../../../../shared/failures.ts';
import type { ReviewMarks } from '../../../../shared/orders-local.ts';
import { fileStamp, saveTextFile } from '../../components/save-file.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { useBefore, useClock } from '../../components/use-time.ts';
import { formatBytes, formatClock, formatCount } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { BulkCancelDialog } from '../bulk-cancel/bulk-cancel-dialog.tsx';
import { BulkCancelPanel } from '../bulk-cancel/bulk-cancel-panel.tsx';
import { RowSelection } from '../bulk-cancel/row-selection.ts';
import { failureNeedsSettings, OpenSettingsButton } from '../settings/open-settings-button.tsx';
import { planAutoRefresh, safeMargin, type AutoRefreshPlan } from './auto-refresh.ts';
import { CancelLogView } from './cancel-log-view.tsx';
import { CancelOrderDialog } from './cancel-order-dialog.tsx';
import { CancelOutcome } from './cancel-outcome.tsx';
import { OrderDetails } from './order-details.tsx';
import { OrderFilters } from './order-filters.tsx';
import type { SortColumn, ViewQuery } from './order-table.ts';
import { ordersCsvParts } from './orders-csv.ts';
import { OrdersGrid } from './orders-grid.tsx';
import {
  lastRefreshOf,
  type EnvironmentOrders,
  type LoadedOrders,
  type OrdersLoad,
  type OrdersQuery,
} from './orders-slice.ts';
import { canStillCancel, rowStatuses, type RowStatus } from './row-status.ts';
import { endOfLocalDay, formatAge, formatMoment, startOfLocalDay } from './time-words.ts';
import './orders.css';

const EMPTY_MARKS: ReviewMarks = {};
const IDLE: OrdersLoad = { kind: 'idle' };

export function OrdersScreen() {
  const environment = useAppStore((state) => state.activeEnvironment);
  const orders = useAppStore((state) => state.orders[environment]);
  const openOrders = useAppStore((state) => state.openOrders);
  const refreshOrders = useAppStore((state) => state.refreshOrders);
  const offline = useAppStore((state) => state.connectivity[environment]?.reachable === false);
  const service = useAppStore(
    (state) => state.environments.find((view) => view.id === environment)?.baseUrl,
  );
  const outcomeRef = useRef<HTMLDivElement>(null);
  const now = useClock(15_000);
  const load = orders?.load ?? IDLE;
  const busy = load.kind === 'loading' || load.kind === 'reading';
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
    <section aria-labelledby="orders-heading" className="screen orders-screen">
      <div className="screen-head">
        <h2 id="orders-heading">Orders — {label}</h2>
        <button
          type="button"
          className="primary-button"
          aria-disabled={busy || undefined}
          onClick={() => void refreshOrders(environment)}
        >
          {busy ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>

      <RefreshLine list={list} plan={plan} now={now} environment={environment} />
      {/* Announces the milestones of a refresh; the lines above stay visible throughout. */}
      <StatusRegion label="Order list status" className="visually-hidden">
        {load.kind === 'loading'
          ? `Downloading the ${label} orders…`
          : load.kind === 'reading'
            ? `Reading ${formatCount(load.count)} ${label} orders…`
            : load.kind === 'failed'
              ? `The ${label} orders were not refreshed.`
              : list?.source === 'service'
                ? `Refreshed: ${formatCount(list.table.count)} ${label} orders at ${formatClock(list.receivedAt)}.`
                : undefined}
      </StatusRegion>

      {load.kind === 'loading' && (
        <DownloadProgress receivedBytes={load.receivedBytes} totalBytes={load.totalBytes} />
      )}
      {orders?.reading && <ReadingProgress {...orders.reading} />}
      {load.kind === 'failed' && <LoadFailure environment={environment} failure={load.failure} />}
      <OfflineReview
        environment={environment}
        list={list}
        load={load}
        offline={offline}
        now={now}
      />

      <CancelOutcome ref={outcomeRef} />
      <BulkCancelPanel environment={environment} />

      {list ? (
        <OrdersWorkspace environment={environment} list={list} orders={orders} offline={offline} />
      ) : (
        <EmptyState environment={environment} orders={orders} />
      )}

      <CancelLogView environment={environment} now={now} />
      <CancelOrderDialog fallbackFocus={outcomeRef} />
      <BulkCancelDialog fallbackFocus={outcomeRef} />
    </section>
  );
}

function EmptyState({
  environment,
  orders,
}: {
  environment: EnvironmentId;
  orders: EnvironmentOrders | undefined;
}) {
  const label = ENVIRONMENT_LABELS[environment];
  const load = orders?.load ?? IDLE;
  if (orders?.local !== 'read' && load.kind === 'idle') {
    return <p className="empty">Looking for the {label} orders saved on this computer…</p>;
  }
  if (load.kind !== 'idle') return null;
  return <p className="empty">No orders loaded for {label} yet. Press Refresh to download them.</p>;
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
    refreshing: load.kind === 'loading' || load.kind === 'reading',
    needsSettings:
      load.kind === 'failed' &&
      (load.failure.kind === 'unauthorized' || load.failure.kind === 'no-key'),
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

function RefreshLine({
  environment,
  list,
  plan,
  now,
}: {
  environment: EnvironmentId;
  list: LoadedOrders | undefined;
  plan: AutoRefreshPlan;
  now: number;
}) {
  const quota = useAppStore((state) => state.quotas[environment]);
  const label = ENVIRONMENT_LABELS[environment];
  let next: string | undefined;
  if (plan.kind === 'at') {
    next = plan.at > now + 1000 ? `Next automatic refresh at ${formatClock(plan.at)}.` : undefined;
  } else if (plan.kind === 'waiting') {
    next =
      plan.reason === 'held-back'
        ? `Automatic refresh waits until ${formatClock(plan.at)}: requests to ${label} are paused until then.`
        : `Automatic refresh waits until ${formatClock(plan.at)}, when the quota resets: ${formatCount(
            quota?.remaining ?? 0,
          )} requests are left and at least ${formatCount(safeMargin(quota) + 1)} are kept for your own actions.`;
  } else if (plan.reason === 'offline') {
    next = `Automatic refresh is paused while ${label} cannot be reached; press Refresh to try again.`;
  } else if (plan.reason === 'needs-settings') {
    next = 'Automatic refresh is paused until the API key is fixed in Settings.';
  }
  return (
    <p className="summary refresh-line">
      {list?.source === 'service' ? (
        <>
          {formatCount(list.table.count)} orders, last refreshed at {formatClock(list.receivedAt)} (
          {formatAge(now - list.receivedAt)}).
        </>
      ) : list ? (
        <>{formatCount(list.table.count)} orders saved on this computer; not refreshed yet.</>
      ) : null}{' '}
      {next}
    </p>
  );
}

function OfflineReview({
  environment,
  list,
  load,
  offline,
  now,
}: {
  environment: EnvironmentId;
  list: LoadedOrders | undefined;
  load: OrdersLoad;
  offline: boolean;
  now: number;
}) {
  const label = ENVIRONMENT_LABELS[environment];
  let content = null;
  if (list) {
    const age = `${list.source === 'cache' ? 'cached' : 'refreshed'} ${formatAge(now - list.receivedAt)}, at ${formatMoment(
      list.receivedAt,
      now,
    )}`;
    if (offline) {
      content = (
        <p>
          <strong>Offline review:</strong> {label} cannot be reached, so this is the list as it was{' '}
          {age}. Search, sorting, filters, review marks and exports work; cancelling waits until the
          service answers.
        </p>
      );
    } else if (list.source === 'cache') {
      content = (
        <p>
          <strong>Saved copy:</strong> this is the list {age}
          {load.kind === 'loading' || load.kind === 'reading'
            ? ', shown while the latest list downloads.'
            : load.kind === 'failed'
              ? '; the refresh failed (see above).'
              : '.'}
        </p>
      );
    }
  }
  return (
    <StatusRegion
      label="Offline review"
      tone={offline ? 'warning' : 'info'}
      className="offline-review"
    >
      {content}
    </StatusRegion>
  );
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

function OrdersWorkspace({
  environment,
  list,
  orders,
  offline,
}: {
  environment: EnvironmentId;
  list: LoadedOrders;
  orders: EnvironmentOrders | undefined;
  offline: boolean;
}) {
  const query = useAppStore((state) => state.ordersQuery);
  const setQuery = useAppStore((state) => state.setOrdersQuery);
  const selectOrderRow = useAppStore((state) => state.selectOrderRow);
  const askToCancel = useAppStore((state) => state.askToCancel);
  const quotaHold = useAppStore((state) => state.quotas[environment]?.holdUntil);
  const quotaBanned = useAppStore((state) => state.quotas[environment]?.holdReason === 'banned');
  const [detailsFocus, setDetailsFocus] = useState(0);
  const [exported, setExported] = useState<string | undefined>();
  const workspaceRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const blockedId = useId();
  const { table } = list;
  const marks = orders?.marks ?? EMPTY_MARKS;
  const cancelLog = orders?.cancelLog;
  const label = ENVIRONMENT_LABELS[environment];

  // Typing stays responsive: the list follows the query a moment later if it needs the time.
  const viewQuery = useMemo(() => toViewQuery(query), [query]);
  const deferredQuery = useDeferredValue(viewQuery);
  const rows = useMemo(() => table.view(deferredQuery), [table, deferredQuery]);
  const statuses: ReadonlyMap<string, RowStatus> = useMemo(
    () => rowStatuses(cancelLog ?? [], list.receivedAt),
    [cancelLog, list.receivedAt],
  );
  const askBulkCancel = useAppStore((state) => state.askBulkCancel);
  const bulkRunning = useAppStore((state) => {
    const status = state.bulkJobs[environment]?.status;
    return status === 'running' || status === 'paused';
  });
  // Ticked rows belong to one list: a new list starts with none.
  const [ticked, setTicked] = useState(() => ({
    table,
    selection: RowSelection.empty(table.count),
  }));
  const selection = ticked.table === table ? ticked.selection : RowSelection.empty(table.count);
  const setSelection = (next: RowSelection) => setTicked({ table, selection: next });
  const selectedRow = orders?.selection?.row;
  const position = useMemo(
    () => (selectedRow === undefined ? -1 : rows.indexOf(selectedRow)),
    [rows, selectedRow],
  );
  usePreparedTable(list);

  // Cancels wait while the service holds requests back (429, ban) or cannot be reached.
  const hold = orders?.cancelHold;
  const holdUntil = Math.max(hold?.until ?? 0, quotaHold ?? 0) || undefined;
  const holding = useBefore(holdUntil);
  const banned = hold?.kind === 'banned' || quotaBanned;
  const cancelBlocked = offline
    ? `Cancelling is unavailable: ${label} cannot be reached. Refresh to check the connection.`
    : holding && holdUntil !== undefined
      ? banned
        ? `Cancelling is paused until ${formatClock(holdUntil)}: the service has temporarily banned this API key.`
        : `Cancelling is paused until ${formatClock(holdUntil)}: the service rate-limited this API key. The Cancel buttons come back then.`
      : undefined;

  const tickedState = useMemo(() => selection.stateOf(rows), [selection, rows]);

  /** The ticked orders that can still be cancelled, by id. */
  const cancellableTicked = () =>
    selection
      .rows()
      .map((row) => table.idAt(row))
      .filter((id): id is string => id !== undefined && canStillCancel(statuses.get(id)));

  const exportView = () => {
    const name = `orders-${environment}-${fileStamp(Date.now())}.csv`;
    saveTextFile(name, ordersCsvParts(table, rows, marks, statuses), 'text/csv');
    setExported(`Exported ${formatCount(rows.length)} orders to ${name}.`);
  };

  const focusList = () =>
    workspaceRef.current?.querySelector<HTMLElement>('[role="row"][tabindex="0"]')?.focus();

  return (
    <div ref={workspaceRef} className="orders-workspace">
      <OrderFilters />
      <div className="view-bar">
        <p role="status" className="view-count">
          {list.partial
            ? `Showing ${formatCount(rows.length)} of the first ${formatCount(table.count)} orders; the rest are being read`
            : `Showing ${formatCount(rows.length)} of ${formatCount(table.count)} orders`}
          {viewQuery !== deferredQuery ? ' (updating…)' : ''}
        </p>
        <button type="button" onClick={exportView}>
          Export view as CSV
        </button>
        <span role="status" className="muted">
          {exported}
        </span>
      </div>
      <div className="bulk-bar">
        <span role="status">
          {selection.size === 0
            ? 'No orders ticked for a bulk cancel.'
            : `${formatCount(selection.size)} orders ticked.`}
        </span>
        <button
          type="button"
          className="danger-button"
          disabled={selection.size === 0}
          aria-disabled={cancelBlocked || bulkRunning ? true : undefined}
          aria-describedby={cancelBlocked ? blockedId : undefined}
          title={
            bulkRunning ? 'A bulk cancel is already under way in this environment.' : cancelBlocked
          }
          onClick={() => {
            if (!cancelBlocked && !bulkRunning) askBulkCancel(environment, cancellableTicked());
          }}
        >
          Cancel ticked orders…
        </button>
        <button
          type="button"
          disabled={selection.size === 0}
          onClick={() => setSelection(RowSelection.empty(table.count))}
        >
          Clear ticks
        </button>
      </div>
      {cancelBlocked && (
        <p id={blockedId} className="message message-warning cancel-blocked">
          {cancelBlocked}
        </p>
      )}
      <div className="orders-body">
        <OrdersGrid
          label={`${label} orders`}
          busy={list.partial === true}
          table={table}
          rows={rows}
          position={position}
          sort={query.sort}
          marks={marks}
          statuses={statuses}
          cancelBlocked={cancelBlocked}
          cancelBlockedId={blockedId}
          onSort={(column) => setQuery({ sort: nextSort(query, column) })}
          onSelect={(at) => {
            const row = rows[at];
            if (row !== undefined) selectOrderRow(environment, row);
          }}
          onOpenDetails={() => setDetailsFocus((n) => n + 1)}
          onCancel={(id) => askToCancel(environment, id)}
          selection={selection}
          tickedState={tickedState}
          onTick={(at, range) => {
            const row = rows[at];
            if (row === undefined) return;
            setSelection(range ? selection.range(rows, at) : selection.toggle(row));
          }}
          onTickAll={() => setSelection(selection.toggleAll(rows))}
        />
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
        />
      </div>
      {rows.length === 0 && <p className="empty">No orders match the search and filters.</p>}
    </div>
  );
}

/** Builds sort orders and ship times in idle time after a list arrives, so the first sort is instant. */
function usePreparedTable(list: LoadedOrders) {
  useEffect(() => {
    const { table } = list;
    let step = 0;
    let cancelled = false;
    const idle: (run: () => void) => () => void =
      typeof window.requestIdleCallback === 'function'
        ? (run) => {
            const handle = window.requestIdleCallback(run, { timeout: 2000 });
            return () => window.cancelIdleCallback(handle);
          }
        : (run) => {
            const handle = setTimeout(run, 50);
            return () => clearTimeout(handle);
          };
    let cancel = idle(function next() {
      if (cancelled) return;
      if (table.prepareStep(step++)) cancel = idle(next);
    });
    return () => {
      cancelled = true;
      cancel();
    };
  }, [list]);
}

function ReadingProgress({ read, count }: { read: number; count: number }) {
  const text = `${formatCount(read)} of ${formatCount(count)} orders`;
  return (
    <div className="progress">
      <label htmlFor="orders-reading">Reading orders</label>
      <progress
        id="orders-reading"
        max={Math.max(count, 1)}
        value={Math.min(read, count)}
        aria-valuetext={text}
      />
      <span className="progress-text">{text}</span>
    </div>
  );
}

function DownloadProgress({
  receivedBytes,
  totalBytes,
}: {
  receivedBytes: number;
  totalBytes?: number;
}) {
  const known = totalBytes !== undefined && totalBytes > 0;
  const text = known
    ? `${formatBytes(receivedBytes)} of ${formatBytes(totalBytes)}`
    : `${formatBytes(receivedBytes)} received (total size not known)`;
  return (
    <div className="progress">
      <label htmlFor="orders-progress">Downloading orders</label>
      {known ? (
        <progress
          id="orders-progress"
          max={totalBytes}
          value={Math.min(receivedBytes, totalBytes)}
          aria-valuetext={text}
        />
      ) : (
        <progress id="orders-progress" aria-valuetext={text} />
      )}
      <span className="progress-text">{text}</span>
    </div>
  );
}

function LoadFailure({ environment, failure }: { environment: EnvironmentId; failure: Failure }) {
  const hasBaseUrl = useAppStore(
    (state) =>
      !isRemoteEnvironment(environment) ||
      state.environments.some((view) => view.id === environment && view.baseUrl),
  );
  return (
    <div role="alert" className="message message-error">
      <p>
        <strong>The list was not refreshed.</strong> {failure.message}
      </p>
      {failureNeedsSettings(failure, environment, hasBaseUrl) && (
        <OpenSettingsButton environment={environment} />
      )}
    </div>
  );
}
