// The environments Store Admin talks to, and everything that belongs to one:
// its base URL, its key, its client and the gate of that key. Switching
// never mixes them: each (environment, key) pair has its own gate, so a
// production quota or ban never leaks into staging. Plain Node: the Electron
// glue and the CLI build it with their own settings and key stores.

import { createHash } from 'node:crypto';
import {
  ENVIRONMENT_IDS,
  ENVIRONMENT_LABELS,
  isRemoteEnvironment,
  validateBaseUrl,
  type EnvironmentId,
  type RemoteEnvironmentId,
} from '../../shared/environments.ts';
import type { AppState, EnvironmentView } from '../../shared/ipc-contract.ts';
import type { KeyStatus } from '../../shared/key-status.ts';
import type { QuotaView } from '../../shared/quota.ts';
import type { KeyStore, SetKeyOptions } from '../keys/key-store.ts';
import { realTiming, type Timing } from '../quota/clock.ts';
import { RequestGate } from '../quota/gate.ts';
import { MemoryGateStore, type GateStores } from '../quota/gate-store.ts';
import { RetryBudget } from '../quota/retry-budget.ts';
import { StoreClient, type StoreClientOptions } from '../store-api/client.ts';
import { failure } from '../store-api/errors.ts';

export interface Settings {
  readonly activeEnvironment: EnvironmentId;
  readonly baseUrls: Partial<Record<RemoteEnvironmentId, string>>;
}

export const DEFAULT_SETTINGS: Settings = { activeEnvironment: 'sandbox', baseUrls: {} };

export interface SettingsStore {
  read(): Settings;
  write(settings: Settings): void;
}

export interface SandboxHandle {
  readonly baseUrl: string;
  readonly key: string;
  close(): Promise<void>;
}

export interface EnvironmentServiceDeps {
  /**
   * Where each key's quota and gate state is kept, per key and service
   * address: across restarts, and shared with the CLI. In memory when absent.
   */
  readonly quotaStore?: GateStores;
  readonly settings: SettingsStore;
  readonly keys: Pick<KeyStore, 'status' | 'getKey' | 'setKey' | 'removeKey'>;
  /** Starts the built-in sandbox on loopback; called at most once, on first use. */
  readonly startSandbox: () => Promise<SandboxHandle>;
  readonly timing?: Timing;
  readonly clientOptions?: Partial<StoreClientOptions>;
}

export type QuotaListener = (environment: EnvironmentId, quota: QuotaView) => void;

interface Connection {
  readonly fingerprint: string;
  readonly baseUrl: string;
  readonly client: StoreClient;
  readonly gate: RequestGate;
}

/** Identifies a key without keeping it: a short hash, in memory only. */
function fingerprint(environment: EnvironmentId, baseUrl: string, key: string): string {
  return createHash('sha256')
    .update(`${environment}\n${baseUrl}\n${key}`)
    .digest('hex')
    .slice(0, 16);
}

export class EnvironmentService {
  readonly #deps: EnvironmentServiceDeps;
  readonly #timing: Timing;
  readonly #budget: RetryBudget;
  readonly #connections = new Map<EnvironmentId, Connection>();
  readonly #quotaListeners = new Set<QuotaListener>();
  #sandbox: Promise<SandboxHandle> | undefined;

  constructor(deps: EnvironmentServiceDeps) {
    this.#deps = deps;
    this.#timing = deps.timing ?? realTiming;
    // One budget for the whole app: a storm anywhere stops retries everywhere.
    this.#budget = new RetryBudget(this.#timing.now);
  }

