// The orders of the active environment, the screen store staff work in, laid
// out as a desktop tool: a toolbar (search, filters, the bulk-cancel actions
// while orders are ticked, export, the cancel log, refresh), a bulk cancel's
// strip while one is shown, the grid taking all the height left (it scrolls
// inside itself) with a side panel for the selected order or the cancel log,
// and a status bar (what is shown, when the list was refreshed, progress).
// Outcomes are short messages that go away; conditions (offline, holds, the
// key) are in the window's notice area. What is shown is derived in
// use-orders-view.ts; this file lays it out.

import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
} from 'react';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import { fileStamp, saveTextFile } from '../../components/save-file.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { Toast } from '../../components/toast.tsx';
import { useNow } from '../../components/use-now.ts';
import { formatClock, formatCount } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { isOffline } from '../connectivity/connectivity-slice.ts';
import { BulkCancelDialog } from '../bulk-cancel/bulk-cancel-dialog.tsx';
import { useCommandHandler } from '../commands/command-registry.tsx';
import { BulkCancelFailure, BulkCancelPanel } from '../bulk-cancel/bulk-cancel-panel.tsx';
import { TicksLost } from '../bulk-cancel/ticks-lost.tsx';
import { GoneOrders } from '../changes/gone-orders.tsx';
import type { AutoRefreshPlan } from './auto-refresh.ts';
import { CancelLogPanel } from './cancel-log-view.tsx';
import { CancelOrderDialog } from './cancel-order-dialog.tsx';
import { CancelOutcome } from './cancel-outcome.tsx';
import { OrderDetails } from './order-details.tsx';
import { activeFilterCount, isFiltered } from './order-filters.tsx';
import { ordersCsvParts } from './orders-csv.ts';
import { OrdersGrid } from './orders-grid.tsx';
import {
  isSetUp,
  type EnvironmentOrders,
  type LoadedOrders,
  type OrdersLoad,
  type OrdersQuery,
} from './orders-slice.ts';
import { OrdersStatusBar } from './orders-status-bar.tsx';
import { OrdersToolbar } from './orders-toolbar.tsx';
import type { SearchHighlight } from './table/order-cells.ts';
import { useAutoRefresh } from './use-auto-refresh.ts';
import { useOrdersView } from './use-orders-view.ts';
import './orders.css';
import { setUpWords } from '../notices/notices.ts';

const IDLE: OrdersLoad = { kind: 'idle' };

export function OrdersScreen() {
  const environment = useAppStore((state) => state.activeEnvironment);
  const orders = useAppStore((state) => state.orders[environment]);
  const openOrders = useAppStore((state) => state.openOrders);
  const offline = useAppStore((state) => isOffline(state, environment));
  const service = useAppStore(
    (state) => state.environments.find((view) => view.id === environment)?.baseUrl,
  );
  const outcomeRef = useRef<HTMLDivElement>(null);
  const [exported, setExported] = useState<string | undefined>();
  const [copied, setCopied] = useState<string | undefined>();
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
  // A stopped job's cancels whose answer never came are logged too ("may have been cancelled").
  const bulkUnansweredLogged = useAppStore(
    (state) => state.bulkJobs[environment]?.unansweredLogged ?? 0,
  );
  useEffect(() => {
    if (bulkDone > 0 || bulkUnansweredLogged > 0) void loadCancelLog(environment);
  }, [environment, bulkStatus, loadCancelLog, bulkDone, bulkUnansweredLogged]);

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
        onCopied={setCopied}
      />

      {/* Shown in the window's message dock, under the grid (components/toast.tsx). */}
      <CancelOutcome ref={outcomeRef} />
      <BulkCancelFailure />
      <TicksLost environment={environment} />
      <Toast label="Export" onDone={() => setExported(undefined)} messageKey={exported}>
        {exported && <p>{exported}</p>}
      </Toast>
      <Toast label="Copied" onDone={() => setCopied(undefined)} messageKey={copied}>
        {copied && <p>{copied}</p>}
      </Toast>
      <CancelOrderDialog fallbackFocus={outcomeRef} />
      <BulkCancelDialog fallbackFocus={outcomeRef} />
    </section>
  );
}

