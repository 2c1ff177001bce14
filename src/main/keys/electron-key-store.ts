// Wires the key store to Electron: safeStorage encrypts, an electron-store file
// keeps the ciphertext. The only file of this capability that imports electron.

import { safeStorage } from 'electron';
import ElectronStore from 'electron-store';
import { API_KEYS_FILE_NAME, ElectronCiphertextStore } from './electron-ciphertext-store.ts';
import { KeyStore } from './key-store.ts';

export interface ElectronKeyStoreOptions {
  /** Absolute directory for the file; Electron's userData directory by default. */
  readonly cwd?: string;
  readonly platform?: NodeJS.Platform;
}

/**
 * Creates the app's key store. Safe to call before `ready`, but ask for
 * statuses after it: on Linux safeStorage knows its backend only then.
 */
export function createElectronKeyStore(options: ElectronKeyStoreOptions = {}): KeyStore {
  const file = new ElectronStore<Record<string, unknown>>({
    name: API_KEYS_FILE_NAME,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    // A damaged file holds nothing worth crashing for: the keys are entered again.
    clearInvalidConfig: true,
    configFileMode: 0o600,
  });
  return new KeyStore({
    safeStorage,
    store: new ElectronCiphertextStore(file),
    platform: options.platform ?? process.platform,
  });
}
