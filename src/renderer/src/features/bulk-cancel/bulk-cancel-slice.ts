// Bulk cancel as the clerk drives it: a confirmation that names the count and
// the environment, then the job in the main process (its snapshot arrives as
// events), with pause, resume, stop and the results to export.

import type { BulkCancelSnapshot, ShownOutcome } from '../../../../shared/bulk-cancel.ts';
import type { EnvironmentId } from '../../../../shared/environments.ts';
import type { Failure } from '../../../../shared/failures.ts';
import type { EventPayloads } from '../../../../shared/ipc-contract.ts';
import type { Result } from '../../../../shared/result.ts';
import type { SliceCreator } from '../../store.ts';
import { fileStamp, saveTextFile } from '../../components/save-file.ts';
import type { OrderTable } from '../orders/table/order-table.ts';
import { bulkResultsCsv } from './bulk-results-csv.ts';
import type { RowSelection } from './row-selection.ts';

/** Why a ticked order is not sent a cancel. */
export type LeftOutReason = 'shipped' | 'cancelled' | 'gone' | 'no-id';

/** How the orders to cancel came from the ticks, for the confirmation to say. */
export interface TickedOrders {
  /** Orders ticked. */
  readonly ticked: number;
  /** Ticked orders left out, by why (none: every ticked order is sent). */
  readonly leftOut: Readonly<Partial<Record<LeftOutReason, number>>>;
  /** Ticked orders the search and filters do not show now (sent all the same). */
  readonly notShown: number;
}

/** What the confirmation is for: ticked orders, or the failed cancels of the last bulk cancel again. */
export type BulkCancelAsk =
  { readonly kind: 'ticked'; readonly ticks?: TickedOrders } | { readonly kind: 'retry-failed' };

interface BulkTarget {
  readonly environment: EnvironmentId;
  readonly orderIds: readonly string[];
  readonly ask: BulkCancelAsk;
}

export type BulkCancelFlow =
  | { readonly step: 'idle' }
  | ({ readonly step: 'confirm' } & BulkTarget)
  | ({ readonly step: 'starting' } & BulkTarget)
  | { readonly step: 'failed'; readonly environment: EnvironmentId; readonly failure: Failure };

/** Ticked orders a refreshed list no longer holds, said once. */
export interface TicksLost {
  readonly environment: EnvironmentId;
  readonly ids: readonly string[];
}

/** The orders ticked for a bulk cancel: rows of one list (a new list starts with none). */
export interface Ticks {
  readonly table: OrderTable;
  readonly selection: RowSelection;
}

export interface BulkCancelSlice {
  readonly bulkJobs: Partial<Record<EnvironmentId, BulkCancelSnapshot>>;
  readonly bulkFlow: BulkCancelFlow;
  readonly ticks: Ticks | undefined;
  /** Ticked orders the last new list no longer held; said once, then cleared. */
  readonly ticksLost: TicksLost | undefined;
  setTicks(table: OrderTable, selection: RowSelection): void;
  clearTicks(): void;
  /**
   * A new table of the environment's list replaced `from`: the ticks on it
   * carry over (row for row when `sameRows`, else by order id), and the
   * ticked orders it no longer holds are said once.
   */
  carryTicks(environment: EnvironmentId, from: OrderTable, to: OrderTable, sameRows: boolean): void;
  dismissTicksLost(): void;
  /** Opens the confirmation for these orders (`ticks`: how they came from the ticked ones). */
  askBulkCancel(
    environment: EnvironmentId,
    orderIds: readonly string[],
    ticks?: TickedOrders,
  ): void;
  /** Opens the confirmation to send the last bulk cancel's failed cancels again. */
  askRetryFailed(environment: EnvironmentId): Promise<void>;
  /**
   * Shows the orders of one outcome of the last bulk cancel in the grid, or
   * what a stopped one left (undefined: all orders again).
   */
  showBulkOutcome(environment: EnvironmentId, outcome: ShownOutcome | undefined): Promise<void>;
  /** Opens the confirmation to cancel the orders a stopped bulk cancel never sent. */
  askCancelNotSent(environment: EnvironmentId): Promise<void>;
  dismissBulkCancel(): void;
  confirmBulkCancel(): Promise<void>;
  pauseBulkCancel(environment: EnvironmentId): Promise<void>;
  resumeBulkCancel(environment: EnvironmentId): Promise<void>;
  stopBulkCancel(environment: EnvironmentId): Promise<void>;
  /** Loads the job of an environment (one may be running since before a restart). */
  loadBulkCancel(environment: EnvironmentId): Promise<void>;
  applyBulkCancel(payload: EventPayloads['bulk-cancel:changed']): void;
  exportBulkResults(environment: EnvironmentId): Promise<void>;
  /** Closes a finished or stopped job's panel, for good (main remembers it with the job). */
  dismissBulkJob(environment: EnvironmentId): Promise<void>;
  /** The last failure has been read. */
  dismissBulkFailure(): void;
}

