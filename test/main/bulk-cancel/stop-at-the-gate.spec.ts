// Stop means stop: a DELETE waiting at the key's gate (held for a minute by
// a 429) is dropped by Stop, Pause and quit, never sent when the hold ends;
// only the one already on its way can still land, and its answer is
// recorded. Found from outside: the CLI's Ctrl-C came at 13:12:50 and a
// DELETE waiting at the gate reached the service at 13:13:00 and cancelled
// the order. Counted at the server (the sandbox's request log).

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BulkJournal, replay } from '../../../src/main/bulk-cancel/journal.ts';
import { BulkCancelQueue } from '../../../src/main/bulk-cancel/queue.ts';
import { serviceScope } from '../../../src/main/environments/service-scope.ts';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import type { Timing } from '../../../src/main/store-api/clock.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';

let dir: string;
const sandboxes: Sandbox[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bulk-stop-'));
});
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

/** A clock that moves only when the test says: every sleeper waits for it. */
function manualTiming(start = Date.UTC(2026, 10, 22, 13, 12, 0)) {
  let now = start;
  const sleepers: { at: number; wake: () => void }[] = [];
  const timing: Timing = {
    now: () => now,
    random: () => 0.5,
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const sleeper = { at: now + Math.max(0, ms), wake: resolve };
        sleepers.push(sleeper);
        signal?.addEventListener(
          'abort',
          () => {
            const index = sleepers.indexOf(sleeper);
            if (index >= 0) sleepers.splice(index, 1);
            reject(signal.reason);
          },
          { once: true },
        );
      }),
  };
  const turns = async (n = 20) => {
    for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
  };
  return {
    timing,
    turns,
    /** Sets the clock without waking anyone (wakeDue does). */
    jumpTo(at: number) {
      now = at;
    },
    /** Wakes the sleepers whose time has come, at once (no I/O in between). */
    wakeDue() {
      for (const sleeper of sleepers.filter((s) => s.at <= now)) {
        sleepers.splice(sleepers.indexOf(sleeper), 1);
        sleeper.wake();
      }
      return Promise.resolve();
    },
    /** Moves the clock on by `ms`, waking each sleeper at its time (and letting I/O run). */
    async advance(ms: number) {
      const until = now + ms;
      for (;;) {
        await turns();
        sleepers.sort((a, b) => a.at - b.at);
        const next = sleepers[0];
        if (!next || next.at > until) break;
        sleepers.shift();
        now = Math.max(now, next.at);
        next.wake();
      }
      now = until;
      await turns();
    },
  };
}

async function setup() {
  const clock = manualTiming();
  let holdAnswer: Promise<void> | undefined;
  let releaseAnswer: () => void = () => undefined;
  /** When each request reached the sandbox (its log has a request once it is answered). */
  const arrivals: number[] = [];
  const sandbox = await startSandbox({
    port: 0,
    orders: 40,
    now: clock.timing.now,
    // Every answer is held back a moment (latency 1 ms); the test can hold the first one longer.
    faults: 'latency=1@1',
    sleep: () => {
      arrivals.push(clock.timing.now());
      return holdAnswer ?? Promise.resolve();
    },
  });
  sandboxes.push(sandbox);
  const gate = new RequestGate({ timing: clock.timing });
  const client = new StoreClient({
    baseUrl: sandbox.baseUrl,
    getKey: () => 'demo-pro',
    gate,
    budget: new RetryBudget(clock.timing.now),
    timing: clock.timing,
  });
  const journal = new BulkJournal(dir, serviceScope('sandbox'));
  const queue = new BulkCancelQueue({
    environment: 'sandbox',
    journal,
    client: async () => client,
    timing: clock.timing,
    concurrency: 2,
  });
  const holdNextAnswer = () => {
    holdAnswer = new Promise<void>((resolve) => (releaseAnswer = resolve));
  };
  return {
    clock,
    arrivals,
    sandbox,
    gate,
    queue,
    journal,
    holdNextAnswer,
    releaseAnswer: () => {
      holdAnswer = undefined;
      releaseAnswer();
    },
  };
}

const deletes = (sandbox: Sandbox) => sandbox.requestLog.filter((r) => r.method === 'DELETE');

/** Waits (a bound for a busy machine) until `done` holds, letting I/O run. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > deadline)
      throw new Error('the queue never reached the point the test waits for');
    await new Promise((r) => setTimeout(r, 2));
  }
}

const sentInJournal = async (journal: BulkJournal) =>
  [...replay(await journal.read())!.items.values()].filter((state) => state === 'sent').length;

describe('a bulk cancel stopped while its DELETEs wait at a held gate', () => {
  for (const how of ['stop', 'pause', 'quit'] as const) {
    it(`${how}: nothing is sent after it, the DELETE already on its way is recorded`, async () => {
      const { clock, arrivals, sandbox, gate, queue, journal, holdNextAnswer, releaseAnswer } =
        await setup();
      const [first, ...rest] = sandbox.orderIds({ status: 'pending' }).slice(0, 6);
      // The first DELETE goes (nothing is known of the quota yet, so it goes alone) and its answer is held.
      holdNextAnswer();
      await queue.start([first!, ...rest]);
      await until(() => arrivals.length === 1);
      // Meanwhile a gateway's 429 (to another process sharing the key) holds the gate for a minute.
      gate.hold(clock.timing.now() + 60_000, 'gateway-429');
      // The second worker's DELETE is journaled as sent and waits at the gate.
      await until(async () => (await sentInJournal(journal)) === 2);
      await clock.turns();

      await clock.advance(30_000);
      // The hold ends the very moment the clerk stops (before the journal has taken the stop).
      clock.jumpTo(clock.timing.now() + 30_000);
      const stoppedAt = clock.timing.now();
      const stopped =
        how === 'stop' ? queue.stop() : how === 'pause' ? queue.pause() : queue.pauseForShutdown();
      await clock.wakeDue();
      // The one on its way answers after the stop, and is recorded. The hold ends, and a minute
      // more passes: nothing leaves.
      releaseAnswer();
      await clock.advance(90_000);
      await stopped;
      await queue.idle();

      expect(arrivals.filter((at) => at >= stoppedAt)).toHaveLength(0);
      expect(arrivals).toHaveLength(1);
      expect(deletes(sandbox)).toHaveLength(1);
      expect(sandbox.orderStatus(first!)).toBe('cancelled');
      expect(rest.every((id) => sandbox.orderStatus(id) === 'pending')).toBe(true);
      expect(queue.results()).toMatchObject([{ orderId: first, outcome: 'cancelled' }]);
      // The order that waited at the gate is back in the queue, not left as sent with an unknown answer.
      expect(await sentInJournal(journal)).toBe(0);
      expect(replay(await journal.read())!.items.get(first!)).toBe('done');
    });
  }
});
