// Whether an environment's service answers, inferred in this one place from
// the outcome of each call to it. Every operation that talks to the service
// runs through `observe`; listeners (the renderer's notices, a bulk cancel's
// pause) hear the inference, never a guess of their own.

import type { EnvironmentId } from '../../shared/environments.ts';
import { isStoreApiError } from '../store-api/client.ts';

export interface ConnectivityChange {
  readonly environment: EnvironmentId;
  readonly reachable: boolean;
  /** Why it cannot be reached, in plain words. */
  readonly message?: string;
}

export type ConnectivityListener = (change: ConnectivityChange) => void;

export class Connectivity {
  readonly #listeners = new Set<ConnectivityListener>();

  onChange(listener: ConnectivityListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Runs one call to `environment`'s service and tells what its outcome says of the service. */
  async observe<T>(environment: EnvironmentId, call: () => Promise<T>): Promise<T> {
    try {
      const value = await call();
      this.#tell({ environment, reachable: true });
      return value;
    } catch (error) {
      this.#tell(this.#inferred(environment, error));
      throw error;
    }
  }

  /** What a failed call says; undefined when it says nothing (nothing was sent). */
  #inferred(environment: EnvironmentId, error: unknown): ConnectivityChange | undefined {
    if (!isStoreApiError(error)) return undefined;
    const { kind, delivery, message } = error.failure;
    // A list cut off mid-download was answered: the service is there, the download failed.
    if ((kind === 'network' || kind === 'timeout') && delivery !== 'answered')
      return { environment, reachable: false, message };
    if (delivery !== 'not-sent') return { environment, reachable: true };
    return undefined;
  }

  #tell(change: ConnectivityChange | undefined): void {
    if (!change) return;
    for (const listener of [...this.#listeners]) listener(change);
  }
}
