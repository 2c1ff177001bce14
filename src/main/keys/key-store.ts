// API keys for production and staging, one per environment. A key is saved
// only as ciphertext from the OS secret store (safeStorage); where the OS
// offers no real protection it stays in memory for the session unless the
// user accepts weak storage. Each key is bound to the origin it was entered
// for and handed out for that origin only. Callers outside the main process
// get a KeyStatus, never the key. safeStorage is used through its
// asynchronous API: saved keys are decrypted once, when the store loads, and
// held in memory, so reading a key (or scrubbing keys from a log line)
// decrypts nothing.

import { ENVIRONMENT_LABELS } from '../../shared/environments.ts';
import type { KeyEnvironment, KeyProblem, KeyStatus } from '../../shared/key-status.ts';
import { isKeyEnvironment, KEY_ENVIRONMENTS } from '../../shared/key-status.ts';
import { isOrigin, originNames } from './key-origin.ts';
import { InvalidKeyError, validateKey } from './key-validation.ts';
import type { Protection, SafeStorageLike } from './storage-protection.ts';
import { assessProtection } from './storage-protection.ts';

/** One saved key: its ciphertext and the origin it may be sent to. */
export interface SavedKeyRecord {
  /** base64 of safeStorage's ciphertext. */
  readonly ciphertext: string;
  /**
   * Absent in records saved before keys were bound (and for a key entered
   * before the environment had an address) until the first read binds it.
   */
  readonly origin?: string;
}

/** Where saved keys and the user's "weak storage is fine" choice persist. */
export interface CiphertextStore {
  get(environment: KeyEnvironment): SavedKeyRecord | undefined;
  set(environment: KeyEnvironment, record: SavedKeyRecord): void;
  delete(environment: KeyEnvironment): void;
  getWeakAccepted(environment: KeyEnvironment): boolean;
  setWeakAccepted(environment: KeyEnvironment, accepted: boolean): void;
}

export interface KeyStoreDeps {
  readonly safeStorage: SafeStorageLike;
  readonly store: CiphertextStore;
  readonly platform: NodeJS.Platform;
}

export interface SetKeyOptions {
  /**
   * Where the OS offers only weak protection (Linux `basic_text`): `true`
   * saves the key anyway and remembers the choice for this environment,
   * `false` keeps it for the session and forgets an earlier choice. Left out,
   * the remembered choice applies. Ignored where protection is real, and
   * where there is no encryption at all (session only).
   */
  readonly acceptWeakStorage?: boolean;
  /**
   * The origin of the environment's address: the key is sent only there.
   * Left out (no address yet), the key binds to the first address it is read for.
   */
  readonly origin?: string;
}

export type KeyStatusListener = (status: KeyStatus) => void;

interface HeldKey {
  readonly key: string;
  readonly origin?: string;
}

type KeySource = ({ kind: 'session' } & HeldKey) | ({ kind: 'saved' } & HeldKey) | { kind: 'none' };

/**
 * The environment is sealed in with the key, so a ciphertext copied to the
 * other environment's slot is rejected instead of sending one environment's
 * key to the other. Keys cannot contain a line break, so the split is exact.
 */
function sealPrefix(environment: KeyEnvironment): string {
  return `${environment}\n`;
}

function isBase64(text: string): boolean {
  return text.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(text);
}

type NoticeKind =
  | 'weakNone'
  | 'weakSession'
  | 'weakSaved'
  | 'unavailableNone'
  | 'unavailableSession'
  | 'session'
  | 'notSaved'
  | 'undecryptable'
  | 'locked';

/** The other-address notice names both hosts, so it is built per call. */
function otherAddressNotice(environment: KeyEnvironment, bound: string, address: string): string {
  const { from, to } = originNames(bound, address);
  return `The ${ENVIRONMENT_LABELS[environment]} key was entered for ${from}, so it is not sent to ${to} until you confirm the new address or enter the key again.`;
}

/**
 * Plain words for the user. They name the environment, never the key, and
 * never a storage backend. Where this computer cannot protect a saved key the
 * screen leads with "This computer’s password store is not available", and
 * its status line says where the key is kept, so these do not say either again.
 */
