// The orders of each environment: the last good list (from this session's
// refresh, or the copy main saved on disk), the download in progress, the
// local review marks and cancel log, the selected order, and the cancel flow.
// How the list is searched, filtered and sorted is one set of choices for
// the screen, kept here so it survives a visit to Settings.

import type { ShownOutcome } from '../../../../shared/bulk-cancel.ts';
import type { EnvironmentId } from '../../../../shared/environments.ts';
import type { Failure } from '../../../../shared/failures.ts';
import type {
  CancelOutcomeView,
  EnvironmentView,
  EventPayloads,
} from '../../../../shared/ipc-contract.ts';
import type { OrderStreams } from '../../../../shared/order-stream.ts';
import type { CancelLogEntry, ReviewMarks } from '../../../../shared/orders-local.ts';
import type { Result } from '../../../../shared/result.ts';
import type { SliceCreator } from '../../store.ts';
import { isOffline } from '../connectivity/connectivity-slice.ts';
import { autoRefreshInterval, planAutoRefresh } from './auto-refresh.ts';
import { receiveList } from './table/list-receiver.ts';
import type { ChangesFilter } from '../changes/change-lookup.ts';
import type {
  OrderTable,
  CompleteFilter,
  SearchMode,
  SearchScope,
  SortSpec,
} from './table/order-table.ts';

export interface LoadedOrders {
  readonly table: OrderTable;
  /** Epoch ms of the service's answer. */
  readonly receivedAt: number;
  readonly bytes: number;
  /** `service`: refreshed in this session; `cache`: the copy saved on this computer. */
  readonly source: 'service' | 'cache';
  /**
   * The rows so far of a list still arriving (`receivedAt` and `bytes` are
   * not known yet): more are coming, or the list may yet fail and go.
   */
  readonly partial?: boolean;
}

export type OrdersLoad =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading'; readonly receivedBytes: number; readonly totalBytes?: number }
  /** `at`: epoch ms when it failed. */
  | { readonly kind: 'failed'; readonly failure: Failure; readonly at: number };

export interface OrderSelection {
  /** Row of the current list. */
  readonly row: number;
  /** Its order id, to find it again in the next list. */
  readonly id?: string;
}

export interface EnvironmentOrders {
  /** The last good list, kept while a new one downloads and after a refresh fails. */
  readonly list?: LoadedOrders;
  readonly load: OrdersLoad;
  /** Whether the saved copy, review marks and cancel log were read this session. */
  readonly local: 'unread' | 'reading' | 'read';
  /** The base address the environment had when it was opened: a list belongs to one service. */
  readonly service?: string;
  /** Epoch ms of this session's last refresh attempt, successful or not. */
  readonly lastAttemptAt?: number;
  /** Orders of the download under way read so far (its rows may not be on screen). */
  readonly downloaded?: number;
  readonly marks: ReviewMarks;
  /** Oldest first, as main keeps it. */
  readonly cancelLog: readonly CancelLogEntry[];
  /**
   * The last answer that refused the key (or found none), from a refresh or a
   * cancel; it stands until a call gets through or the key changes.
   */
  readonly keyFailure?: Failure;
  /** The last answer that held requests back (429, ban), for its codes and words. */
  readonly holdFailure?: Failure;
  readonly selection?: OrderSelection;
}

interface CancelTarget {
  readonly environment: EnvironmentId;
  readonly orderId: string;
}

/** The cancel flow, one step at a time: asking, sending, then what came back. */
export type CancelFlow =
  | { readonly step: 'idle' }
  | ({ readonly step: 'confirm' } & CancelTarget)
  | ({ readonly step: 'sending' } & CancelTarget)
  | ({ readonly step: 'answered'; readonly outcome: CancelOutcomeView } & CancelTarget)
  | ({ readonly step: 'failed'; readonly failure: Failure } & CancelTarget);

/** How the list is searched, filtered and sorted. Dates are the `YYYY-MM-DD` of date fields, local days. */
export interface OrdersQuery {
  readonly search: string;
  readonly scope: SearchScope;
  readonly mode: SearchMode;
  readonly complete: CompleteFilter;
  readonly shipFrom: string;
  readonly shipTo: string;
  readonly sort?: SortSpec;
  /** New, changed or gone since the last refresh (features/changes). */
  readonly changes: ChangesFilter;
  /** The orders of one outcome of the last bulk cancel (its strip's counts). */
  readonly bulkOutcome?: BulkOutcomeFilter;
}

