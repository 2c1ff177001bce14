// Wires the key store to Electron: safeStorage encrypts, an electron-store file
// keeps the ciphertext (and its format's version, local-data/data-files.ts).
// The only file of this capability that imports electron.

import { app, safeStorage } from 'electron';
import ElectronStore from 'electron-store';
import { join } from 'node:path';
import { USER_DATA_FILES } from '../local-data/data-files.ts';
import { versionedStoreFile } from '../local-data/versioned-store-file.ts';
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
    // Every save carries the file's version; a newer release's file is left as it is.
    store: new ElectronCiphertextStore(versionedStoreFile(file, USER_DATA_FILES.apiKeys)),
    platform: options.platform ?? process.platform,
  });
}
