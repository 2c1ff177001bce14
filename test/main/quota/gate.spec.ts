import { describe, expect, it } from 'vitest';
import { HeldBackError, RequestGate, RESUME_JITTER_MS } from '../../../src/main/quota/gate.ts';
import { virtualTiming } from '../../support/virtual-timing.ts';

function setup() {
  const timing = virtualTiming();
  const gate = new RequestGate({ timing, maxInFlight: 4 });
  return { timing, gate };
}

describe('RequestGate', () => {
  it('lets one request find out the quota before others follow', async () => {
    const { gate, timing } = setup();
    const first = await gate.acquire({ maxWaitMs: 1000 });
    let secondIn = false;
    const second = gate.acquire({ maxWaitMs: 1000 }).then((t) => {
      secondIn = true;
      return t;
    });
    await new Promise((r) => setImmediate(r));
    expect(secondIn).toBe(false);
    first.release({ limit: 60, remaining: 59, resetAt: timing.now() + 60_000 });
    (await second).release();
    expect(secondIn).toBe(true);
    expect(gate.snapshot()).toMatchObject({ known: true, limit: 60, remaining: 59 });
  });

  it('fails fast past the longest inline wait and stays shut', async () => {
    const { gate, timing } = setup();
    gate.hold(timing.now() + 60_000, 'server-429');
    const attempt = gate.acquire({ maxWaitMs: 5_000 });
    await expect(attempt).rejects.toBeInstanceOf(HeldBackError);
    await expect(attempt).rejects.toMatchObject({
      retryAt: timing.now() + 60_000,
      reason: 'server-429',
    });
    expect(gate.openAt().at).toBe(timing.now() + 60_000);
  });

  it('after a short hold, lets the waiters go one at a time, each after a random pause, until an answer shows the quota', async () => {
    const { gate, timing } = setup();
    const start = timing.now();
    const t0 = await gate.acquire({ maxWaitMs: 0 });
    t0.release({ limit: 60, remaining: 30, resetAt: start + 60_000 });
    gate.hold(start + 2_000, 'server-429');
    const out: number[] = [];
    const waiters = Array.from({ length: 3 }, (_, i) =>
      gate.acquire({ maxWaitMs: 5_000 }).then((ticket) => {
        out.push(i);
        return ticket;
      }),
    );
    const first = await waiters[0]!;
    // One timer for the hold, then the pause (virtual random 0.5: half the jitter).
    expect(timing.now()).toBe(start + 2_000 + 0.5 * RESUME_JITTER_MS);
    expect(timing.sleeps).toEqual([2_000, 0.5 * RESUME_JITTER_MS]);
    await new Promise((r) => setImmediate(r));
    expect(out).toEqual([0]);
    // An answer without the quota (a lost one) keeps the gate resuming: the next goes alone, after a pause.
    first.release();
    const second = await waiters[1]!;
    expect(out).toEqual([0, 1]);
    // The service's answer shows the quota: the rest go at the pace it allows.
    second.release({ limit: 60, remaining: 28, resetAt: start + 60_000 });
    const sleeps = timing.sleeps.length;
    (await waiters[2]!).release();
    expect(timing.sleeps).toHaveLength(sleeps);
  });

  it('never lets more requests out than Remaining', async () => {
    const { gate, timing } = setup();
    const t0 = await gate.acquire({ maxWaitMs: 0 });
    t0.release({ limit: 60, remaining: 2, resetAt: timing.now() + 10_000 });
    const a = await gate.acquire({ maxWaitMs: 0 });
    const b = await gate.acquire({ maxWaitMs: 0 });
    expect(gate.inFlight).toBe(2);
    let thirdIn = false;
    const third = gate.acquire({ maxWaitMs: 20_000 }).then((t) => {
      thirdIn = true;
      return t;
    });
    a.release({ limit: 60, remaining: 1, resetAt: timing.now() + 10_000 });
    b.release({ limit: 60, remaining: 0, resetAt: timing.now() + 10_000 });
    const before = timing.now();
    (await third).release();
    expect(thirdIn).toBe(true);
    // At the reset, and a random pause after it (virtual random 0.5), so clients sharing the key spread out.
    expect(timing.now() - before).toBe(10_000 + 0.5 * RESUME_JITTER_MS);
  });

  it('serves interactive requests before background ones', async () => {
    const { gate, timing } = setup();
    gate.hold(timing.now() + 1_000, 'server-429');
    const order: string[] = [];
    const bg = gate.acquire({ maxWaitMs: 5_000, priority: 'background' }).then((t) => {
      order.push('background');
      t.release();
    });
    const fg = gate.acquire({ maxWaitMs: 5_000, priority: 'interactive' }).then((t) => {
      order.push('interactive');
      t.release();
    });
    await Promise.all([bg, fg]);
    expect(order).toEqual(['interactive', 'background']);
  });

  it('keeps a reserve of each window for interactive requests', async () => {
    const { gate, timing } = setup();
    const t0 = await gate.acquire({ maxWaitMs: 0 });
    // 60 a minute: background leaves 2 (2%, at least 1) for the clerk.
    t0.release({ limit: 60, remaining: 3, resetAt: timing.now() + 30_000 });
    const bg = await gate.acquire({ maxWaitMs: 60_000, priority: 'background' });
    bg.release({ limit: 60, remaining: 2, resetAt: timing.now() + 30_000 });
    let backgroundIn = false;
    const waiting = gate.acquire({ maxWaitMs: 60_000, priority: 'background' }).then((t) => {
      backgroundIn = true;
      t.release();
    });
    const interactive = await gate.acquire({ maxWaitMs: 0 });
    expect(backgroundIn).toBe(false);
    interactive.release({ limit: 60, remaining: 1, resetAt: timing.now() + 30_000 });
    const start = timing.now();
    await waiting;
    expect(timing.now() - start).toBe(30_000);
  });

  it('rejects waiters whose patience a new, longer hold exceeds', async () => {
    const { gate, timing } = setup();
    gate.hold(timing.now() + 1_000, 'server-429');
    const waiting = gate.acquire({ maxWaitMs: 5_000 });
    gate.hold(timing.now() + 600_000, 'banned');
    await expect(waiting).rejects.toMatchObject({ reason: 'banned' });
  });

  it('ignores answers from a window that has closed', async () => {
    const { gate, timing } = setup();
    const t = await gate.acquire({ maxWaitMs: 0 });
    t.release({ limit: 60, remaining: 50, resetAt: timing.now() + 60_000 });
    const late = await gate.acquire({ maxWaitMs: 0 });
    late.release({ limit: 60, remaining: 58, resetAt: timing.now() - 5_000 });
    expect(gate.snapshot().remaining).toBe(50);
  });

  it('stops waiting when the caller aborts', async () => {
    const { gate, timing } = setup();
    gate.hold(timing.now() + 1_000, 'server-429');
    const controller = new AbortController();
    const waiting = gate.acquire({ maxWaitMs: 5_000, signal: controller.signal });
    controller.abort(new Error('user stopped'));
    await expect(waiting).rejects.toThrow('user stopped');
  });
});