function notices(environment: KeyEnvironment): Record<NoticeKind, string> {
  const name = ENVIRONMENT_LABELS[environment];
  return {
    weakNone: `A saved key would not be protected, so a ${name} key you enter is kept until you quit, unless you choose to save it anyway.`,
    weakSession: `Enter it again each time Store Admin starts, or choose to save the ${name} key anyway, without protection.`,
    weakSaved: `Anyone who can read your files can read the ${name} key.`,
    unavailableNone: `A ${name} key you enter is kept until you quit.`,
    unavailableSession: `Enter the ${name} key again each time Store Admin starts.`,
    session: `Enter the ${name} key again each time Store Admin starts.`,
    notSaved: `The ${name} key could not be saved in this computer’s password store.`,
    undecryptable: `The saved ${name} key could not be read (this computer’s password store may have changed), so it was removed. Enter it again.`,
    locked: `A ${name} key is saved, but this computer’s password store is locked or not available right now, so it cannot be read. Enter the key again to use it until you quit, or restart Store Admin once the password store is unlocked.`,
  };
}

/**
 * Holds the API key of each remote environment. It loads by itself (see
 * `ready`): until then no saved key is known and nothing counts as
 * protected. Only main-process code may call `getKey`; everything else gets
 * `status`.
 */
export class KeyStore {
  readonly #safeStorage: SafeStorageLike;
  readonly #store: CiphertextStore;
  readonly #platform: NodeJS.Platform;
  readonly #session = new Map<KeyEnvironment, HeldKey>();
  /** Saved keys, decrypted once when the store loaded or when they were saved. */
  readonly #saved = new Map<KeyEnvironment, HeldKey>();
  /** Problems that outlive the call that found them, until the key is set or removed. */
  readonly #problems = new Map<KeyEnvironment, 'undecryptable' | 'not-saved'>();
  readonly #listeners = new Set<KeyStatusListener>();
  /** What isAsyncEncryptionAvailable last said. */
  #available = false;
  readonly #loaded: Promise<void>;

  constructor(deps: KeyStoreDeps) {
    this.#safeStorage = deps.safeStorage;
    this.#store = deps.store;
    this.#platform = deps.platform;
    this.#loaded = this.#load();
  }

  /** Resolves once the saved keys are read (call it after Electron's `ready`). */
  ready(): Promise<void> {
    return this.#loaded;
  }

  /**
   * `address`: the origin of the environment's address, when it has one. A
   * key bound elsewhere then reports the `other-address` problem.
   */
  status(environment: KeyEnvironment, address?: string): KeyStatus {
    assertEnvironment(environment);
    if (address !== undefined) this.bindUnbound(environment, address);
    return this.#statusOf(environment, this.#protection(), this.#read(environment), address);
  }

  /**
   * The key for a request to `address` (an origin), or undefined when none
   * is usable there: a key bound to another origin is never handed out.
   * Main process only.
   */
  getKey(environment: KeyEnvironment, address: string): string | undefined {
    assertEnvironment(environment);
    this.bindUnbound(environment, address);
    const source = this.#read(environment);
    return source.kind !== 'none' && source.origin === address ? source.key : undefined;
  }

