// Whether each environment's service can be reached, as main infers it from
// every attempt (src/main/environments/connectivity.ts): the one state the
// notices, the bulk-cancel strip, the quota meter and cancel all read. And
// whether the data folder takes what the app saves.

import type { EnvironmentId } from '../../../../shared/environments.ts';
import type { EventPayloads } from '../../../../shared/ipc-contract.ts';
import type { StorageProblem } from '../../../../shared/storage.ts';
import type { SliceCreator } from '../../store.ts';

export interface Connectivity {
  /** False once main found the service unreachable; true otherwise. */
  readonly reachable: boolean;
  readonly message?: string;
  /** `web-page`: the address answers with a web page, not the store service (a network's sign-in page). */
  readonly cause?: 'web-page';
  /** Epoch ms when this state began. */
  readonly since: number;
}

export interface ConnectivitySlice {
  readonly connectivity: Partial<Record<EnvironmentId, Connectivity>>;
  applyConnectivity(payload: EventPayloads['connectivity:changed']): void;
  /** Set while main cannot save to the data folder (it goes on from memory). */
  readonly storageProblem?: StorageProblem;
  applyStorageProblem(problem: StorageProblem | null): void;
}

/** Whether main found the environment's service unreachable (the one place this is read from). */
export function isOffline(
  state: Pick<ConnectivitySlice, 'connectivity'>,
  environment: EnvironmentId,
) {
  return state.connectivity[environment]?.reachable === false;
}

export const createConnectivitySlice: SliceCreator<ConnectivitySlice> = () => (set, get) => ({
  connectivity: {},
  applyConnectivity({ environment, reachable, message, cause, since }) {
    const next: Connectivity = {
      reachable,
      since,
      ...(message === undefined ? {} : { message }),
      ...(cause === undefined ? {} : { cause }),
    };
    set({ connectivity: { ...get().connectivity, [environment]: next } });
  },
  applyStorageProblem(problem) {
    set({ storageProblem: problem ?? undefined });
  },
});