/** A job has begun: the flow is over, and ticked orders it took are the job's now (a retry takes none). */
function begunWith(ask: BulkCancelAsk): Pick<BulkCancelSlice, 'bulkFlow'> & { ticks?: undefined } {
  return ask.kind === 'ticked'
    ? { bulkFlow: { step: 'idle' }, ticks: undefined }
    : { bulkFlow: { step: 'idle' } };
}

export const createBulkCancelSlice: SliceCreator<BulkCancelSlice> = (api) => (set, get) => {
  /** Snapshots taken per environment so far, from answers and events alike. */
  const taken = new Map<EnvironmentId, number>();
  /** null: no job (e.g. the environment now points at another address), so none is shown. */
  const keep = (environment: EnvironmentId, snapshot: BulkCancelSnapshot | null): void => {
    taken.set(environment, (taken.get(environment) ?? 0) + 1);
    const jobs = { ...get().bulkJobs };
    const flow = get().bulkFlow;
    // The job being started has begun, whichever says so first (its answer or an event):
    // the ticked orders are the job's now, and the grid starts again with none ticked.
    const begun =
      flow.step === 'starting' &&
      flow.environment === environment &&
      snapshot !== null &&
      snapshot.jobId !== jobs[environment]?.jobId;
    if (snapshot) jobs[environment] = snapshot;
    else delete jobs[environment];
    set({ bulkJobs: jobs, ...(begun ? begunWith(flow.ask) : {}) });
  };
  /**
   * Calls main and keeps the snapshot it answers, unless another was taken
   * while the call was out. Answers and events keep no order between them
   * (they may come over separate connections), so an answer may be older
   * than the last event; and main sends an event after every change to the
   * job, so an answer that is skipped is never the last word.
   */
  const ask = async <T extends BulkCancelSnapshot | null>(
    environment: EnvironmentId,
    call: () => Promise<Result<T>>,
  ): Promise<Result<T>> => {
    const before = taken.get(environment) ?? 0;
    const result = await call();
    if (result.ok && (taken.get(environment) ?? 0) === before) keep(environment, result.value);
    return result;
  };
  const control = async (
    environment: EnvironmentId,
    call: (environment: EnvironmentId) => ReturnType<typeof api.bulkCancel.pause>,
  ): Promise<void> => {
    const result = await ask(environment, () => call(environment));
    if (!result.ok) set({ bulkFlow: { step: 'failed', environment, failure: result.error } });
  };

  return {
    bulkJobs: {},
    bulkFlow: { step: 'idle' },
    ticks: undefined,
    ticksLost: undefined,

    setTicks(table, selection) {
      set({ ticks: { table, selection } });
    },

    clearTicks() {
      set({ ticks: undefined });
    },

    carryTicks(environment, from, to, sameRows) {
      const ticks = get().ticks;
      if (ticks?.table !== from || from === to) return;
      const { selection, lost } = ticks.selection.carriedTo(from, to, sameRows);
      set({
        ticks: { table: to, selection },
        ...(lost.length > 0 ? { ticksLost: { environment, ids: lost } } : {}),
      });
    },

    dismissTicksLost() {
      set({ ticksLost: undefined });
    },

    askBulkCancel(environment, orderIds, ticks) {
      // Ticked orders none of which can be cancelled: the dialog says why, with nothing to confirm.
      if (orderIds.length === 0 && (ticks?.ticked ?? 0) === 0) return;
      set({
        bulkFlow: {
          step: 'confirm',
          environment,
          orderIds,
          ask: ticks ? { kind: 'ticked', ticks } : { kind: 'ticked' },
        },
      });
    },

    async showBulkOutcome(environment, outcome) {
      if (outcome === undefined) {
        get().setOrdersQuery({ bulkOutcome: undefined });
        return;
      }
      let ids: Set<string>;
      if (outcome === 'not-sent' || outcome === 'unanswered') {
        const result = await api.bulkCancel.leftOver(environment);
        if (!result.ok) {
          set({ bulkFlow: { step: 'failed', environment, failure: result.error } });
          return;
        }
        ids = new Set(outcome === 'not-sent' ? result.value.notSent : result.value.unanswered);
      } else {
        const result = await api.bulkCancel.results(environment);
        if (!result.ok) {
          set({ bulkFlow: { step: 'failed', environment, failure: result.error } });
          return;
        }
        ids = new Set(
          result.value.filter((entry) => entry.outcome === outcome).map((entry) => entry.orderId),
        );
      }
      // Exactly those orders: a search or filter left from before would hide some of them.
      get().clearOrdersFilters();
      get().setOrdersQuery({ bulkOutcome: { environment, outcome, ids } });
    },

    async askCancelNotSent(environment) {
      const result = await api.bulkCancel.leftOver(environment);
      if (!result.ok) {
        set({ bulkFlow: { step: 'failed', environment, failure: result.error } });
        return;
      }
      const orderIds = result.value.notSent;
      if (orderIds.length === 0) return;
      // The same confirmation as for ticked orders: the count, the environment, Production's typing.
      set({ bulkFlow: { step: 'confirm', environment, orderIds, ask: { kind: 'ticked' } } });
    },

    async askRetryFailed(environment) {
      const result = await api.bulkCancel.results(environment);
      if (!result.ok) {
        set({ bulkFlow: { step: 'failed', environment, failure: result.error } });
        return;
      }
      const orderIds = result.value
        .filter((entry) => entry.outcome === 'failed')
        .map((entry) => entry.orderId);
      if (orderIds.length === 0) return;
      set({
        bulkFlow: { step: 'confirm', environment, orderIds, ask: { kind: 'retry-failed' } },
      });
    },

    dismissBulkCancel() {
      if (get().bulkFlow.step === 'starting') return;
      set({ bulkFlow: { step: 'idle' } });
    },

    async confirmBulkCancel() {
      const flow = get().bulkFlow;
      if (flow.step !== 'confirm') return;
      set({ bulkFlow: { ...flow, step: 'starting' } });
      const result = await ask(flow.environment, () =>
        api.bulkCancel.start(flow.environment, flow.orderIds),
      );
      if (result.ok) {
        // Taking the job's snapshot (this answer, or an event before it) said it has begun.
        if (get().bulkFlow.step === 'starting') set(begunWith(flow.ask));
      } else {
        set({ bulkFlow: { step: 'failed', environment: flow.environment, failure: result.error } });
      }
    },

    pauseBulkCancel: (environment) => control(environment, api.bulkCancel.pause),
    resumeBulkCancel: (environment) => control(environment, api.bulkCancel.resume),
    stopBulkCancel: (environment) => control(environment, api.bulkCancel.stop),

    async loadBulkCancel(environment) {
      await ask(environment, () => api.bulkCancel.status(environment));
    },

    applyBulkCancel({ environment, snapshot }) {
      keep(environment, snapshot);
    },

    dismissBulkJob: (environment) => control(environment, api.bulkCancel.dismiss),

    dismissBulkFailure() {
      if (get().bulkFlow.step === 'failed') set({ bulkFlow: { step: 'idle' } });
    },

    async exportBulkResults(environment) {
      const result = await api.bulkCancel.results(environment);
      if (!result.ok) {
        set({ bulkFlow: { step: 'failed', environment, failure: result.error } });
        return;
      }
      saveTextFile(
        `bulk-cancel-${environment}-${fileStamp(Date.now())}.csv`,
        [bulkResultsCsv(result.value)],
        'text/csv',
      );
    },
  };
};