function OrdersWorkspace({
  environment,
  list,
  orders,
  offline,
  plan,
  now,
  onExported,
  onCopied,
}: {
  environment: EnvironmentId;
  list: LoadedOrders | undefined;
  orders: EnvironmentOrders | undefined;
  offline: boolean;
  plan: AutoRefreshPlan;
  now: number;
  onExported: (message: string) => void;
  onCopied: (message: string) => void;
}) {
  const clearFilters = useAppStore((state) => state.clearOrdersFilters);
  const setQuery = useAppStore((state) => state.setOrdersQuery);
  const selectOrderRow = useAppStore((state) => state.selectOrderRow);
  const askToCancel = useAppStore((state) => state.askToCancel);
  const panel = useAppStore((state) => state.ordersPanel);
  const showPanel = useAppStore((state) => state.showOrdersPanel);
  const [detailsFocus, setDetailsFocus] = useState(0);
  const workspaceRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const blockedId = useId();
  const label = ENVIRONMENT_LABELS[environment];
  const {
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
    clearTicks,
    cancellableTicked,
    selectedRow,
    position,
    cancelBlocked,
    sortBy,
  } = useOrdersView(environment, orders, offline);
  const changesFilter = query.changes;
  const highlight = useMemo(() => searchHighlight(query), [query]);

  const exportView = () => {
    if (!table) return;
    const name = `orders-${environment}-${fileStamp(Date.now())}.csv`;
    saveTextFile(name, ordersCsvParts(table, rows, marks, statuses), 'text/csv');
    onExported(`Exported ${formatCount(rows.length)} orders to ${name}.`);
  };

  const focusList = () =>
    workspaceRef.current?.querySelector<HTMLElement>('[role="row"][tabindex="0"]')?.focus();

  const toggleLog = () =>
    showPanel(panel === 'log' ? (selectedRow === undefined ? 'none' : 'details') : 'log');

  /** The order's details, its heading focused; `searchFor`: the list searched for it alone first. */
  const openOrder = (id: string | undefined, searchFor: boolean) => {
    const row = id === undefined ? undefined : table?.rowOfId(id);
    if (id === undefined || row === undefined) return;
    if (searchFor) {
      clearFilters();
      setQuery({ search: id });
    }
    selectOrderRow(environment, row);
    showPanel('details');
    setDetailsFocus((n) => n + 1);
  };
  // The toolbar's handlers keep their identity while the rows change (a keystroke in the search),
  // so the toolbar is not rendered, nor its bar measured, again for nothing.
  const onCancelTicked = useStableHandler(cancellableTicked);
  const onClearTicks = useStableHandler(clearTicks);
  const onExport = useStableHandler(exportView);
  const onToggleLog = useStableHandler(toggleLog);
  useCommandHandler('export-view', exportView);
  useCommandHandler('toggle-cancel-log', toggleLog);
  useCommandHandler('go-to-order', (id) => openOrder(id, true));
  useCommandHandler('open-order', (id) => openOrder(id, false));

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
        onCancelTicked={onCancelTicked}
        onClearTicks={onClearTicks}
        onExport={onExport}
        logOpen={panel === 'log'}
        onToggleLog={onToggleLog}
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
            onSort={sortBy}
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
            highlight={highlight}
            onCopied={onCopied}
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
            onLeave={focusList}
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
        plan={plan}
        now={now}
      />
    </div>
  );
}

/** A handler of one identity for the component's life that calls the latest render's `handler`. */
function useStableHandler<A extends unknown[], R>(handler: (...args: A) => R): (...args: A) => R {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}

/** The digits searched for, as the grid marks them in the ids; none while nothing is searched. */
function searchHighlight(query: OrdersQuery): SearchHighlight | undefined {
  const text = query.search.trim();
  if (!/^\d+$/.test(text)) return undefined;
  return {
    text,
    inId: query.scope !== 'petId',
    inPetId: query.scope !== 'id',
    atStart: query.mode === 'starts-with',
  };
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
  if (query.bulkOutcome && !search && activeFilterCount(query) === 1) {
    return (
      <>
        <p>
          None of these orders is in the list now: cancelled orders leave it at the next refresh.
        </p>
        <button type="button" onClick={onClear}>
          Show all orders
        </button>
      </>
    );
  }
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
  const setUp = useAppStore((state) => isSetUp(state, environment));
  const hasBaseUrl = useAppStore(
    (state) => state.environments.find((view) => view.id === environment)?.baseUrl !== undefined,
  );
  const showSettings = useAppStore((state) => state.showSettings);
  let text: string | undefined;
  if (!setUp && load.kind !== 'loading') {
    // Where the orders would be, what is missing and the way to it: the notice area, which
    // says it on the other screens, leaves it to this one (notice-area.tsx).
    const { title, sentence } = setUpWords(label, hasBaseUrl);
    return (
      <div className="orders-placeholder" role="status">
        <p>
          <strong>{title}</strong> {sentence}
        </p>
        <button
          type="button"
          className="primary-button"
          onClick={() => showSettings(environment, { focusHeading: true })}
        >
          Set up {label}
        </button>
      </div>
    );
  } else if (orders?.local !== 'read' && load.kind === 'idle') {
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
