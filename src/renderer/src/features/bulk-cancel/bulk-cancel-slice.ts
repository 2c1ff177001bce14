// Bulk cancel as the clerk drives it: a confirmation that names the count and
// the environment, then the job in the main process (its snapshot arrives as
// events), with pause, resume, stop and the results to export.

import type { BulkCancelSnapshot } from '../../../../shared/bulk-cancel.ts';
import type { EnvironmentId } from '../../../../shared/environments.ts';
import type { Failure } from '../../../../shared/failures.ts';
import type { EventPayloads } from '../../../../shared/ipc-contract.ts';
import type { Result } from '../../../../shared/result.ts';
import type { SliceCreator } from '../../store.ts';
import { fileStamp, saveTextFile } from '../../components/save-file.ts';
import type { OrderTable } from '../orders/table/order-table.ts';
import { bulkResultsCsv } from './bulk-results-csv.ts';
import type { RowSelection } from './row-selection.ts';

export type BulkCancelFlow =
  | { readonly step: 'idle' }
  | {
      readonly step: 'confirm';
      readonly environment: EnvironmentId;
      readonly orderIds: readonly string[];
    }
  | {
      readonly step: 'starting';
      readonly environment: EnvironmentId;
      readonly orderIds: readonly string[];
    }
  | { readonly step: 'failed'; readonly environment: EnvironmentId; readonly failure: Failure };

/** The orders ticked for a bulk cancel: rows of one list (a new list starts with none). */
export interface Ticks {
  readonly table: OrderTable;
  readonly selection: RowSelection;
}

export interface BulkCancelSlice {
  readonly bulkJobs: Partial<Record<EnvironmentId, BulkCancelSnapshot>>;
  readonly bulkFlow: BulkCancelFlow;
  readonly ticks: Ticks | undefined;
  setTicks(table: OrderTable, selection: RowSelection): void;
  clearTicks(): void;
  /** Opens the confirmation for these orders. */
  askBulkCancel(environment: EnvironmentId, orderIds: readonly string[]): void;
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
    set({ bulkJobs: jobs, ...(begun ? { bulkFlow: { step: 'idle' }, ticks: undefined } : {}) });
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

    setTicks(table, selection) {
      set({ ticks: { table, selection } });
    },

    clearTicks() {
      set({ ticks: undefined });
    },

    askBulkCancel(environment, orderIds) {
      if (orderIds.length === 0) return;
      set({ bulkFlow: { step: 'confirm', environment, orderIds } });
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
        if (get().bulkFlow.step === 'starting')
          set({ bulkFlow: { step: 'idle' }, ticks: undefined });
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