  /**
   * Every key held, whatever address it is bound to: only for scrubbing them
   * out of log lines, never for a request. Decrypts nothing.
   */
  keysToScrub(): string[] {
    return [...this.#session.values(), ...this.#saved.values()].map((held) => held.key);
  }

  /**
   * Binds a key that is not bound yet (saved by an earlier version, or
   * entered before the address) to `origin`. Needs no decryption, so it works
   * while the password store is locked too.
   */
  bindUnbound(environment: KeyEnvironment, origin: string): void {
    assertEnvironment(environment);
    assertOrigin(origin);
    const session = this.#session.get(environment);
    if (session) {
      if (session.origin === undefined) this.#session.set(environment, { ...session, origin });
      return;
    }
    const record = this.#store.get(environment);
    if (record && record.origin === undefined) {
      this.#store.set(environment, { ...record, origin });
      const saved = this.#saved.get(environment);
      if (saved) this.#saved.set(environment, { ...saved, origin });
    }
  }

  /**
   * Lets the current key go to `origin` instead of where it was bound: only
   * after the clerk confirmed it in main's own dialog.
   */
  allowOrigin(environment: KeyEnvironment, origin: string): KeyStatus {
    assertEnvironment(environment);
    assertOrigin(origin);
    const session = this.#session.get(environment);
    const record = this.#store.get(environment);
    if (session) this.#session.set(environment, { ...session, origin });
    else if (record) {
      this.#store.set(environment, { ...record, origin });
      const saved = this.#saved.get(environment);
      if (saved) this.#saved.set(environment, { ...saved, origin });
    }
    return this.#changed(environment, this.#protection(), origin);
  }

  /**
   * Validates and keeps the key, replacing any earlier one for the
   * environment. Rejects with InvalidKeyError (which never contains the key)
   * for a key validateKey refuses.
   */
  async setKey(
    environment: KeyEnvironment,
    key: string,
    options: SetKeyOptions = {},
  ): Promise<KeyStatus> {
    assertEnvironment(environment);
    const checked = validateKey(key);
    if (!checked.ok) throw new InvalidKeyError(checked.reason, checked.message);
    const { origin } = options;
    if (origin !== undefined) assertOrigin(origin);
    await this.#loaded;
    this.#available = await this.#isAvailable();
    const protection = this.#protection();
    this.#problems.delete(environment);

    if (options.acceptWeakStorage === false) this.#store.setWeakAccepted(environment, false);
    if (options.acceptWeakStorage === true && protection.level === 'weak') {
      this.#store.setWeakAccepted(environment, true);
    }
    const save =
      protection.level === 'os' ||
      (protection.level === 'weak' && this.#store.getWeakAccepted(environment));
    if (save && protection.level === 'weak') this.#allowPlainTextEncryption();

    const held = { key: checked.value, ...(origin ? { origin } : {}) };
    if (save && (await this.#save(environment, checked.value, origin))) {
      this.#session.delete(environment);
      this.#saved.set(environment, held);
    } else {
      if (save) this.#problems.set(environment, 'not-saved');
      this.#session.set(environment, held);
      // An older saved key must not come back in the next session.
      this.#saved.delete(environment);
      this.#store.delete(environment);
    }
    return this.#changed(environment, protection, origin);
  }

  /** Forgets the key, saved or not, and any acceptance of weak storage. */
  removeKey(environment: KeyEnvironment): KeyStatus {
    assertEnvironment(environment);
    this.#session.delete(environment);
    this.#saved.delete(environment);
    this.#problems.delete(environment);
    this.#store.delete(environment);
    this.#store.setWeakAccepted(environment, false);
    return this.#changed(environment, this.#protection());
  }

  /**
   * Called with the new status after setKey, removeKey, and when a saved key
   * turns out to be undecryptable and is removed. Returns an unsubscribe.
   */
  onChange(listener: KeyStatusListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  async #isAvailable(): Promise<boolean> {
    try {
      return await this.#safeStorage.isAsyncEncryptionAvailable();
    } catch {
      return false;
    }
  }

  /** On Linux's basic_text the clerk chose to save anyway: safeStorage is told so, as Electron asks. */
  #allowPlainTextEncryption(): void {
    try {
      this.#safeStorage.setUsePlainTextEncryption?.(true);
    } catch {
      // Not on this platform.
    }
  }

  async #load(): Promise<void> {
    this.#available = await this.#isAvailable();
    const protection = this.#protection();
    if (protection.level === 'weak' && KEY_ENVIRONMENTS.some((e) => this.#store.getWeakAccepted(e)))
      this.#allowPlainTextEncryption();
    // With no encryption right now, saved keys stay on disk: they may be readable later.
    if (protection.level === 'unavailable') return;
    for (const environment of KEY_ENVIRONMENTS) {
      const record = this.#store.get(environment);
      if (record === undefined) continue;
      const key = await this.#decrypt(environment, record.ciphertext);
      // A hand-edited origin that is not one counts as damage, like a bad ciphertext.
      const originOk = record.origin === undefined || isOrigin(record.origin);
      if (key !== undefined && originOk) {
        this.#saved.set(environment, { key, ...(record.origin ? { origin: record.origin } : {}) });
        continue;
      }
      this.#store.delete(environment);
      this.#problems.set(environment, 'undecryptable');
      this.#notify(this.#statusOf(environment, protection, { kind: 'none' }));
    }
  }

  #protection(): Protection {
    return assessProtection(this.#available, this.#safeStorage, this.#platform);
  }

  #read(environment: KeyEnvironment): KeySource {
    const session = this.#session.get(environment);
    if (session !== undefined) return { kind: 'session', ...session };
    const saved = this.#saved.get(environment);
    if (saved !== undefined) return { kind: 'saved', ...saved };
    return { kind: 'none' };
  }

  async #decrypt(environment: KeyEnvironment, ciphertext: string): Promise<string | undefined> {
    if (!isBase64(ciphertext)) return undefined;
    try {
      const { result: plain } = await this.#safeStorage.decryptStringAsync(
        Buffer.from(ciphertext, 'base64'),
      );
      const prefix = sealPrefix(environment);
      if (!plain.startsWith(prefix)) return undefined;
      const key = plain.slice(prefix.length);
      const checked = validateKey(key);
      // Whatever decrypts to something setKey would not have saved is damage.
      return checked.ok && checked.value === key ? key : undefined;
    } catch {
      return undefined;
    }
  }

