// A clock for tests of anything that waits: sleeping advances virtual time at
// once (after a macrotask, so I/O still runs) and every sleep is recorded, so
// backoff and rate-limit waits are asserted exactly and cost no real time.

import type { Timing } from '../../src/main/store-api/clock.ts';

export interface VirtualTiming extends Timing {
  readonly sleeps: number[];
  advance(ms: number): void;
  set(epochMs: number): void;
}

/** The clock both timings share: the time, set or moved on by hand, and every sleep asked for. */
function manualClock(options: { start?: number; random?: () => number }) {
  let now = options.start ?? Date.UTC(2026, 10, 22, 12, 0, 0);
  return {
    sleeps: [] as number[],
    now: () => now,
    random: options.random ?? (() => 0.5),
    advance(ms: number) {
      now += ms;
    },
    set(epochMs: number) {
      now = epochMs;
    },
    /** A sleeper wakes: time moves on to its wake time, never back. */
    wakeAt(at: number) {
      now = Math.max(now, at);
    },
  };
}

export function virtualTiming(
  options: { start?: number; random?: () => number } = {},
): VirtualTiming {
  const { wakeAt: moveTo, ...clock } = manualClock(options);
  return {
    ...clock,
    sleep(ms, signal) {
      clock.sleeps.push(ms);
      const wakeAt = clock.now() + Math.max(0, ms);
      return new Promise((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const timer = setImmediate(() => {
          signal?.removeEventListener('abort', onAbort);
          moveTo(wakeAt);
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

/**
 * A virtual clock where sleepers wake in the order of their wake times, one
 * moment at a time, and time stands still while the event loop has I/O to
 * do (a few turns between moments). So requests that take virtual time (the
 * sandbox's latency sleeps on this clock) overlap as they would in real time,
 * and two clients on it race as two computers would, at no real cost.
 */
export function scheduledTiming(
  options: { start?: number; random?: () => number; settleTurns?: number } = {},
): VirtualTiming {
  const { wakeAt: moveTo, ...clock } = manualClock(options);
  const settleTurns = options.settleTurns ?? 3;
  const waiting: { at: number; seq: number; wake: () => void }[] = [];
  let seq = 0;
  let driving = false;
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  const drive = async (): Promise<void> => {
    if (driving) return;
    driving = true;
    try {
      while (waiting.length > 0) {
        // Let pending I/O (loopback HTTP, file writes) run before time moves on.
        for (let i = 0; i < settleTurns; i++) await turn();
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (waiting.length === 0) break;
        waiting.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const at = waiting[0]!.at;
        moveTo(at);
        for (const sleeper of waiting.filter((w) => w.at <= at)) {
          waiting.splice(waiting.indexOf(sleeper), 1);
          sleeper.wake();
        }
      }
    } finally {
      driving = false;
    }
  };
  return {
    ...clock,
    sleep(ms, signal) {
      clock.sleeps.push(ms);
      return new Promise((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const sleeper = {
          at: clock.now() + Math.max(0, ms),
          seq: seq++,
          wake: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = (): void => {
          const index = waiting.indexOf(sleeper);
          if (index >= 0) waiting.splice(index, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(sleeper);
        void drive();
      });
    },
  };
}
