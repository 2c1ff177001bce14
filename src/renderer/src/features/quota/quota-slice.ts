// The quota of each environment's key as the main process last reported it.

import type { EnvironmentId } from '../../../../shared/environments.ts';
import type { QuotaSnapshot } from '../../../../shared/quota.ts';
import type { SliceCreator } from '../../store.ts';

export interface QuotaSlice {
  readonly quotas: Partial<Record<EnvironmentId, QuotaSnapshot>>;
  loadQuota(environment: EnvironmentId): Promise<void>;
  applyQuota(environment: EnvironmentId, quota: QuotaSnapshot): void;
}

export const createQuotaSlice: SliceCreator<QuotaSlice> = (api) => (set, get) => ({
  quotas: {},
  async loadQuota(environment) {
    const result = await api.quota.get(environment);
    // An event may have brought fresher figures meanwhile; a known quota is not replaced by "unknown".
    if (result.ok && !(get().quotas[environment]?.known && !result.value.known)) {
      get().applyQuota(environment, result.value);
    }
  },
  applyQuota(environment, quota) {
    set({ quotas: { ...get().quotas, [environment]: quota } });
  },
});
