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

/** A clock that reads this much less than a timer slept was set back (timers never end early). */
const SET_BACK_MS = 1_000;

/**
 * Sleeps until the wall clock reads `at`, looking at it at least every
 * WALL_CLOCK_LOOK_MS: after a sleep of the computer, or the clock set
 * forward, it ends within one look. A clock set back does not lengthen the
 * wait: `at` goes back with it, so the wait never ends later than what was
 * left of it when it was last looked at.
 */
export async function sleepUntil(timing: Timing, at: number, signal?: AbortSignal): Promise<void> {
  let end = at;
  for (;;) {
    const before = timing.now();
    const left = end - before;
    if (left <= 0) return;
    const ms = Math.min(left, WALL_CLOCK_LOOK_MS);
    await timing.sleep(ms, signal);
    const back = before + ms - timing.now();
    if (back >= SET_BACK_MS) end -= back;
  }
}
