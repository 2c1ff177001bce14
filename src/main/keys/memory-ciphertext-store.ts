// A CiphertextStore in memory, for tests and for runs that must not touch disk.

import type { CiphertextStore } from './key-store.ts';
import type { KeyEnvironment } from '../../shared/key-status.ts';

export class MemoryCiphertextStore implements CiphertextStore {
  readonly #ciphertexts = new Map<KeyEnvironment, string>();
  readonly #weakAccepted = new Set<KeyEnvironment>();

  get(environment: KeyEnvironment): string | undefined {
    return this.#ciphertexts.get(environment);
  }

  set(environment: KeyEnvironment, base64: string): void {
    this.#ciphertexts.set(environment, base64);
  }

  delete(environment: KeyEnvironment): void {
    this.#ciphertexts.delete(environment);
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
    weakAccepted: KeyEnvironment[];
  } {
    return {
      ciphertexts: Object.fromEntries(this.#ciphertexts),
      weakAccepted: [...this.#weakAccepted],
    };
  }
}
