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

/**
 * The longest a wait for a moment of the wall clock goes without looking at
 * it: a timer counts only the time the computer was awake (Node's timers run
 * on the monotonic clock), so after a sleep, or the clock set forward, a wait
 * whose moment has passed ends within this long.
 */
export const WALL_CLOCK_LOOK_MS = 5_000;

/** Sleeps until the wall clock reads `at`, looking at it at least every WALL_CLOCK_LOOK_MS. */
export async function sleepUntil(timing: Timing, at: number, signal?: AbortSignal): Promise<void> {
  for (;;) {
    const left = at - timing.now();
    if (left <= 0) return;
    await timing.sleep(Math.min(left, WALL_CLOCK_LOOK_MS), signal);
  }
}
