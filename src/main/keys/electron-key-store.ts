// Wires the key store to Electron: safeStorage encrypts, an electron-store file
// keeps the ciphertext. The only file of this capability that imports electron.

import { app, safeStorage } from 'electron';
import ElectronStore from 'electron-store';
import { join } from 'node:path';
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
  let file: ElectronStore<Record<string, unknown>>;
  try {
    file = new ElectronStore<Record<string, unknown>>({
      name: API_KEYS_FILE_NAME,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      // A damaged file holds nothing worth crashing for: the keys are entered again.
      clearInvalidConfig: true,
      configFileMode: 0o600,
    });
  } catch (error) {
    // A file that cannot be read at all (a folder in its place, no permission): the start-up
    // failure names it, which electron-store's error does not.
    const path = join(options.cwd ?? app.getPath('userData'), `${API_KEYS_FILE_NAME}.json`);
    if (error instanceof Error && !('path' in error)) Object.assign(error, { path });
    throw error;
  }
  return new KeyStore({
    safeStorage,
    store: new ElectronCiphertextStore(file),
    platform: options.platform ?? process.platform,
  });
}
