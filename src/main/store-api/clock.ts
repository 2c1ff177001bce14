// Time, randomness and sleeping are injected into everything that waits, so
// tests of backoff and rate limits are exact and fast.

export interface Timing {
  /** Epoch milliseconds. */
  now(): number;
  /** A number in [0, 1). */
  random(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const realTiming: Timing = { now: Date.now, random: Math.random, sleep };
