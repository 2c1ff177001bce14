// A clock for tests of anything that waits: sleeping advances virtual time at
// once (after a macrotask, so I/O still runs) and every sleep is recorded, so
// backoff and rate-limit waits are asserted exactly and cost no real time.

import type { Timing } from '../../src/main/quota/clock.ts';

export interface VirtualTiming extends Timing {
  readonly sleeps: number[];
  advance(ms: number): void;
  set(epochMs: number): void;
}

export function virtualTiming(
  options: { start?: number; random?: () => number } = {},
): VirtualTiming {
  let now = options.start ?? Date.UTC(2026, 10, 22, 12, 0, 0);
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    random: options.random ?? (() => 0.5),
    advance(ms) {
      now += ms;
    },
    set(epochMs) {
      now = epochMs;
    },
    sleep(ms, signal) {
      sleeps.push(ms);
      const wakeAt = now + Math.max(0, ms);
      return new Promise((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const timer = setImmediate(() => {
          signal?.removeEventListener('abort', onAbort);
          now = Math.max(now, wakeAt);
          resolve();
        });
        const onAbort = (): void => {
          clearImmediate(timer);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