/** The orders a finished bulk cancel's count stands for, to show them in the grid. */
export interface BulkOutcomeFilter {
  readonly environment: EnvironmentId;
  readonly outcome: ShownOutcome;
  readonly ids: ReadonlySet<string>;
}

export const DEFAULT_ORDERS_QUERY: OrdersQuery = {
  search: '',
  scope: 'any',
  mode: 'contains',
  complete: 'all',
  shipFrom: '',
  shipTo: '',
  changes: 'all',
};

/** What the side panel beside the grid shows: the selected order, the cancel log, or nothing. */
export type OrdersPanel = 'none' | 'details' | 'log';

export interface OrdersSlice {
  readonly orders: Partial<Record<EnvironmentId, EnvironmentOrders>>;
  readonly cancelFlow: CancelFlow;
  /** The search, filters and sort of the environment on screen. */
  readonly ordersQuery: OrdersQuery;
  /** Each other environment's, as the clerk left it there: a filter set in one never shows in another. */
  readonly otherOrdersQueries: Partial<Record<EnvironmentId, OrdersQuery>>;
  readonly ordersPanel: OrdersPanel;
  /**
   * Epoch ms of the last time the machine woke, the screen was unlocked or
   * the network came back: the automatic refresh's timer slept, and is set
   * again from the wall clock.
   */
  readonly wokeAt?: number;
  showOrdersPanel(panel: OrdersPanel): void;
  /**
   * The machine woke or the network came back (main's `app:awake`, the page's
   * `online`): the active environment's service is looked at now if it could
   * not be reached, its list refreshed if a refresh is due, and the timer for
   * the next one set again.
   */
  awake(): Promise<void>;
  /** Shows the saved copy at once and reads the local marks and log, once per session and environment. */
  openOrders(environment: EnvironmentId): Promise<void>;
  refreshOrders(environment: EnvironmentId): Promise<void>;
  /** Refreshes when the automatic plan says it is due now (quota, connectivity, interval). */
  autoRefreshIfDue(environment: EnvironmentId): Promise<void>;
  applyOrdersProgress(payload: EventPayloads['orders:progress']): void;
  setOrdersQuery(change: Partial<OrdersQuery>): void;
  clearOrdersFilters(): void;
  /** The screen goes from one environment to another: each keeps its own search, filters and sort. */
  switchOrdersQuery(from: EnvironmentId, to: EnvironmentId): void;
  selectOrderRow(environment: EnvironmentId, row: number): void;
  loadCancelLog(environment: EnvironmentId): Promise<void>;
  saveReviewMark(
    environment: EnvironmentId,
    orderId: string,
    mark: { reviewed: boolean; note: string },
  ): Promise<Result<ReviewMarks>>;
  askToCancel(environment: EnvironmentId, orderId: string): void;
  dismissCancel(): void;
  confirmCancel(): Promise<void>;
  /** The last cancel's outcome has been read (its message goes away; the row keeps its status). */
  dismissCancelOutcome(): void;
  /**
   * The environment's key changed: an answer that refused the old key says
   * nothing about the new one, and the automatic refresh may try again.
   */
  forgetKeyFailures(environment: EnvironmentId): void;
}

const EMPTY: EnvironmentOrders = {
  load: { kind: 'idle' },
  local: 'unread',
  marks: {},
  cancelLog: [],
};

/**
 * When the list was last refreshed or tried: this session's last attempt, or
 * the time of the list on screen (a saved copy counts from when it was
 * downloaded), whichever is later.
 */
export function lastRefreshOf(orders: EnvironmentOrders | undefined): number | undefined {
  const attempt = orders?.lastAttemptAt;
  const list = orders?.list && !orders.list.partial ? orders.list.receivedAt : undefined;
  if (attempt === undefined) return list;
  return list === undefined ? attempt : Math.max(attempt, list);
}

const isKeyFailure = (failure: Failure) =>
  failure.kind === 'unauthorized' || failure.kind === 'no-key';
const isHoldFailure = (failure: Failure) =>
  failure.kind === 'rate-limited' || failure.kind === 'banned';

