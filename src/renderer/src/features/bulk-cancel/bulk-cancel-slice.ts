// Bulk cancel as the clerk drives it: a confirmation that names the count and
// the environment, then the job in the main process (its snapshot arrives as
// events), with pause, resume, stop and the results to export.

import type { BulkCancelSnapshot } from '../../../../shared/bulk-cancel.ts';
import type { EnvironmentId } from '../../../../shared/environments.ts';
import type { Failure } from '../../../../shared/failures.ts';
import type { EventPayloads } from '../../../../shared/ipc-contract.ts';
import type { SliceCreator } from '../../store.ts';
import { fileStamp, saveTextFile } from '../../components/save-file.ts';
import type { OrderTable } from '../orders/order-table.ts';
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
  /** null: no job (e.g. the environment now points at another address), so none is shown. */
  const keep = (environment: EnvironmentId, snapshot: BulkCancelSnapshot | null): void => {
    const jobs = { ...get().bulkJobs };
    if (snapshot) jobs[environment] = snapshot;
    else delete jobs[environment];
    set({ bulkJobs: jobs });
  };
  const control = async (
    environment: EnvironmentId,
    call: (environment: EnvironmentId) => ReturnType<typeof api.bulkCancel.pause>,
  ): Promise<void> => {
    const result = await call(environment);
    if (result.ok) keep(environment, result.value);
    else set({ bulkFlow: { step: 'failed', environment, failure: result.error } });
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
      const result = await api.bulkCancel.start(flow.environment, flow.orderIds);
      if (result.ok) {
        keep(flow.environment, result.value);
        // The ticked orders are the job's now: the grid starts again with none ticked.
        set({ bulkFlow: { step: 'idle' }, ticks: undefined });
      } else {
        set({ bulkFlow: { step: 'failed', environment: flow.environment, failure: result.error } });
      }
    },

    pauseBulkCancel: (environment) => control(environment, api.bulkCancel.pause),
    resumeBulkCancel: (environment) => control(environment, api.bulkCancel.resume),
    stopBulkCancel: (environment) => control(environment, api.bulkCancel.stop),

    async loadBulkCancel(environment) {
      const result = await api.bulkCancel.status(environment);
      if (result.ok) keep(environment, result.value);
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
