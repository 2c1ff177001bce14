// The outcome of each settings action, per environment: saving the address,
// saving or removing the key, testing the connection. The key itself passes
// straight through to the main process and is never kept here.

import type { EnvironmentId, RemoteEnvironmentId } from '../../../../shared/environments.ts';
import type { Failure } from '../../../../shared/failures.ts';
import type { ConnectionCheckView } from '../../../../shared/ipc-contract.ts';
import type { SliceCreator } from '../../store.ts';
import { describeKeyStatus } from './key-status-text.ts';

export type ActionOutcome =
  | { readonly kind: 'working'; readonly message: string }
  | { readonly kind: 'done'; readonly message: string }
  | { readonly kind: 'failed'; readonly message: string };

export type ConnectionTest =
  | { readonly kind: 'testing' }
  | { readonly kind: 'passed'; readonly check: ConnectionCheckView }
  | { readonly kind: 'failed'; readonly failure: Failure };

export interface SettingsSlice {
  readonly baseUrlOutcomes: Partial<Record<RemoteEnvironmentId, ActionOutcome>>;
  readonly keyOutcomes: Partial<Record<RemoteEnvironmentId, ActionOutcome>>;
  readonly connectionTests: Partial<Record<EnvironmentId, ConnectionTest>>;
  /** Resolves to the address as the main process saved it (normalised), or undefined. */
  saveBaseUrl(environment: RemoteEnvironmentId, url: string): Promise<string | undefined>;
  saveKey(
    environment: RemoteEnvironmentId,
    key: string,
    options?: { acceptWeakStorage: boolean },
  ): Promise<boolean>;
  removeKey(environment: RemoteEnvironmentId): Promise<boolean>;
  testConnection(environment: EnvironmentId): Promise<void>;
}

export const createSettingsSlice: SliceCreator<SettingsSlice> = (api) => (set, get) => {
  const setBaseUrlOutcome = (environment: RemoteEnvironmentId, outcome: ActionOutcome) =>
    set({ baseUrlOutcomes: { ...get().baseUrlOutcomes, [environment]: outcome } });
  const setKeyOutcome = (environment: RemoteEnvironmentId, outcome: ActionOutcome) =>
    set({ keyOutcomes: { ...get().keyOutcomes, [environment]: outcome } });
  /** A test made with the old address or key says nothing about the new one. */
  const forgetConnectionTest = (environment: EnvironmentId) => {
    const tests = { ...get().connectionTests };
    delete tests[environment];
    set({ connectionTests: tests });
  };

  return {
    baseUrlOutcomes: {},
    keyOutcomes: {},
    connectionTests: {},

    async saveBaseUrl(environment, url) {
      setBaseUrlOutcome(environment, { kind: 'working', message: 'Saving the address…' });
      const result = await api.environments.setBaseUrl(environment, url);
      if (!result.ok) {
        setBaseUrlOutcome(environment, { kind: 'failed', message: result.error.message });
        return undefined;
      }
      get().applyEnvironmentView(result.value);
      forgetConnectionTest(environment);
      setBaseUrlOutcome(environment, {
        kind: 'done',
        message: `Saved. ${result.value.label} now uses ${result.value.baseUrl ?? 'no address'}.`,
      });
      return result.value.baseUrl;
    },

    async saveKey(environment, key, options) {
      setKeyOutcome(environment, { kind: 'working', message: 'Saving the key…' });
      const result = await api.keys.set(environment, key, options);
      if (!result.ok) {
        setKeyOutcome(environment, { kind: 'failed', message: result.error.message });
        return false;
      }
      get().applyKeyStatus(result.value);
      forgetConnectionTest(environment);
      setKeyOutcome(environment, {
        kind: 'done',
        message: `Key saved. ${describeKeyStatus(result.value)}.`,
      });
      return true;
    },

    async removeKey(environment) {
      setKeyOutcome(environment, { kind: 'working', message: 'Removing the key…' });
      const result = await api.keys.remove(environment);
      if (!result.ok) {
        setKeyOutcome(environment, { kind: 'failed', message: result.error.message });
        return false;
      }
      get().applyKeyStatus(result.value);
      forgetConnectionTest(environment);
      setKeyOutcome(environment, {
        kind: 'done',
        message: 'Key removed. Store Admin no longer has a key for this environment.',
      });
      return true;
    },

    async testConnection(environment) {
      if (get().connectionTests[environment]?.kind === 'testing') return;
      set({ connectionTests: { ...get().connectionTests, [environment]: { kind: 'testing' } } });
      const result = await api.connection.test(environment);
      const outcome: ConnectionTest = result.ok
        ? { kind: 'passed', check: result.value }
        : { kind: 'failed', failure: result.error };
      set({ connectionTests: { ...get().connectionTests, [environment]: outcome } });
      if (result.ok) get().applyQuota(environment, result.value.quota);
    },
  };
};
