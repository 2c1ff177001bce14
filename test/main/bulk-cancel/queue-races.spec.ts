// What a bulk cancel does when the clerk's pause, stop or a quit comes while
// DELETEs are on their way, and when two answers come at once: against a
// loopback server that holds each DELETE until the test lets it go, so the
// interleaving is chosen, not hoped for. Waits end on the virtual clock, or
// never (a wait the queue should not be in), never on the wall clock.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BulkCancelSnapshot, BulkResult } from '../../../src/shared/bulk-cancel.ts';
import { BulkJournal, replay } from '../../../src/main/bulk-cancel/journal.ts';
import { BulkCancelQueue, type BulkCancelDeps } from '../../../src/main/bulk-cancel/queue.ts';
import { serviceScope } from '../../../src/main/environments/service-scope.ts';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import type { Timing } from '../../../src/main/store-api/clock.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { answer, scriptedServer, type ScriptedServer } from '../../support/scripted-server.ts';
import { virtualTiming } from '../../support/virtual-timing.ts';

let dir: string;
const servers: ScriptedServer[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bulk-races-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await rm(dir, { recursive: true, force: true });
});

/** Macrotask turns, a bounded number, until `done` holds. */
async function turnsUntil(done: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 500; turn++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`never: ${what}`);
}

/**
 * The virtual clock, except that a wait of 10 s or more never ends unless it
 * is called off: a queue found in such a wait is stuck there.
 */
function withoutLongWaits(timing: Timing): Timing {
  return {
    ...timing,
    sleep: (ms, signal) =>
      ms < 10_000
        ? timing.sleep(ms, signal)
        : new Promise((_resolve, reject) =>
            signal?.addEventListener('abort', () => reject(signal.reason as Error), {
              once: true,
            }),
          ),
  };
}

/**
 * A store whose first DELETE (order 0) is answered at once with the quota
 * (the gate sends one request alone until it knows it); every other waits in
 * `held` until the test answers it.
 */
async function heldStore(timing: Timing) {
  const held: ServerResponse[] = [];
  const server = await scriptedServer((_req, res, index) => {
    if (index > 0) return void held.push(res);
    answer(res, 204, undefined, {
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '999',
      'x-ratelimit-reset': String(Math.floor(timing.now() / 1000) + 60),
    });
  });
  servers.push(server);
  return { server, held };
}

function queueOn(
  server: ScriptedServer,
  timing: Timing,
  extra: Partial<BulkCancelDeps> = {},
): { queue: BulkCancelQueue; journal: BulkJournal } {
  const client = new StoreClient({
    baseUrl: server.baseUrl,
    getKey: () => 'test-key-0123456789',
    gate: new RequestGate({ timing }),
    budget: new RetryBudget(timing.now),
    timing,
    maxRetries: 0,
    max429Retries: 0,
  });
  const journal = new BulkJournal(dir, serviceScope('sandbox'));
  const queue = new BulkCancelQueue({
    environment: 'sandbox',
    journal,
    client: async () => client,
    timing,
    concurrency: 2,
    offlineRetryMs: 1_000,
    ...extra,
  });
  return { queue, journal };
}

