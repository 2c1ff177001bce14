// The outcome of each settings action, per environment: saving the address,
// saving or removing the key, testing the connection. The key itself passes
// straight through to the main process and is never kept here.

import {
  ENVIRONMENT_LABELS,
  type EnvironmentId,
  type RemoteEnvironmentId,
} from '../../../../shared/environments.ts';
import type { Failure } from '../../../../shared/failures.ts';
import type { ConnectionCheckView } from '../../../../shared/ipc-contract.ts';
import type { KeyStatus } from '../../../../shared/key-status.ts';
import type { Result } from '../../../../shared/result.ts';
import type { UpdateSettingsView } from '../../../../shared/updates.ts';
import type { SaveOutcome } from '../../components/text-field.tsx';
import type { SliceCreator } from '../../store.ts';
import { KEY_CHECK_WORDS, keyCheckVerdict } from './check-words.ts';

export type ActionOutcome = SaveOutcome;

/** The key's outcome: a save's, or the one request that checks a key just saved. */
export type KeyOutcome = ActionOutcome | { readonly kind: 'checking'; readonly message: string };

/** The settings fields that keep an outcome: the address and the key. */
export type SettingsField = 'baseUrl' | 'key';

export type ConnectionTest =
  | { readonly kind: 'testing' }
  | { readonly kind: 'passed'; readonly check: ConnectionCheckView }
  | { readonly kind: 'failed'; readonly failure: Failure };

export interface SettingsSlice {
  readonly baseUrlOutcomes: Partial<Record<RemoteEnvironmentId, ActionOutcome>>;
  readonly keyOutcomes: Partial<Record<RemoteEnvironmentId, KeyOutcome>>;
  readonly connectionTests: Partial<Record<EnvironmentId, ConnectionTest>>;
  /** Where updates come from, once read from main. */
  readonly updateSettings: UpdateSettingsView | undefined;
  readonly updateAddressOutcome: ActionOutcome | undefined;
  loadUpdateSettings(): Promise<void>;
  /** Resolves to the address as main saved it ('' for none), or undefined when not saved. */
  saveUpdateAddress(address: string): Promise<string | undefined>;
  /** Resolves to the address as the main process saved it (normalised), or undefined. */
  saveBaseUrl(environment: RemoteEnvironmentId, url: string): Promise<string | undefined>;
  /**
   * Saves the key, then checks it with one request when it can be sent (an
   * address set, the key bound to it): the outcome says what was saved and
   * what the service said of it. Resolves to whether the key was saved.
   */
  saveKey(
    environment: RemoteEnvironmentId,
    key: string,
    options?: { acceptWeakStorage: boolean },
  ): Promise<boolean>;
  removeKey(environment: RemoteEnvironmentId): Promise<boolean>;
  /** Asks main to put its own question: may the key go to the environment's new address? */
  confirmKeyOrigin(environment: RemoteEnvironmentId): Promise<void>;
  testConnection(environment: EnvironmentId): Promise<void>;
  /** Editing a field again: its last outcome no longer applies (the field shows one, the latest). */
  forgetOutcome(field: SettingsField, environment: RemoteEnvironmentId): void;
}