/**
 * A refresh failed in a way only Settings can fix: no address yet (the list
 * is never asked for an invalid-input of its own), no key, a refused key.
 * Trying again by itself would change nothing.
 */
export function waitsForSettings(load: OrdersLoad): boolean {
  return (
    load.kind === 'failed' && (isKeyFailure(load.failure) || load.failure.kind === 'invalid-input')
  );
}

/**
 * A remote environment is set up once it has an address and a key; until
 * then nothing is asked of its service (the notice area says what to do).
 */
export function isSetUp(
  state: { readonly environments: readonly EnvironmentView[] },
  environment: EnvironmentId,
): boolean {
  if (environment === 'sandbox') return true;
  const view = state.environments.find((candidate) => candidate.id === environment);
  return view?.baseUrl !== undefined && view.key?.set !== false;
}

/** What a failed call tells about the key and the holds, to keep beside the environment's orders. */
function learnedFrom(failure: Failure): Partial<EnvironmentOrders> {
  if (isKeyFailure(failure)) return { keyFailure: failure };
  if (isHoldFailure(failure)) return { holdFailure: failure };
  return {};
}

export const createOrdersSlice =
  (streams: OrderStreams): SliceCreator<OrdersSlice> =>
  (api) =>
  (set, get) => {
    const current = (environment: EnvironmentId) => get().orders[environment] ?? EMPTY;
    const update = (environment: EnvironmentId, change: Partial<EnvironmentOrders>) => {
      set({ orders: { ...get().orders, [environment]: { ...current(environment), ...change } } });
    };

    /** Whether rows still arriving may take the screen: nothing whole is shown (rows of a `source` may go on). */
    const rowsMayShow = (environment: EnvironmentId, source: LoadedOrders['source']) => {
      const shown = current(environment).list;
      return (
        !shown || (shown.partial === true && (source === 'service' || shown.source === source))
      );
    };

    /** Takes the rows of a failed list of `source` off the screen, if they are on it. */
    const dropRows = (environment: EnvironmentId, source: LoadedOrders['source']) => {
      const shown = current(environment).list;
      if (shown?.partial && shown.source === source) update(environment, { list: undefined });
    };

    /**
     * A new table of the environment's list is about to take the screen: the
     * ticks go with it (row for row while more rows of the same download
     * arrive, by order id after a refresh).
     */
    const carryTicks = (
      environment: EnvironmentId,
      table: OrderTable,
      source: LoadedOrders['source'],
    ) => {
      const shown = current(environment).list;
      if (!shown) return;
      const sameRows = shown.partial === true && shown.source === source;
      get().carryTicks(environment, shown.table, table, sameRows);
    };

    const showRows =
      (environment: EnvironmentId, source: LoadedOrders['source']) => (table: OrderTable) => {
        if (!rowsMayShow(environment, source)) return;
        carryTicks(environment, table, source);
        update(environment, {
          list: { table, receivedAt: Date.now(), bytes: 0, source, partial: true },
        });
      };

    const serviceOf = (environment: EnvironmentId) =>
      get().environments.find((view) => view.id === environment)?.baseUrl;

    const followSelection = (
      environment: EnvironmentId,
      table: OrderTable,
    ): OrderSelection | undefined => {
      const id = current(environment).selection?.id;
      if (id === undefined) return undefined;
      const row = table.rowOfId(id);
      return row === undefined ? undefined : { row, id };
    };

    const loadLocal = async (environment: EnvironmentId) => {
      const [marks, log] = await Promise.all([
        api.reviewMarks.list(environment),
        api.cancelLog.list(environment),
      ]);
      update(environment, {
        ...(marks.ok ? { marks: marks.value } : {}),
        ...(log.ok ? { cancelLog: log.value } : {}),
      });
    };

    return {
      orders: {},
      cancelFlow: { step: 'idle' },
      ordersQuery: DEFAULT_ORDERS_QUERY,
      otherOrdersQueries: {},
      ordersPanel: 'none',

      showOrdersPanel(panel) {
        set({ ordersPanel: panel });
      },

      async awake() {
        set({ wokeAt: Date.now() });
        const environment = get().activeEnvironment;
        // A service the window last found unreachable is looked at now (its answer ends the
        // notice, and a bulk cancel waiting on it carries on); one that answered gets its
        // refresh if one is due.
        if (isOffline(get(), environment)) await api.connection.test(environment);
        else await get().autoRefreshIfDue(environment);
      },

      async openOrders(environment) {
        const service = serviceOf(environment);
        const state = current(environment);
        if (state.local !== 'unread' && state.service === service) return;
        // First opening, or the environment now points at another service: nothing of the old list applies.
        set({
          orders: { ...get().orders, [environment]: { ...EMPTY, local: 'reading', service } },
        });
        const stillOurs = () => current(environment).service === service;
        const [{ result: cached, table }] = await Promise.all([
          receiveList(
            streams,
            (streamId) => api.orders.cached(environment, streamId),
            (result) => (result.ok && result.value.found ? result.value.list.count : undefined),
            { onRows: (rows) => stillOurs() && showRows(environment, 'cache')(rows) },
          ),
          loadLocal(environment),
        ]);
        if (stillOurs()) {
          if (table && cached.ok && cached.value.found) {
            // A refresh may have finished meanwhile: the newer list stays (a whole list beats rows so far).
            const { receivedAt, bytes } = cached.value.list;
            const shown = current(environment).list;
            if (!shown || shown.partial) {
              carryTicks(environment, table, 'cache');
              update(environment, {
                list: { table, receivedAt, bytes, source: 'cache' },
                selection: followSelection(environment, table),
              });
            }
          } else {
            dropRows(environment, 'cache');
          }
        }
        if (!stillOurs()) return;
        update(environment, { local: 'read' });
        const list = current(environment).list;
        const interval = autoRefreshInterval(get().quotas[environment]);
        if (list && !list.partial && Date.now() - list.receivedAt < interval) {
          // A copy this recent is refreshed at the usual interval; one cheap call says meanwhile
          // whether the service answers and takes the key (the list itself is not downloaded).
          const probe = await api.connection.test(environment);
          const failure = probe.ok ? undefined : probe.error;
          if (
            failure &&
            (failure.kind === 'unauthorized' || failure.kind === 'no-key') &&
            stillOurs()
          ) {
            update(environment, {
              load: { kind: 'failed', failure, at: Date.now() },
              ...learnedFrom(failure),
            });
          }
        }
      },

      async refreshOrders(environment) {
        const { load } = current(environment);
        if (load.kind === 'loading') return;
        update(environment, {
          load: { kind: 'loading', receivedBytes: 0 },
          lastAttemptAt: Date.now(),
          downloaded: 0,
        });
        const service = current(environment).service;
        const stillOurs = () => current(environment).service === service;
        const { result, table, broken } = await receiveList(
          streams,
          (streamId) => api.orders.list(environment, streamId),
          (answer) => (answer.ok ? answer.value.count : undefined),
          {
            onRows: (rows) => {
              if (!stillOurs()) return;
              update(environment, { downloaded: rows.count });
              showRows(environment, 'service')(rows);
            },
          },
        );
        // The environment was pointed at another service meanwhile: this answer is not its list.
        if (!stillOurs()) return;
        if (!result.ok || !table) {
          const failure: Failure = !result.ok
            ? result.error
            : {
                kind: 'invalid-response',
                message: `Store Admin could not read the order list${broken ? ' (it did not arrive whole)' : ''}.`,
                delivery: 'answered',
              };
          // The rows that came of this list go; the last good list (if there is one) stays.
          dropRows(environment, 'service');
          update(environment, {
            load: { kind: 'failed', failure, at: Date.now() },
            downloaded: undefined,
            ...learnedFrom(failure),
          });
          return;
        }
        const { receivedAt, bytes } = result.value;
        carryTicks(environment, table, 'service');
        update(environment, {
          list: { table, receivedAt, bytes, source: 'service' },
          load: { kind: 'idle' },
          downloaded: undefined,
          keyFailure: undefined,
          selection: followSelection(environment, table),
        });
      },

      async autoRefreshIfDue(environment) {
        const state = get();
        const orders = current(environment);
        const { load } = orders;
        const now = Date.now();
        const plan = planAutoRefresh({
          now,
          lastAttemptAt: lastRefreshOf(orders),
          quota: state.quotas[environment],
          offline: isOffline(state, environment),
          refreshing: load.kind === 'loading',
          needsSettings: waitsForSettings(load) || !isSetUp(state, environment),
        });
        if (plan.kind === 'at' && plan.at <= now) await get().refreshOrders(environment);
      },

      applyOrdersProgress({ environment, receivedBytes, totalBytes }) {
        if (current(environment).load.kind !== 'loading') return;
        update(environment, {
          load:
            totalBytes === undefined
              ? { kind: 'loading', receivedBytes }
              : { kind: 'loading', receivedBytes, totalBytes },
        });
      },

      setOrdersQuery(change) {
        set({ ordersQuery: { ...get().ordersQuery, ...change } });
      },

      switchOrdersQuery(from, to) {
        if (from === to) return;
        const { [to]: next = DEFAULT_ORDERS_QUERY, ...others } = get().otherOrdersQueries;
        set({ ordersQuery: next, otherOrdersQueries: { ...others, [from]: get().ordersQuery } });
      },

      clearOrdersFilters() {
        // Sorting is how the clerk reads the list, not a filter: it stays.
        set({ ordersQuery: { ...DEFAULT_ORDERS_QUERY, sort: get().ordersQuery.sort } });
      },

      selectOrderRow(environment, row) {
        const list = current(environment).list;
        if (!list || row < 0 || row >= list.table.count) return;
        if (current(environment).selection?.row === row) return;
        const id = list.table.idAt(row);
        update(environment, { selection: id === undefined ? { row } : { row, id } });
      },

      async loadCancelLog(environment) {
        const log = await api.cancelLog.list(environment);
        if (log.ok) update(environment, { cancelLog: log.value });
      },

      async saveReviewMark(environment, orderId, mark) {
        const result = await api.reviewMarks.set(environment, orderId, mark);
        if (result.ok) update(environment, { marks: result.value });
        return result;
      },

      askToCancel(environment, orderId) {
        if (get().cancelFlow.step === 'sending') return;
        set({ cancelFlow: { step: 'confirm', environment, orderId } });
      },

      dismissCancel() {
        // A cancel already sent cannot be called back; its answer is still shown.
        if (get().cancelFlow.step === 'sending') return;
        set({ cancelFlow: { step: 'idle' } });
      },

      async confirmCancel() {
        const flow = get().cancelFlow;
        if (flow.step !== 'confirm') return;
        const { environment, orderId } = flow;
        set({ cancelFlow: { step: 'sending', environment, orderId } });
        const result = await api.orders.cancel(environment, orderId);
        const at = Date.now();
        let entry: CancelLogEntry;
        let answered: CancelFlow | undefined;
        if (!result.ok) {
          const failure = result.error;
          // A hold (429, ban) is the gate's, in main: the quota view brings its real time.
          set({ cancelFlow: { step: 'failed', environment, orderId, failure } });
          update(environment, learnedFrom(failure));
          entry = {
            at,
            environment,
            orderId,
            result: 'failed',
            message: failure.message,
            delivery: failure.delivery,
          };
        } else {
          const outcome: CancelOutcomeView = {
            kind: result.value.kind,
            message: result.value.message,
          };
          answered = { step: 'answered', environment, orderId, outcome };
          update(environment, { keyFailure: undefined });
          entry = { at, environment, orderId, result: outcome.kind, message: outcome.message };
        }
        // The rows' statuses (cancelled, shipped, gone) come from the cancel log: this answer
        // counts at once, then main's own log (which has every attempt) replaces the copy.
        update(environment, { cancelLog: [...current(environment).cancelLog, entry] });
        await get().loadCancelLog(environment);
        // The answer is said with main's log at hand: a 404 for an order it saw cancelled
        // reads "already cancelled", in the message and in the row alike.
        if (answered) set({ cancelFlow: answered });
      },

      dismissCancelOutcome() {
        const { step } = get().cancelFlow;
        if (step === 'answered' || step === 'failed') set({ cancelFlow: { step: 'idle' } });
      },

      forgetKeyFailures(environment) {
        const { load } = current(environment);
        // A refresh the old key lost is due again at once with the new one.
        update(environment, {
          keyFailure: undefined,
          ...(load.kind === 'failed' && isKeyFailure(load.failure)
            ? { load: { kind: 'idle' }, lastAttemptAt: undefined }
            : {}),
        });
      },
    };
  };