describe('a bulk cancel and what comes while its DELETEs are on their way', () => {
  it('the clerk pauses, then the DELETEs in flight find the service gone: still the clerk’s pause, never resumed by itself', async () => {
    const timing = virtualTiming();
    const { server, held } = await heldStore(timing);
    const { queue } = queueOn(server, timing);
    await queue.start(['0', '1', '2', '3', '4']);
    await turnsUntil(() => held.length === 2, 'two DELETEs in flight');

    await queue.pause('user');
    // Their connections are cut: no answer, and (without the app's state) the service counts as gone.
    for (const res of held.splice(0)) res.socket?.destroy();
    await queue.idle();
    expect(queue.snapshot()).toMatchObject({ status: 'paused', pauseReason: 'user' });

    // Long past the queue's own "try again by itself" time: nothing more was sent.
    await timing.sleep(60_000);
    await turnsUntil(() => true, 'a turn');
    await queue.idle();
    expect(queue.snapshot()).toMatchObject({ status: 'paused', pauseReason: 'user' });
    expect(server.requests).toHaveLength(3);
  });

  it('Stop while a DELETE is on its way that is then answered 429: the job is over at once, not after the wait', async () => {
    const timing = withoutLongWaits(virtualTiming());
    const { server, held } = await heldStore(timing);
    const { queue } = queueOn(server, timing);
    await queue.start(['0', '1', '2', '3']);
    await turnsUntil(() => held.length === 2, 'two DELETEs in flight');

    await queue.stop();
    for (const res of held.splice(0))
      answer(res, 429, { code: 429, message: 'Too many requests' }, { 'retry-after': '3600' });
    let idle = false;
    void queue.idle().then(() => (idle = true));
    await turnsUntil(() => idle, 'the stopped job idle');
    // Over: it can be put away, and a new job can start.
    await queue.dismiss();
    expect(queue.snapshot()).toMatchObject({ status: 'stopped', dismissed: true });
    // The two sent orders were refused without being acted on: not sent, with the third.
    expect(queue.snapshot()!.counts.waiting).toBe(3);
  });

  it('a quit while a DELETE is on its way that is then answered 429: the quit is not held up by the wait', async () => {
    const timing = withoutLongWaits(virtualTiming());
    const { server, held } = await heldStore(timing);
    const { queue } = queueOn(server, timing);
    await queue.start(['0', '1', '2', '3']);
    await turnsUntil(() => held.length === 2, 'two DELETEs in flight');

    let quit = false;
    void queue.pauseForShutdown().then(() => (quit = true));
    for (const res of held.splice(0))
      answer(res, 429, { code: 429, message: 'Too many requests' }, { 'retry-after': '3600' });
    await turnsUntil(() => quit, 'the quit done');
  });

  it('two answers at once: the cancel log gets them one at a time, in the journal’s order, each once, before the job reads finished', async () => {
    const timing = virtualTiming();
    const { server, held } = await heldStore(timing);
    const logged: BulkResult[] = [];
    let writing = 0;
    let mostAtOnce = 0;
    let letFirstFinish: (() => void) | undefined;
    const { queue, journal } = queueOn(server, timing, {
      onResult: async (result) => {
        writing += 1;
        mostAtOnce = Math.max(mostAtOnce, writing);
        // The first write is slow (a busy disk): the second answer comes meanwhile.
        if (result.orderId === '1')
          await new Promise<void>((resolve) => (letFirstFinish = resolve));
        logged.push(result);
        writing -= 1;
      },
    });
    await queue.start(['0', '1', '2']);
    await turnsUntil(() => held.length === 2, 'two DELETEs in flight');
    answer(held[0]!, 204);
    await turnsUntil(() => letFirstFinish !== undefined, 'the first result at the log');
    answer(held[1]!, 204);
    // The second answer is journaled while the first is still being logged.
    await turnsUntil(() => queue.results().length === 3, 'both results journaled');
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setTimeout(resolve, 2));
    expect(writing).toBe(1);
    // Every answer is journaled, but not yet in the cancel log: the job does not read finished.
    expect(queue.snapshot()?.status).toBe('running');
    letFirstFinish!();
    await queue.idle();
    expect(queue.snapshot()?.status).toBe('finished');

    expect(mostAtOnce).toBe(1);
    const journaled = replay(await journal.read())!.results.map((result) => result.orderId);
    expect(logged.map((result) => result.orderId)).toEqual(journaled);
    expect(new Set(journaled)).toEqual(new Set(['0', '1', '2']));
  });

  it('after Stop, an answer lost on its way is in the cancel log before the job stops counting it on its way', async () => {
    const timing = virtualTiming();
    const { server, held } = await heldStore(timing);
    let letLogFinish: (() => void) | undefined;
    const logged: string[] = [];
    const snapshots: BulkCancelSnapshot[] = [];
    const { queue } = queueOn(server, timing, {
      onChange: (snapshot) => snapshots.push(snapshot),
      // The log's write of what stayed unanswered is slow (a busy disk).
      logJournaled: async (results) => {
        await new Promise<void>((resolve) => (letLogFinish = resolve));
        logged.push(...results.map((result) => result.orderId));
      },
    });
    await queue.start(['0', '1', '2', '3']);
    await turnsUntil(() => held.length === 2, 'two DELETEs in flight');
    await queue.stop();
    // Both connections are cut after the service got the DELETEs: their answers are lost.
    for (const res of held.splice(0)) res.socket?.destroy();
    await turnsUntil(() => letLogFinish !== undefined, 'a lost answer at the log');
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setTimeout(resolve, 2));
    const settled = (snapshot: BulkCancelSnapshot | undefined) =>
      snapshot?.status === 'stopped' && snapshot.answersOnTheirWay === 0;
    // While the log is being written, the job does not read as settled.
    expect(settled(queue.snapshot())).toBe(false);
    while (letLogFinish) {
      const finish = letLogFinish;
      letLogFinish = undefined;
      finish();
      for (let turn = 0; turn < 20 && !letLogFinish; turn++)
        await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await queue.idle();
    expect(queue.snapshot()).toMatchObject({ unanswered: 2, unansweredLogged: 2 });
    expect(logged.sort()).toEqual(['1', '2']);
    // No change told of a settled job whose unanswered cancels were not all logged.
    for (const snapshot of snapshots.filter(settled))
      expect(snapshot.unansweredLogged ?? 0).toBe(snapshot.unanswered);
  });
});