describe('RequestGate: bounds and "Try now"', () => {
  it('never holds longer than a day, whatever it is told', () => {
    const { gate, timing } = setup();
    gate.hold(1e23, 'server-429');
    expect(gate.openAt().at).toBeLessThanOrEqual(timing.now() + 24 * 3_600_000 + 600_000);
    gate.hold(Number.NaN, 'banned');
    expect(Number.isFinite(gate.snapshot().holdUntil)).toBe(true);
    expect(gate.snapshot().holdReason).toBe('server-429');
  });

  it('lets exactly one request the clerk confirmed through a hold, and no other', async () => {
    const { gate, timing } = setup();
    const t0 = await gate.acquire({ maxWaitMs: 0 });
    t0.release({ limit: 60, remaining: 20, resetAt: timing.now() + 60_000 });
    gate.hold(timing.now() + 3_600_000, 'server-429');
    await expect(gate.acquire({ maxWaitMs: 5_000 })).rejects.toBeInstanceOf(HeldBackError);
    const first = await gate.acquire({ maxWaitMs: 5_000, throughHold: true });
    let secondIn = false;
    const second = gate.acquire({ maxWaitMs: 5_000, throughHold: true }).then((t) => {
      secondIn = true;
      return t;
    });
    // (A macrotask would let the virtual clock run to the hold's end.)
    await new Promise((r) => process.nextTick(r));
    expect(secondIn).toBe(false);
    // The service answered without a 429: the hold is over, and the figures are its word now.
    first.release({ limit: 60, remaining: 19, resetAt: timing.now() + 60_000 });
    expect(gate.snapshot().holdUntil).toBeUndefined();
    expect(gate.snapshot().remaining).toBe(19);
    (await second).release({ limit: 60, remaining: 18, resetAt: timing.now() + 60_000 });
    // Paced as usual again.
    (await gate.acquire({ maxWaitMs: 0 })).release();
  });

  it('keeps the hold when the request through it gets no answer', async () => {
    const { gate, timing } = setup();
    gate.hold(timing.now() + 3_600_000, 'banned');
    const ticket = await gate.acquire({ maxWaitMs: 0, throughHold: true });
    ticket.release();
    expect(gate.openAt()).toEqual({ at: timing.now() + 3_600_000, reason: 'banned' });
  });
});
