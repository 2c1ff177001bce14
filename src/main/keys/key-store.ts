// API keys for production and staging, one per environment. A key is saved
// only as ciphertext from the OS secret store (safeStorage); where the OS
// offers no real protection it stays in memory for the session unless the
// user accepts weak storage. Callers outside the main process get a
// KeyStatus, never the key.

import { ENVIRONMENT_LABELS } from '../../shared/environments.ts';
import type { KeyEnvironment, KeyProblem, KeyStatus } from '../../shared/key-status.ts';
import { isKeyEnvironment } from '../../shared/key-status.ts';
import { InvalidKeyError, validateKey } from './key-validation.ts';
import type { Protection, SafeStorageLike } from './storage-protection.ts';
import { assessProtection } from './storage-protection.ts';

/** Where ciphertext (base64) and the user's "weak storage is fine" choice persist. */
export interface CiphertextStore {
  get(environment: KeyEnvironment): string | undefined;
  set(environment: KeyEnvironment, base64: string): void;
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
}

export type KeyStatusListener = (status: KeyStatus) => void;

type KeySource =
  { kind: 'session'; key: string } | { kind: 'saved'; key: string } | { kind: 'none' };

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
 * Holds the API key of each remote environment. Protection is assessed on
 * every call (on Linux, safeStorage only knows its backend after `ready`), so
 * statuses are meaningful once the app is ready. Only main-process code may
 * call `getKey`; everything else gets `status`.
 */
export class KeyStore {
  readonly #safeStorage: SafeStorageLike;
  readonly #store: CiphertextStore;
  readonly #platform: NodeJS.Platform;
  readonly #session = new Map<KeyEnvironment, string>();
  /** Problems that outlive the call that found them, until the key is set or removed. */
  readonly #problems = new Map<KeyEnvironment, Exclude<KeyProblem, 'locked'>>();
  readonly #listeners = new Set<KeyStatusListener>();

  constructor(deps: KeyStoreDeps) {
    this.#safeStorage = deps.safeStorage;
    this.#store = deps.store;
    this.#platform = deps.platform;
  }

  status(environment: KeyEnvironment): KeyStatus {
    assertEnvironment(environment);
    const protection = this.#protection();
    return this.#statusOf(environment, protection, this.#read(environment, protection));
  }

  /** The key for a request, or undefined when none is usable. Main process only. */
  getKey(environment: KeyEnvironment): string | undefined {
    assertEnvironment(environment);
    const protection = this.#protection();
    const source = this.#read(environment, protection);
    return source.kind === 'none' ? undefined : source.key;
  }

  /**
   * Validates and keeps the key, replacing any earlier one for the
   * environment. Throws InvalidKeyError (which never contains the key) for a
   * key validateKey rejects.
   */
  setKey(environment: KeyEnvironment, key: string, options: SetKeyOptions = {}): KeyStatus {
    assertEnvironment(environment);
    const checked = validateKey(key);
    if (!checked.ok) throw new InvalidKeyError(checked.reason, checked.message);
    const protection = this.#protection();
    this.#problems.delete(environment);

    if (options.acceptWeakStorage === false) this.#store.setWeakAccepted(environment, false);
    if (options.acceptWeakStorage === true && protection.level === 'weak') {
      this.#store.setWeakAccepted(environment, true);
    }
    const save =
      protection.level === 'os' ||
      (protection.level === 'weak' && this.#store.getWeakAccepted(environment));

    if (save && this.#save(environment, checked.value)) {
      this.#session.delete(environment);
    } else {
      if (save) this.#problems.set(environment, 'not-saved');
      this.#session.set(environment, checked.value);
      // An older saved key must not come back in the next session.
      this.#store.delete(environment);
    }
    return this.#changed(environment, protection);
  }

  /** Forgets the key, saved or not, and any acceptance of weak storage. */
  removeKey(environment: KeyEnvironment): KeyStatus {
    assertEnvironment(environment);
    this.#session.delete(environment);
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

  #protection(): Protection {
    return assessProtection(this.#safeStorage, this.#platform);
  }

  #read(environment: KeyEnvironment, protection: Protection): KeySource {
    const sessionKey = this.#session.get(environment);
    if (sessionKey !== undefined) return { kind: 'session', key: sessionKey };
    const ciphertext = this.#store.get(environment);
    // With no encryption right now the saved key may still be fine later.
    if (ciphertext === undefined || protection.level === 'unavailable') return { kind: 'none' };
    const key = this.#decrypt(environment, ciphertext);
    if (key !== undefined) return { kind: 'saved', key };
    this.#store.delete(environment);
    this.#problems.set(environment, 'undecryptable');
    this.#notify(this.#statusOf(environment, protection, { kind: 'none' }));
    return { kind: 'none' };
  }

  #decrypt(environment: KeyEnvironment, ciphertext: string): string | undefined {
    if (!isBase64(ciphertext)) return undefined;
    try {
      const plain = this.#safeStorage.decryptString(Buffer.from(ciphertext, 'base64'));
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
  #save(environment: KeyEnvironment, key: string): boolean {
    try {
      const base64 = this.#safeStorage
        .encryptString(sealPrefix(environment) + key)
        .toString('base64');
      if (this.#decrypt(environment, base64) !== key) return false;
      this.#store.set(environment, base64);
      return true;
    } catch {
      return false;
    }
  }

  #statusOf(environment: KeyEnvironment, protection: Protection, source: KeySource): KeyStatus {
    const text = notices(environment);
    const base = {
      environment,
      backend: protection.backend,
      weak: protection.level !== 'os',
      canAcceptWeakStorage: protection.level === 'weak',
    };
    const problem = this.#problems.get(environment);

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

  #changed(environment: KeyEnvironment, protection: Protection): KeyStatus {
    const status = this.#statusOf(environment, protection, this.#read(environment, protection));
    this.#notify(status);
    return status;
  }

  #notify(status: KeyStatus): void {
    for (const listener of [...this.#listeners]) listener(status);
  }
}

function assertEnvironment(environment: unknown): asserts environment is KeyEnvironment {
  if (!isKeyEnvironment(environment))
    throw new TypeError('Unknown key environment: expected production or staging.');
}