  /** Encrypts, checks the round trip, then saves; false if any step fails. */
  async #save(
    environment: KeyEnvironment,
    key: string,
    origin: string | undefined,
  ): Promise<boolean> {
    try {
      const ciphertext = (
        await this.#safeStorage.encryptStringAsync(sealPrefix(environment) + key)
      ).toString('base64');
      if ((await this.#decrypt(environment, ciphertext)) !== key) return false;
      this.#store.set(environment, { ciphertext, ...(origin ? { origin } : {}) });
      return true;
    } catch {
      return false;
    }
  }

  #statusOf(
    environment: KeyEnvironment,
    protection: Protection,
    source: KeySource,
    address?: string,
  ): KeyStatus {
    const text = notices(environment);
    const base = {
      environment,
      backend: protection.backend,
      weak: protection.level !== 'os',
      canAcceptWeakStorage: protection.level === 'weak',
    };
    const problem = this.#problems.get(environment);
    const held = this.#heldStatus(environment, protection, source, base, text, problem);
    if (source.kind === 'none' || source.origin === undefined) return held;
    const bound = { ...held, origin: source.origin };
    if (address === undefined || address === source.origin) return bound;
    // Said instead of any other notice: it is what stops requests now.
    return {
      ...bound,
      problem: 'other-address',
      notice: otherAddressNotice(environment, source.origin, address),
    };
  }

  #heldStatus(
    environment: KeyEnvironment,
    protection: Protection,
    source: KeySource,
    base: Pick<KeyStatus, 'environment' | 'backend' | 'weak' | 'canAcceptWeakStorage'>,
    text: Record<NoticeKind, string>,
    problem: KeyProblem | undefined,
  ): KeyStatus {
    if (source.kind === 'saved') {
      // Saved under weak protection means the user accepted it (setKey saves
      // nothing else); the notice says what that protection is worth.
      return protection.level === 'os'
        ? { ...base, set: true, storage: 'os-encrypted' }
        : { ...base, set: true, storage: 'weak-accepted', notice: text.weakSaved };
    }
    if (source.kind === 'session') {
      if (problem === 'not-saved')
        return { ...base, set: true, storage: 'session-only', problem, notice: text.notSaved };
      const notice =
        protection.level === 'weak'
          ? text.weakSession
          : protection.level === 'unavailable'
            ? text.unavailableSession
            : text.session;
      return { ...base, set: true, storage: 'session-only', notice };
    }
    const none = { ...base, set: false, storage: 'none' } as const;
    if (problem === 'undecryptable') return { ...none, problem, notice: text.undecryptable };
    if (protection.level === 'unavailable' && this.#store.get(environment) !== undefined) {
      return { ...none, problem: 'locked', notice: text.locked };
    }
    if (protection.level === 'weak') return { ...none, notice: text.weakNone };
    if (protection.level === 'unavailable') return { ...none, notice: text.unavailableNone };
    return none;
  }

  #changed(environment: KeyEnvironment, protection: Protection, address?: string): KeyStatus {
    const status = this.#statusOf(environment, protection, this.#read(environment), address);
    this.#notify(status);
    return status;
  }

  #notify(status: KeyStatus): void {
    for (const listener of [...this.#listeners]) listener(status);
  }
}

function assertOrigin(origin: unknown): asserts origin is string {
  if (!isOrigin(origin)) throw new TypeError('Expected an origin such as https://api.example.com.');
}

function assertEnvironment(environment: unknown): asserts environment is KeyEnvironment {
  if (!isKeyEnvironment(environment))
    throw new TypeError('Unknown key environment: expected production or staging.');
}
