// The environments Store Admin talks to, and everything that belongs to one:
// its base URL, its key, its client and the gate of that key. Switching
// never mixes them: each (environment, key) pair has its own gate, so a
// production quota or ban never leaks into staging. A key goes only to the
// origin it was entered for; another origin needs the clerk's word, asked by
// main. Plain Node: the Electron glue, the harness and the tests build it
// with their own settings, key stores and way of asking.

import { createHash } from 'node:crypto';
import {
  ENVIRONMENT_IDS,
  ENVIRONMENT_LABELS,
  isRemoteEnvironment,
  validateBaseUrl,
  type EnvironmentId,
  type RemoteEnvironmentId,
} from '../../shared/environments.ts';
import type { AppState, ConnectionCheckView, EnvironmentView } from '../../shared/ipc-contract.ts';
import { KEY_ENVIRONMENTS, type KeyStatus } from '../../shared/key-status.ts';
import type { QuotaView } from '../../shared/quota.ts';
import { originOf } from '../keys/key-origin.ts';
import type { KeyStore, SetKeyOptions } from '../keys/key-store.ts';
import type { ConfirmKeyForOrigin } from '../keys/origin-confirmation.ts';
import { realTiming, type Timing } from '../store-api/clock.ts';
import { RequestGate } from '../quota/gate.ts';
import { MemoryGateStore, type GateStores } from '../quota/gate-store.ts';
import { RetryBudget } from '../store-api/retry-budget.ts';
import { StoreClient, type AttemptOutcome, type StoreClientOptions } from '../store-api/client.ts';
import type { DeprecationHeaders } from '../store-api/deprecation.ts';
import type { StoreEndpoint } from '../../shared/deprecations.ts';
import { failure } from '../store-api/errors.ts';
import { serviceScope, type ServiceScope } from './service-scope.ts';

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
  readonly keys: Pick<
    KeyStore,
    'status' | 'getKey' | 'setKey' | 'removeKey' | 'bindUnbound' | 'allowOrigin'
  >;
  /**
   * Asks the clerk, in a dialog main owns, whether a key may go to a new
   * origin. Only main's answer lets it: the renderer can ask for the question,
   * never answer it.
   */
  readonly confirmKeyForOrigin: ConfirmKeyForOrigin;
  /** Starts the built-in sandbox on loopback; called at most once, on first use. */
  readonly startSandbox: () => Promise<SandboxHandle>;
  readonly timing?: Timing;
  readonly clientOptions?: Partial<StoreClientOptions>;
}

