// Whether each environment's service answered the last call, and whether the
// data folder takes what the app saves.

import type { EnvironmentId } from '../../../../shared/environments.ts';
import type { EventPayloads } from '../../../../shared/ipc-contract.ts';
import type { StorageProblem } from '../../../../shared/storage.ts';
import type { SliceCreator } from '../../store.ts';

export interface Connectivity {
  readonly reachable: boolean;
  readonly message?: string;
}

export interface ConnectivitySlice {
  readonly connectivity: Partial<Record<EnvironmentId, Connectivity>>;
  applyConnectivity(payload: EventPayloads['connectivity:changed']): void;
  /** Set while main cannot save to the data folder (it goes on from memory). */
  readonly storageProblem?: StorageProblem;
  applyStorageProblem(problem: StorageProblem | null): void;
}

export const createConnectivitySlice: SliceCreator<ConnectivitySlice> = () => (set, get) => ({
  connectivity: {},
  applyConnectivity({ environment, reachable, message }) {
    const next: Connectivity = message === undefined ? { reachable } : { reachable, message };
    set({ connectivity: { ...get().connectivity, [environment]: next } });
  },
  applyStorageProblem(problem) {
    set({ storageProblem: problem ?? undefined });
  },
});
