// The quota of each environment's key as the main process last reported it,
// with the app's own counts (requests sent today, the chart's history).

import type { EnvironmentId } from '../../../../shared/environments.ts';
import type { QuotaSnapshot, QuotaView } from '../../../../shared/quota.ts';
import type { SliceCreator } from '../../store.ts';

export interface QuotaSlice {
  readonly quotas: Partial<Record<EnvironmentId, QuotaView>>;
  loadQuota(environment: EnvironmentId): Promise<void>;
  /** A full view (quota:get, quota:changed) or the bare service figures of a connection test. */
  applyQuota(environment: EnvironmentId, quota: QuotaView | QuotaSnapshot): void;
}

function isView(quota: QuotaView | QuotaSnapshot): quota is QuotaView {
  return 'history' in quota && 'sentToday' in quota;
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
    const previous = get().quotas[environment];
    // Bare figures keep the local counts already known.
    const view: QuotaView = isView(quota)
      ? quota
      : { ...quota, sentToday: previous?.sentToday ?? 0, history: previous?.history ?? [] };
    set({ quotas: { ...get().quotas, [environment]: view } });
  },
});