  state(): AppState {
    const settings = this.#deps.settings.read();
    return {
      activeEnvironment: settings.activeEnvironment,
      environments: ENVIRONMENT_IDS.map((id) => this.#view(id, settings)),
    };
  }

  /** The address set for a remote environment (undefined while unset). */
  baseUrlOf(environment: RemoteEnvironmentId): string | undefined {
    return this.#deps.settings.read().baseUrls[environment];
  }

  select(environment: EnvironmentId): AppState {
    this.#deps.settings.write({ ...this.#deps.settings.read(), activeEnvironment: environment });
    return this.state();
  }

  setBaseUrl(environment: RemoteEnvironmentId, input: string): EnvironmentView {
    const checked = validateBaseUrl(input);
    if (!checked.ok) throw failure('invalid-input', checked.message, 'not-sent');
    const settings = this.#deps.settings.read();
    this.#deps.settings.write({
      ...settings,
      baseUrls: { ...settings.baseUrls, [environment]: checked.value },
    });
    return this.#view(environment, this.#deps.settings.read());
  }

  setKey(environment: RemoteEnvironmentId, key: string, options?: SetKeyOptions): KeyStatus {
    return this.#deps.keys.setKey(environment, key, options);
  }

  removeKey(environment: RemoteEnvironmentId): KeyStatus {
    return this.#deps.keys.removeKey(environment);
  }

  quota(environment: EnvironmentId): QuotaView {
    const connection = this.#connections.get(environment);
    const baseUrl = isRemoteEnvironment(environment) ? this.baseUrlOf(environment) : undefined;
    if (connection && (baseUrl === undefined || connection.baseUrl === baseUrl))
      return connection.gate.view();
    // The address changed since the last request: what is known of the new one (its key's saved state).
    const key = isRemoteEnvironment(environment) ? this.#deps.keys.getKey(environment) : undefined;
    if (baseUrl !== undefined && key && this.#deps.quotaStore) {
      const store = this.#deps.quotaStore.open(baseUrl, key);
      return new RequestGate({ timing: this.#timing, store }).view();
    }
    return { known: false, sentToday: 0, history: [] };
  }

  /** The gate of an environment's current key, once a client exists. */
  gateOf(environment: EnvironmentId): RequestGate | undefined {
    return this.#connections.get(environment)?.gate;
  }

  onQuota(listener: QuotaListener): () => void {
    this.#quotaListeners.add(listener);
    return () => this.#quotaListeners.delete(listener);
  }

  /** The client of an environment, for the key it has now. */
  async client(environment: EnvironmentId): Promise<StoreClient> {
    const { baseUrl, key } = await this.#endpoint(environment);
    const id = fingerprint(environment, baseUrl, key);
    const existing = this.#connections.get(environment);
    if (existing?.fingerprint === id) return existing.client;

    // The state of this key at this address: a hold or ban saved before a
    // restart still applies, and another address starts afresh.
    const store = this.#deps.quotaStore?.open(baseUrl, key) ?? new MemoryGateStore();
    const gate = new RequestGate({ timing: this.#timing, store });
    gate.onChange(() => {
      if (this.#connections.get(environment)?.gate !== gate) return;
      const view = gate.view();
      for (const listener of this.#quotaListeners) listener(environment, view);
    });
    const client = new StoreClient({
      ...this.#deps.clientOptions,
      baseUrl,
      gate,
      budget: this.#budget,
      timing: this.#timing,
      // Read at each request: removing the key stops requests at once.
      getKey: () => (environment === 'sandbox' ? key : this.#deps.keys.getKey(environment)),
    });
    this.#connections.set(environment, { fingerprint: id, baseUrl, client, gate });
    const view = gate.view();
    for (const listener of this.#quotaListeners) listener(environment, view);
    return client;
  }

  async close(): Promise<void> {
    const sandbox = this.#sandbox;
    this.#sandbox = undefined;
    if (sandbox) await (await sandbox).close();
  }

  async #endpoint(environment: EnvironmentId): Promise<{ baseUrl: string; key: string }> {
    if (!isRemoteEnvironment(environment)) {
      this.#sandbox ??= this.#deps.startSandbox();
      const sandbox = await this.#sandbox;
      return { baseUrl: sandbox.baseUrl, key: sandbox.key };
    }
    const label = ENVIRONMENT_LABELS[environment];
    const baseUrl = this.#deps.settings.read().baseUrls[environment];
    if (!baseUrl) {
      throw failure(
        'invalid-input',
        `The ${label} address is not set yet. Enter it in Settings.`,
        'not-sent',
      );
    }
    const key = this.#deps.keys.getKey(environment);
    if (!key)
      throw failure('no-key', `No API key is set for ${label}. Add one in Settings.`, 'not-sent');
    return { baseUrl, key };
  }

  #view(id: EnvironmentId, settings: Settings): EnvironmentView {
    if (!isRemoteEnvironment(id)) {
      return { id, label: ENVIRONMENT_LABELS[id], keySet: true };
    }
    const key = this.#deps.keys.status(id);
    const baseUrl = settings.baseUrls[id];
    return {
      id,
      label: ENVIRONMENT_LABELS[id],
      keySet: key.set,
      key,
      ...(baseUrl ? { baseUrl } : {}),
    };
  }
}
