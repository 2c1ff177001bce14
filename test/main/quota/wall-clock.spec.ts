// The gate's holds are judged by the wall clock, not by a timer's remaining
// time: a timer counts only the time the computer was awake (Node's timers
// run on the monotonic clock, which stands still while the machine sleeps),
// so after a sleep, or the clock set forward, a hold that the clock says has
// ended must let requests go within seconds, not after the timer's full wait.

import { describe, expect, it } from 'vitest';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { sleepUntil, WALL_CLOCK_LOOK_MS, type Timing } from '../../../src/main/store-api/clock.ts';

/**
 * Two clocks, as a computer has them: the wall clock (`now`) and the time it
 * was awake, which timers count. `suspend` moves only the wall clock (the
 * machine slept, or its clock was set forward); `run` moves both and wakes
 * the sleepers whose awake time has passed.
 */
function twoClocks(start = Date.UTC(2026, 10, 22, 12, 0, 0)) {
  let wall = start;
  let awake = 0;
  const sleepers: { at: number; wake: () => void }[] = [];
  const timing: Timing = {
    now: () => wall,
    random: () => 0.5,
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        const sleeper = { at: awake + Math.max(0, ms), wake: resolve };
        sleepers.push(sleeper);
        signal?.addEventListener(
          'abort',
          () => {
            sleepers.splice(sleepers.indexOf(sleeper), 1);
            reject(signal.reason);
          },
          { once: true },
        );
      }),
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    timing,
    suspend(ms: number) {
      wall += ms;
    },
    async run(ms: number) {
      const until = awake + ms;
      for (;;) {
        await settle();
        sleepers.sort((a, b) => a.at - b.at);
        const next = sleepers[0];
        if (!next || next.at > until) break;
        sleepers.shift();
        wall += next.at - awake;
        awake = next.at;
        next.wake();
      }
      wall += until - awake;
      awake = until;
      await settle();
    },
  };
}

describe('holds judged by the wall clock', () => {
  it('lets a request go within seconds of waking from a sleep that outlasted a minute’s hold', async () => {
    const clocks = twoClocks();
    const gate = new RequestGate({ timing: clocks.timing });
    const start = clocks.timing.now();
    gate.hold(start + 60_000, 'server-429');
    let sentAt: number | undefined;
    const waiting = gate.acquire({ maxWaitMs: 120_000 }).then((ticket) => {
      sentAt = clocks.timing.now();
      return ticket;
    });
    await clocks.run(1_000);
    // The lid is closed for an hour: the timer does not run, the wall clock does.
    clocks.suspend(3_600_000);
    await clocks.run(WALL_CLOCK_LOOK_MS + 1_000);
    expect(sentAt).toBeDefined();
    // Within one look of waking (plus the pause after a hold), not 59 s of awake time later.
    expect(sentAt! - (start + 1_000 + 3_600_000)).toBeLessThanOrEqual(WALL_CLOCK_LOOK_MS + 1_000);
    (await waiting).release();
  });

  it('lets a request go when the clock is set forward past the hold', async () => {
    const clocks = twoClocks();
    const gate = new RequestGate({ timing: clocks.timing });
    gate.hold(clocks.timing.now() + 10 * 60_000, 'banned');
    let sent = false;
    const waiting = gate.acquire({ maxWaitMs: 20 * 60_000 }).then((ticket) => {
      sent = true;
      return ticket;
    });
    await clocks.run(2_000);
    expect(sent).toBe(false);
    clocks.suspend(10 * 60_000); // the clock jumps forward (a correction, a time zone fixed by hand)
    await clocks.run(WALL_CLOCK_LOOK_MS + 1_000);
    expect(sent).toBe(true);
    (await waiting).release();
  });

  it('keeps a hold the clock says is still on, however many looks it takes', async () => {
    const clocks = twoClocks();
    const gate = new RequestGate({ timing: clocks.timing });
    const start = clocks.timing.now();
    gate.hold(start + 30_000, 'server-429');
    let sentAt: number | undefined;
    const waiting = gate.acquire({ maxWaitMs: 60_000 }).then((ticket) => {
      sentAt = clocks.timing.now();
      return ticket;
    });
    await clocks.run(29_000);
    expect(sentAt).toBeUndefined();
    await clocks.run(10_000);
    expect(sentAt).toBeGreaterThanOrEqual(start + 30_000);
    (await waiting).release();
  });

  it('sleepUntil ends by the wall clock too (the bulk cancel waits for a hold’s end with it)', async () => {
    const clocks = twoClocks();
    const start = clocks.timing.now();
    let woke: number | undefined;
    void sleepUntil(clocks.timing, start + 5 * 60_000).then(() => (woke = clocks.timing.now()));
    await clocks.run(1_000);
    clocks.suspend(10 * 60_000);
    await clocks.run(WALL_CLOCK_LOOK_MS);
    expect(woke).toBeDefined();
    expect(woke! - (start + 1_000 + 10 * 60_000)).toBeLessThanOrEqual(WALL_CLOCK_LOOK_MS);
  });
});
