// What the rest of the app may know about an API key: whether one is set and
// how it is kept. Never the key itself. Shared: it crosses the IPC boundary.

import type { RemoteEnvironmentId } from './environments.ts';

/** The environments with a user-entered key; the sandbox uses a fixed demo key. */
export type KeyEnvironment = RemoteEnvironmentId;

export const KEY_ENVIRONMENTS: readonly KeyEnvironment[] = ['production', 'staging'];

export function isKeyEnvironment(value: unknown): value is KeyEnvironment {
  return value === 'production' || value === 'staging';
}

/**
 * - `os-encrypted`: saved, encrypted by the OS secret store (Keychain, DPAPI, libsecret, KWallet).
 * - `weak-accepted`: saved with weak protection, because the user chose to.
 * - `session-only`: held in memory until the app quits.
 * - `none`: no key.
 */
export type KeyStorage = 'os-encrypted' | 'weak-accepted' | 'session-only' | 'none';

/**
 * Why a status carries a notice, for the UI to react to:
 * - `undecryptable`: the saved key could not be decrypted and was removed; enter it again.
 * - `locked`: a saved key exists but encryption is unavailable right now; it was kept.
 * - `not-saved`: the OS store refused the key, so it is kept for this session only.
 * - `other-address`: the key was saved for another address (`origin`); nothing is sent with it
 *   to the environment's address until the clerk confirms it in main's dialog
 *   (`keys:confirm-origin`) or enters the key again.
 */
export type KeyProblem = 'undecryptable' | 'locked' | 'not-saved' | 'other-address';

export interface KeyStatus {
  readonly environment: KeyEnvironment;
  /** A key is held for this environment (with `other-address`, held but not sent). */
  readonly set: boolean;
  readonly storage: KeyStorage;
  /** The OS secret store in plain words, e.g. 'the macOS Keychain', 'no password store (encryption is not available)'. */
  readonly backend: string;
  /**
   * This computer cannot protect a saved key (basic text, an unidentified
   * store, or no encryption at all), whether or not a key is set.
   */
  readonly weak: boolean;
  /** Offering "save it anyway with weak protection" makes sense (weak, but encryption works). */
  readonly canAcceptWeakStorage: boolean;
  /**
   * The origin (scheme, host, port) the key is bound to: requests carry it
   * only there. Absent while no key is set, or before the environment has an address.
   */
  readonly origin?: string;
  readonly problem?: KeyProblem;
  /** Plain words for the user, present whenever there is something to know. */
  readonly notice?: string;
}
