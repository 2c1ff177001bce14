// A CiphertextStore over an electron-store file. The file holds only base64
// ciphertext from safeStorage, the origin each key may be sent to, and the
// user's weak-storage choice; electron-store's own `encryptionKey` is
// obfuscation and is not relied on.

import type { CiphertextStore, SavedKeyRecord } from './key-store.ts';
import type { KeyEnvironment } from '../../shared/key-status.ts';
import type { KeyValueFile } from '../local-data/versioned-store-file.ts';

/** The electron-store `name`: the file is `<userData>/api-keys.json`. */
export const API_KEYS_FILE_NAME = 'api-keys';

export class ElectronCiphertextStore implements CiphertextStore {
  readonly #file: KeyValueFile;

  constructor(file: KeyValueFile) {
    this.#file = file;
  }

  get(environment: KeyEnvironment): SavedKeyRecord | undefined {
    const ciphertext = this.#file.get(`${environment}.ciphertext`);
    // A hand-edited file may hold anything; the key store treats non-base64 as damage.
    if (typeof ciphertext !== 'string') return undefined;
    const origin = this.#file.get(`${environment}.origin`);
    if (origin === undefined) return { ciphertext };
    // Not a string is damage: passed on as an origin the key store refuses, never as "unbound".
    return { ciphertext, origin: typeof origin === 'string' ? origin : '' };
  }

  set(environment: KeyEnvironment, record: SavedKeyRecord): void {
    // One write for the whole record, so a crash never pairs a key with another key's origin.
    this.#file.set(environment, {
      ciphertext: record.ciphertext,
      ...(record.origin === undefined ? {} : { origin: record.origin }),
      ...(this.getWeakAccepted(environment) ? { weakStorageAccepted: true } : {}),
    });
  }

  delete(environment: KeyEnvironment): void {
    this.#file.delete(`${environment}.ciphertext`);
    this.#file.delete(`${environment}.origin`);
  }

  getWeakAccepted(environment: KeyEnvironment): boolean {
    return this.#file.get(`${environment}.weakStorageAccepted`) === true;
  }

  setWeakAccepted(environment: KeyEnvironment, accepted: boolean): void {
    if (accepted) this.#file.set(`${environment}.weakStorageAccepted`, true);
    else this.#file.delete(`${environment}.weakStorageAccepted`);
  }
}
