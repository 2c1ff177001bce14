// A CiphertextStore in memory, for tests and for runs that must not touch disk.

import type { CiphertextStore, SavedKeyRecord } from './key-store.ts';
import type { KeyEnvironment } from '../../shared/key-status.ts';

export class MemoryCiphertextStore implements CiphertextStore {
  readonly #records = new Map<KeyEnvironment, SavedKeyRecord>();
  readonly #weakAccepted = new Set<KeyEnvironment>();

  get(environment: KeyEnvironment): SavedKeyRecord | undefined {
    return this.#records.get(environment);
  }

  set(environment: KeyEnvironment, record: SavedKeyRecord): void {
    this.#records.set(environment, { ...record });
  }

  delete(environment: KeyEnvironment): void {
    this.#records.delete(environment);
  }

  getWeakAccepted(environment: KeyEnvironment): boolean {
    return this.#weakAccepted.has(environment);
  }

  setWeakAccepted(environment: KeyEnvironment, accepted: boolean): void {
    if (accepted) this.#weakAccepted.add(environment);
    else this.#weakAccepted.delete(environment);
  }

  /** Everything held, as plain data (for tests that search it for a plaintext). */
  snapshot(): {
    ciphertexts: Partial<Record<KeyEnvironment, string>>;
    origins: Partial<Record<KeyEnvironment, string>>;
    weakAccepted: KeyEnvironment[];
  } {
    const records = [...this.#records];
    return {
      ciphertexts: Object.fromEntries(records.map(([env, record]) => [env, record.ciphertext])),
      origins: Object.fromEntries(
        records.flatMap(([env, record]) => (record.origin ? [[env, record.origin]] : [])),
      ),
      weakAccepted: [...this.#weakAccepted],
    };
  }
}