export type QuotaListener = (environment: EnvironmentId, quota: QuotaView) => void;
export type AddressListener = (environment: RemoteEnvironmentId) => void;
export type KeyListener = (environment: RemoteEnvironmentId, status: KeyStatus) => void;
/** What one attempt to reach an environment's service came to (see StoreClientOptions.onAttempt). */
export type AttemptListener = (environment: EnvironmentId, outcome: AttemptOutcome) => void;
/** What an answer said of its endpoint's deprecation (see StoreClientOptions.onDeprecation). */
export type DeprecationListener = (
  environment: EnvironmentId,
  endpoint: StoreEndpoint,
  said: DeprecationHeaders | undefined,
) => void;

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
  readonly #addressListeners = new Set<AddressListener>();
  readonly #deprecationListeners = new Set<DeprecationListener>();
  readonly #attemptListeners = new Set<AttemptListener>();
  readonly #keyListeners = new Set<KeyListener>();
  /** One question per environment at a time: asking again while it is open waits for it. */
  readonly #asking = new Map<RemoteEnvironmentId, Promise<KeyStatus>>();
  #sandbox: Promise<SandboxHandle> | undefined;

  constructor(deps: EnvironmentServiceDeps) {
    this.#deps = deps;
    this.#timing = deps.timing ?? realTiming;
    // One budget for the whole app: a storm anywhere stops retries everywhere.
    this.#budget = new RetryBudget(this.#timing.now);
    // Keys saved before they were bound belong to the address they had then.
    for (const environment of KEY_ENVIRONMENTS) {
      const origin = this.#originOf(environment);
      if (origin !== undefined) deps.keys.bindUnbound(environment, origin);
    }
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

  /** The service an environment's data belongs to now (undefined while its address is unset). */
  scopeOf(environment: EnvironmentId): ServiceScope | undefined {
    if (!isRemoteEnvironment(environment)) return serviceScope(environment);
    const baseUrl = this.baseUrlOf(environment);
    return baseUrl === undefined ? undefined : serviceScope(environment, baseUrl);
  }

  /** Like scopeOf, but an unset address is the clerk's to fix: a failure in plain words. */
  requireScope(environment: EnvironmentId): ServiceScope {
    const scope = this.scopeOf(environment);
    if (!scope) throw addressNotSet(environment);
    return scope;
  }

  /** Called after an environment's address changed. */
  onBaseUrlChange(listener: AddressListener): () => void {
    this.#addressListeners.add(listener);
    return () => this.#addressListeners.delete(listener);
  }

  setBaseUrl(environment: RemoteEnvironmentId, input: string): EnvironmentView {
    const checked = validateBaseUrl(input);
    if (!checked.ok) throw failure('invalid-input', checked.message, 'not-sent');
    // A key not bound yet stays with the address it was used with, not the new one.
    this.#deps.keys.bindUnbound(
      environment,
      this.#originOf(environment) ?? originOf(checked.value),
    );
    const settings = this.#deps.settings.read();
    const changed = settings.baseUrls[environment] !== checked.value;
    this.#deps.settings.write({
      ...settings,
      baseUrls: { ...settings.baseUrls, [environment]: checked.value },
    });
    if (changed) for (const listener of [...this.#addressListeners]) listener(environment);
    return this.#view(environment, this.#deps.settings.read());
  }

  /** Called with a key's status after the clerk set, removed or allowed it elsewhere. */
  onKeyChange(listener: KeyListener): () => void {
    this.#keyListeners.add(listener);
    return () => this.#keyListeners.delete(listener);
  }

  /** Keeps the key for the environment's current address. */
  async setKey(
    environment: RemoteEnvironmentId,
    key: string,
    options?: SetKeyOptions,
  ): Promise<KeyStatus> {
    const origin = this.#originOf(environment);
    const status = await this.#deps.keys.setKey(environment, key, {
      ...options,
      ...(origin ? { origin } : {}),
    });
    return this.#keyChanged(environment, status);
  }

  /**
   * One request with the environment's key as it is now: whether the service
   * takes it, and the quota it reports. Through the key's gate like every
   * request, and never tried again whatever the answer: a key just entered
   * may be wrong, and a wrong key is not sent twice for a check.
   */
  async checkKey(environment: RemoteEnvironmentId): Promise<ConnectionCheckView> {
    const client = await this.client(environment);
    return { environment, ...(await client.checkConnection({ once: true })) };
  }

  removeKey(environment: RemoteEnvironmentId): KeyStatus {
    this.#deps.keys.removeKey(environment);
    return this.#keyChanged(environment, this.keyStatus(environment));
  }

  #keyChanged(environment: RemoteEnvironmentId, status: KeyStatus): KeyStatus {
    for (const listener of [...this.#keyListeners]) listener(environment, status);
    // The quota shown is the new key's (a ban of the old one no longer holds), before any request.
    const view = this.quota(environment);
    for (const listener of [...this.#quotaListeners]) listener(environment, view);
    return status;
  }

  /** The key's status as seen from the environment's current address. */
  keyStatus(environment: RemoteEnvironmentId): KeyStatus {
    return this.#deps.keys.status(environment, this.#originOf(environment));
  }

  /**
   * Asks the clerk (in main's dialog) whether the key, bound to another
   * origin, may go to the environment's address; binds it there on yes. A
   * key that already fits, or none, is left as it is without asking.
   */
  confirmKeyOrigin(environment: RemoteEnvironmentId): Promise<KeyStatus> {
    const open = this.#asking.get(environment);
    if (open) return open;
    const asking = this.#askKeyOrigin(environment)
      .then((status) => this.#keyChanged(environment, status))
      .finally(() => this.#asking.delete(environment));
    this.#asking.set(environment, asking);
    return asking;
  }

  async #askKeyOrigin(environment: RemoteEnvironmentId): Promise<KeyStatus> {
    const to = this.#originOf(environment);
    const before = this.keyStatus(environment);
    if (to === undefined || before.problem !== 'other-address' || before.origin === undefined)
      return before;
    const from = before.origin;
    const yes = await this.#deps.confirmKeyForOrigin({ environment, from, to });
    // The answer is for the question asked: not if the address or the key moved meanwhile.
    const now = this.keyStatus(environment);
    if (!yes || this.#originOf(environment) !== to || now.origin !== from) return now;
    return this.#deps.keys.allowOrigin(environment, to);
  }

  quota(environment: EnvironmentId): QuotaView {
    const connection = this.#connections.get(environment);
    const baseUrl = isRemoteEnvironment(environment) ? this.baseUrlOf(environment) : undefined;
    const key =
      isRemoteEnvironment(environment) && baseUrl !== undefined
        ? this.#deps.keys.getKey(environment, originOf(baseUrl))
        : undefined;
    if (
      connection &&
      (baseUrl === undefined ||
        (key !== undefined && connection.fingerprint === fingerprint(environment, baseUrl, key)))
    )
      return connection.gate.view();
    // The address or the key changed since the last request: what is known of the new one (its saved state).
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

  /** Called with what each answer says of its endpoint's deprecation. */
  onDeprecation(listener: DeprecationListener): () => void {
    this.#deprecationListeners.add(listener);
    return () => this.#deprecationListeners.delete(listener);
  }

  /** Called with what each attempt to reach an environment's service came to, retries included. */
  onAttempt(listener: AttemptListener): () => void {
    this.#attemptListeners.add(listener);
    return () => this.#attemptListeners.delete(listener);
  }

  onQuota(listener: QuotaListener): () => void {
    this.#quotaListeners.add(listener);
    return () => this.#quotaListeners.delete(listener);
  }

  /**
   * The environment's client, only while it still points at `scope`'s
   * service: work started for one address never goes to another.
   */
  async clientFor(scope: ServiceScope): Promise<StoreClient> {
    const client = await this.client(scope.environment);
    if (serviceScope(scope.environment, client.baseUrl).key === scope.key) return client;
    throw failure(
      'aborted',
      `The ${ENVIRONMENT_LABELS[scope.environment]} address changed, so nothing more is sent for the earlier address.`,
      'not-sent',
    );
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
      onDeprecation: (endpoint, said) => {
        for (const listener of [...this.#deprecationListeners])
          listener(environment, endpoint, said);
      },
      onAttempt: (outcome) => {
        // An attempt to an address the environment has moved on from says nothing of its service now.
        if (isRemoteEnvironment(environment) && this.baseUrlOf(environment) !== baseUrl) return;
        for (const listener of [...this.#attemptListeners]) listener(environment, outcome);
      },
      // Read at each request: removing the key, or moving it to another origin, stops requests at once.
      getKey: () =>
        isRemoteEnvironment(environment)
          ? this.#deps.keys.getKey(environment, originOf(baseUrl))
          : key,
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
    if (!baseUrl) throw addressNotSet(environment);
    const key = this.#deps.keys.getKey(environment, originOf(baseUrl));
    if (key) return { baseUrl, key };
    const status = this.keyStatus(environment);
    if (status.problem === 'other-address' && status.notice)
      throw failure('no-key', status.notice, 'not-sent');
    throw failure('no-key', `No API key is set for ${label}. Add one in Settings.`, 'not-sent');
  }

  #originOf(environment: RemoteEnvironmentId): string | undefined {
    const baseUrl = this.baseUrlOf(environment);
    return baseUrl === undefined ? undefined : originOf(baseUrl);
  }

  #view(id: EnvironmentId, settings: Settings): EnvironmentView {
    if (!isRemoteEnvironment(id)) {
      return { id, label: ENVIRONMENT_LABELS[id], keySet: true };
    }
    const baseUrl = settings.baseUrls[id];
    const key = this.#deps.keys.status(id, baseUrl === undefined ? undefined : originOf(baseUrl));
    return {
      id,
      label: ENVIRONMENT_LABELS[id],
      keySet: key.set,
      key,
      ...(baseUrl ? { baseUrl } : {}),
    };
  }
}

/** The failure for a remote environment whose address the clerk has not entered yet. */
export function addressNotSet(environment: EnvironmentId): Error {
  return failure(
    'invalid-input',
    `The ${ENVIRONMENT_LABELS[environment]} address is not set yet. Enter it in Settings.`,
    'not-sent',
  );
}