export const createSettingsSlice: SliceCreator<SettingsSlice> = (api) => (set, get) => {
  const setBaseUrlOutcome = (environment: RemoteEnvironmentId, outcome: ActionOutcome) =>
    set({ baseUrlOutcomes: { ...get().baseUrlOutcomes, [environment]: outcome } });
  const setKeyOutcome = (environment: RemoteEnvironmentId, outcome: KeyOutcome) =>
    set({ keyOutcomes: { ...get().keyOutcomes, [environment]: outcome } });
  /** A test made with the old address or key says nothing about the new one. */
  const forgetConnectionTest = (environment: EnvironmentId) => {
    const tests = { ...get().connectionTests };
    delete tests[environment];
    set({ connectionTests: tests });
  };
  /**
   * One settings action: "working" while the call runs, then the failure's
   * message, or the change applied (and the old connection test dropped) with
   * the words `applied` returns (a warning when nothing changed after all).
   * Resolves to the saved value, or undefined.
   */
  const act = async <T>(
    environment: RemoteEnvironmentId,
    setOutcome: (environment: RemoteEnvironmentId, outcome: ActionOutcome) => void,
    working: string,
    call: Promise<Result<T>>,
    applied: (value: T) => string | { readonly message: string; readonly tone: 'warning' },
  ): Promise<T | undefined> => {
    setOutcome(environment, { kind: 'working', message: working });
    const result = await call;
    if (!result.ok) {
      setOutcome(environment, { kind: 'failed', message: result.error.message });
      return undefined;
    }
    const said = applied(result.value);
    forgetConnectionTest(environment);
    setOutcome(
      environment,
      typeof said === 'string' ? { kind: 'done', message: said } : { kind: 'done', ...said },
    );
    return result.value;
  };

  return {
    baseUrlOutcomes: {},
    keyOutcomes: {},
    connectionTests: {},
    updateSettings: undefined,
    updateAddressOutcome: undefined,

    async loadUpdateSettings() {
      const result = await api.updates.settings();
      if (result.ok) set({ updateSettings: result.value });
    },

    async saveUpdateAddress(address) {
      set({ updateAddressOutcome: { kind: 'working', message: 'Saving the address…' } });
      const result = await api.updates.setAddress(address);
      if (!result.ok) {
        set({ updateAddressOutcome: { kind: 'failed', message: result.error.message } });
        return undefined;
      }
      const saved = result.value;
      set({
        updateSettings: saved,
        updateAddressOutcome: {
          kind: 'done',
          message: saved.address
            ? 'Saved. Store Admin looks for updates there a little after it starts, and from Help > Check for Updates.'
            : 'Saved. Store Admin does not look for updates.',
        },
      });
      return saved.address ?? '';
    },

    async saveBaseUrl(environment, url) {
      const view = await act(
        environment,
        setBaseUrlOutcome,
        'Saving the address…',
        api.environments.setBaseUrl(environment, url),
        (saved) => {
          get().applyEnvironmentView(saved);
          // The key stays with its old address now: how its last save went no longer applies.
          if (saved.key?.problem === 'other-address') get().forgetOutcome('key', environment);
          return 'Saved.';
        },
      );
      return view?.baseUrl;
    },

    async saveKey(environment, key, options) {
      const label = ENVIRONMENT_LABELS[environment];
      setKeyOutcome(environment, { kind: 'working', message: 'Saving the key…' });
      const result = await api.keys.set(environment, key, options);
      if (!result.ok) {
        setKeyOutcome(environment, { kind: 'failed', message: result.error.message });
        return false;
      }
      const status = result.value;
      get().applyKeyStatus(status);
      forgetConnectionTest(environment);
      const address = get().environments.find((view) => view.id === environment)?.baseUrl;
      // Only a key that would be sent now is checked: never one kept from this address.
      if (!status.set || status.problem !== undefined || address === undefined) {
        setKeyOutcome(environment, {
          kind: 'done',
          message:
            address === undefined
              ? `${keySaved(status, label)} Save the address above, then test the connection.`
              : keySaved(status, label),
        });
        return true;
      }
      setKeyOutcome(environment, { kind: 'checking', message: `Checking the key with ${label}…` });
      const check = await api.keys.check(environment);
      if (check.ok) get().applyQuota(environment, check.value.quota);
      if (get().environments.find((view) => view.id === environment)?.baseUrl !== address) {
        // The address moved while the key was checked: the answer is about one no longer in use.
        const rest = { ...get().keyOutcomes };
        delete rest[environment];
        set({ keyOutcomes: rest });
        return true;
      }
      const verdict = keyCheckVerdict(check.ok ? undefined : check.error);
      const message = `${keySaved(status, label)} ${KEY_CHECK_WORDS[verdict]}`;
      setKeyOutcome(
        environment,
        verdict === 'accepted'
          ? { kind: 'done', message }
          : verdict === 'refused'
            ? { kind: 'failed', message }
            : { kind: 'done', message, tone: 'warning' },
      );
      return true;
    },

    async removeKey(environment) {
      const status = await act(
        environment,
        setKeyOutcome,
        'Removing the key…',
        api.keys.remove(environment),
        (removed) => {
          get().applyKeyStatus(removed);
          return 'Key removed.';
        },
      );
      return status !== undefined;
    },

    async confirmKeyOrigin(environment) {
      await act(
        environment,
        setKeyOutcome,
        'Answer the question in the Store Admin window…',
        api.keys.confirmOrigin(environment),
        (answered) => {
          get().applyKeyStatus(answered);
          return answered.problem === 'other-address'
            ? { message: 'Not confirmed. The key stays with its old address.', tone: 'warning' }
            : 'Confirmed. The key is now used for this address.';
        },
      );
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

    forgetOutcome(field, environment) {
      if (field === 'baseUrl') {
        const kind = get().baseUrlOutcomes[environment]?.kind;
        if (kind === undefined || kind === 'working') return;
        const rest = { ...get().baseUrlOutcomes };
        delete rest[environment];
        set({ baseUrlOutcomes: rest });
        return;
      }
      const kind = get().keyOutcomes[environment]?.kind;
      if (kind === undefined || kind === 'working' || kind === 'checking') return;
      const rest = { ...get().keyOutcomes };
      delete rest[environment];
      set({ keyOutcomes: rest });
    },
  };
};

/** What saving a key did, said as it is: kept for the session is not saved. */
function keySaved(status: KeyStatus, label: string): string {
  return status.storage === 'session-only'
    ? `Key kept for ${label} until you quit.`
    : `Key saved for ${label}.`;
}
