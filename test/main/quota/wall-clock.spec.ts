// The gate's holds are judged by the wall clock, not by a timer's remaining
// time: a timer counts only the time the computer was awake (Node's timers
// run on the monotonic clock, which stands still while the machine sleeps),
// so after a sleep, or the clock set forward, a hold that the clock says has
// ended must let requests go within seconds, not after the timer's full wait.
// A clock set back must not lengthen a hold by the jump: what remains of it
// is what remained when it was last seen running.

import { describe, expect, it } from 'vitest';
import { HOLD_SEEN_EVERY_MS, sanitizeRecord } from '../../../src/main/quota/gate-record.ts';
import { RequestGate, RESUME_JITTER_MS } from '../../../src/main/quota/gate.ts';
import { MemoryGateStore } from '../../../src/main/quota/gate-store.ts';
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
    /** The clock is set back (a correction, a time zone fixed by hand, a bad RTC after a reboot). */
    setBack(ms: number) {
      wall -= ms;
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

  it('does not lengthen a hold when the clock is set back: the request goes when what was left of it has passed', async () => {
    const clocks = twoClocks();
    const gate = new RequestGate({ timing: clocks.timing });
    const start = clocks.timing.now();
    gate.hold(start + 60_000, 'server-429');
    let sentAfter: number | undefined; // awake time, which no clock change moves
    let awake = 0;
    const waiting = gate.acquire({ maxWaitMs: 2 * 3_600_000 }).then((ticket) => {
      sentAfter = awake;
      return ticket;
    });
    await clocks.run(20_000);
    awake += 20_000;
    clocks.setBack(3_600_000); // an hour back, 40 s before the hold's end
    // What the meter shows: 40 s left (a look's worth at most more), not an hour and 40 s.
    expect(gate.openAt().at - clocks.timing.now()).toBeLessThanOrEqual(40_000 + HOLD_SEEN_EVERY_MS);
    expect(gate.view().holdUntil! - clocks.timing.now()).toBeLessThanOrEqual(
      40_000 + HOLD_SEEN_EVERY_MS,
    );
    for (let step = 0; step < 20 && sentAfter === undefined; step++) {
      await clocks.run(5_000);
      awake += 5_000;
    }
    expect(sentAfter).toBeDefined();
    expect(sentAfter!).toBeGreaterThanOrEqual(55_000 - HOLD_SEEN_EVERY_MS);
    expect(sentAfter!).toBeLessThanOrEqual(
      60_000 + HOLD_SEEN_EVERY_MS + WALL_CLOCK_LOOK_MS + RESUME_JITTER_MS,
    );
    (await waiting).release();
  });

  it('a request asked for after the clock was set back waits what was left, not the jump (no "held until" days away)', async () => {
    const clocks = twoClocks();
    const gate = new RequestGate({ timing: clocks.timing });
    gate.hold(clocks.timing.now() + 60_000, 'gateway-429');
    await clocks.run(30_000);
    gate.view(); // the quota meter looks: the hold is seen running, 30 s left
    clocks.setBack(2 * 86_400_000); // two days back: more than the longest hold there can be
    const open = gate.openAt();
    expect(open.reason).toBe('gateway-429');
    expect(open.at - clocks.timing.now()).toBe(30_000);
    // A request that may wait a minute waits, rather than being turned away for two days.
    let sent = false;
    const waiting = gate.acquire({ maxWaitMs: 60_000 }).then((ticket) => {
      sent = true;
      return ticket;
    });
    await clocks.run(30_000 + WALL_CLOCK_LOOK_MS + RESUME_JITTER_MS);
    expect(sent).toBe(true);
    (await waiting).release();
  });

  it('with nobody looking before the clock went back, a hold ends no later than its own length from then', async () => {
    const clocks = twoClocks();
    const gate = new RequestGate({ timing: clocks.timing });
    gate.hold(clocks.timing.now() + 60_000, 'server-429');
    await clocks.run(30_000); // nothing waits, nothing looks
    clocks.setBack(3_600_000);
    const left = gate.openAt().at - clocks.timing.now();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(60_000);
  });

  it('moves a shared hold back once, whichever of the processes sharing it sees the jump first', async () => {
    const clocks = twoClocks();
    const store = new MemoryGateStore();
    const app = new RequestGate({ timing: clocks.timing, store });
    const cli = new RequestGate({ timing: clocks.timing, store });
    app.hold(clocks.timing.now() + 60_000, 'server-429');
    await clocks.run(20_000);
    expect(cli.openAt().reason).toBe('server-429');
    clocks.setBack(3_600_000);
    const seenByApp = app.openAt().at - clocks.timing.now();
    const seenByCli = cli.openAt().at - clocks.timing.now();
    expect(seenByCli).toBe(seenByApp);
    expect(seenByApp).toBeGreaterThan(0); // not moved twice: the hold is still on
    expect(seenByApp).toBeLessThanOrEqual(40_000 + HOLD_SEEN_EVERY_MS);
  });

  it('a hold read back from a file after the clock was set back is moved back with it, never dropped', () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    const seen = now + 3 * 86_400_000; // last seen running three days "ahead" of the clock now
    const record = sanitizeRecord(
      {
        snapshot: { known: true, holdUntil: seen + 45_000, holdReason: 'banned' },
        holdSeenAt: seen,
        leases: [],
      },
      now,
    );
    expect(record.snapshot).toMatchObject({ holdUntil: now + 45_000, holdReason: 'banned' });
    expect(record.holdSeenAt).toBe(now);
  });

  it('sleepUntil does not wait longer when the clock is set back', async () => {
    const clocks = twoClocks();
    const start = clocks.timing.now();
    let awake = 0;
    let wokeAfter: number | undefined;
    void sleepUntil(clocks.timing, start + 60_000).then(() => (wokeAfter = awake));
    await clocks.run(20_000);
    awake += 20_000;
    clocks.setBack(3_600_000);
    for (let step = 0; step < 20 && wokeAfter === undefined; step++) {
      await clocks.run(5_000);
      awake += 5_000;
    }
    expect(wokeAfter).toBeDefined();
    expect(wokeAfter!).toBeLessThanOrEqual(60_000 + WALL_CLOCK_LOOK_MS);
  });
});
