// Whether each environment's service answered the last call.

import type { EnvironmentId } from '../../../../shared/environments.ts';
import type { EventPayloads } from '../../../../shared/ipc-contract.ts';
import type { SliceCreator } from '../../store.ts';

export interface Connectivity {
  readonly reachable: boolean;
  readonly message?: string;
}

export interface ConnectivitySlice {
  readonly connectivity: Partial<Record<EnvironmentId, Connectivity>>;
  applyConnectivity(payload: EventPayloads['connectivity:changed']): void;
}

export const createConnectivitySlice: SliceCreator<ConnectivitySlice> = () => (set, get) => ({
  connectivity: {},
  applyConnectivity({ environment, reachable, message }) {
    const next: Connectivity = message === undefined ? { reachable } : { reachable, message };
    set({ connectivity: { ...get().connectivity, [environment]: next } });
  },
});
