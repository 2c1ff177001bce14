// The service's deprecation notices per environment, as main keeps them
// (main reads them from the answers, keeps the dismissals and opens the
// link): read when an environment is shown, then kept up to date by main's
// events.

import type { DeprecationNotice, StoreEndpoint } from '../../../../shared/deprecations.ts';
import type { EnvironmentId } from '../../../../shared/environments.ts';
import type { EventPayloads } from '../../../../shared/ipc-contract.ts';
import type { SliceCreator } from '../../store.ts';

export interface DeprecationsSlice {
  readonly deprecations: Partial<Record<EnvironmentId, readonly DeprecationNotice[]>>;
  loadDeprecations(environment: EnvironmentId): Promise<void>;
  applyDeprecations(payload: EventPayloads['deprecations:changed']): void;
  /** Dismisses the notices of these endpoints (as they read now: their sunset dates). */
  dismissDeprecations(
    environment: EnvironmentId,
    endpoints: readonly StoreEndpoint[],
  ): Promise<void>;
  /** Asks main to open the notice's link (the one main read from the service). */
  openDeprecationLink(environment: EnvironmentId, endpoint: StoreEndpoint): Promise<void>;
}

export const createDeprecationsSlice: SliceCreator<DeprecationsSlice> = (api) => (set, get) => ({
  deprecations: {},

  async loadDeprecations(environment) {
    const result = await api.deprecations.list(environment);
    if (result.ok) set({ deprecations: { ...get().deprecations, [environment]: result.value } });
  },

  applyDeprecations({ environment, notices }) {
    set({ deprecations: { ...get().deprecations, [environment]: notices } });
  },

  async dismissDeprecations(environment, endpoints) {
    let notices: readonly DeprecationNotice[] | undefined;
    for (const endpoint of endpoints) {
      const result = await api.deprecations.dismiss(environment, endpoint);
      if (result.ok) notices = result.value;
    }
    if (notices) set({ deprecations: { ...get().deprecations, [environment]: notices } });
  },

  async openDeprecationLink(environment, endpoint) {
    await api.deprecations.openLink(environment, endpoint);
  },
});
