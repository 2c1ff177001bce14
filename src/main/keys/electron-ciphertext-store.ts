// A CiphertextStore over an electron-store file. The file holds only base64
// ciphertext from safeStorage and the user's weak-storage choice; electron-store's
// own `encryptionKey` is obfuscation and is not relied on.

import type { CiphertextStore } from './key-store.ts';
import type { KeyEnvironment } from '../../shared/key-status.ts';

/** The part of an electron-store (or conf) instance this adapter uses; keys are dot paths. */
export interface KeyValueFile {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** The electron-store `name`: the file is `<userData>/api-keys.json`. */
export const API_KEYS_FILE_NAME = 'api-keys';

export class ElectronCiphertextStore implements CiphertextStore {
  readonly #file: KeyValueFile;

  constructor(file: KeyValueFile) {
    this.#file = file;
  }

  get(environment: KeyEnvironment): string | undefined {
    const value = this.#file.get(`${environment}.ciphertext`);
    // A hand-edited file may hold anything; the key store treats non-base64 as damage.
    return typeof value === 'string' ? value : undefined;
  }

  set(environment: KeyEnvironment, base64: string): void {
    this.#file.set(`${environment}.ciphertext`, base64);
  }

  delete(environment: KeyEnvironment): void {
    this.#file.delete(`${environment}.ciphertext`);
  }

  getWeakAccepted(environment: KeyEnvironment): boolean {
    return this.#file.get(`${environment}.weakStorageAccepted`) === true;
  }

  setWeakAccepted(environment: KeyEnvironment, accepted: boolean): void {
    if (accepted) this.#file.set(`${environment}.weakStorageAccepted`, true);
    else this.#file.delete(`${environment}.weakStorageAccepted`);
  }
}
