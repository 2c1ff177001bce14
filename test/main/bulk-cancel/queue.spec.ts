import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BulkJournal, replay } from '../../../src/main/bulk-cancel/journal.ts';
import { serviceScope } from '../../../src/main/environments/service-scope.ts';
import { BulkCancelQueue } from '../../../src/main/bulk-cancel/queue.ts';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import {
  startSandbox,
  type Sandbox,
  type SandboxOptions,
} from '../../../src/main/sandbox/server.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';
import type { BulkCancelSnapshot } from '../../../src/shared/bulk-cancel.ts';
import { virtualTiming } from '../../support/virtual-timing.ts';

let dir: string;
const sandboxes: Sandbox[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bulk-'));
});
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function setup(options: SandboxOptions, key = 'demo-free') {
  const timing = virtualTiming({ start: Date.UTC(2026, 10, 22, 9, 0, 0) });
  const sandbox = await startSandbox({ port: 0, now: timing.now, ...options });
  sandboxes.push(sandbox);
  const gate = new RequestGate({ timing });
  const client = new StoreClient({
    baseUrl: sandbox.baseUrl,
    getKey: () => key,
    gate,
    budget: new RetryBudget(timing.now),
    timing,
  });
  const journal = new BulkJournal(dir, serviceScope('sandbox'));
  const changes: BulkCancelSnapshot[] = [];
  const queue = new BulkCancelQueue({
    environment: 'sandbox',
    journal,
    client: async () => client,
    timing,
    onChange: (snapshot) => changes.push(snapshot),
  });
  gate.onChange((quota) => queue.observeQuota(quota));
  return { timing, sandbox, client, queue, journal, changes };
}

/** Waits, by turns of the event loop (bounded), until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let turn = 0; !done(); turn++) {
    if (turn > 5000) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

describe('BulkCancelQueue', () => {
  it('cancels 500 orders on the Free plan with no 429, at 95% or more of the allowed rate, answering a refresh in between', async () => {
    const { sandbox, client, queue, timing } = await setup({ orders: 1400 });
    const pending = sandbox.orderIds({ status: 'pending' }).slice(0, 460);
    const shipped = sandbox.orderIds({ status: 'shipped' }).slice(0, 30);
    const missing = Array.from({ length: 10 }, (_, i) => String(900_000 + i));
    const ids = [...pending, ...shipped, ...missing];
    expect(ids).toHaveLength(500);

    let refresh: { startedAt: number; doneAt: number } | undefined;
    let refreshing: Promise<unknown> | undefined;
    queue.observeQuota({ known: false });
    const started = queue.start(ids);
    // Once a fifth is done, the clerk refreshes the list: it must not wait behind the queue.
    const watch = setInterval(() => {
      if (!refreshing && queue.results().length >= 100) {
        const startedAt = timing.now();
        refreshing = client
          .listOrders()
          .then(() => (refresh = { startedAt, doneAt: timing.now() }));
      }
    }, 1);
    await started;
    await queue.idle();
    clearInterval(watch);
    await refreshing;

    const snapshot = queue.snapshot()!;
    expect(snapshot.status).toBe('finished');
    expect(snapshot.counts).toEqual({
      cancelled: 460,
      'already-shipped': 30,
      'not-found': 10,
      gone: 0,
      failed: 0,
      waiting: 0,
    });
    expect(sandbox.requestLog.filter((r) => r.status === 429)).toHaveLength(0);
    expect(pending.every((id) => sandbox.orderStatus(id) === 'cancelled')).toBe(true);
    // The refresh was answered in the window it was asked in, from the reserve.
    expect(refresh).toBeDefined();
    expect(refresh!.doneAt - refresh!.startedAt).toBeLessThan(60_000);

    // Rate: DELETEs per full one-minute window, against the 60 allowed.
    const perWindow = new Map<number, number>();
    for (const entry of sandbox.requestLog.filter((r) => r.method === 'DELETE')) {
      const window = Math.floor(entry.at / 60_000);
      perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
    }
    const full = [...perWindow.entries()]
      .sort(([a], [b]) => a - b)
      .slice(0, -1)
      .map(([, n]) => n);
    const achieved = full.reduce((a, b) => a + b, 0) / full.length / 60;
    expect(achieved).toBeGreaterThanOrEqual(0.95);
  });

  it('pauses, resumes and stops, and reports the ETA from the quota', async () => {
    const { sandbox, queue } = await setup({ orders: 300 });
    const ids = sandbox.orderIds({ status: 'pending' }).slice(0, 120);
    await queue.start(ids);
    await queue.pause();
    await queue.idle();
    const paused = queue.snapshot()!;
    expect(paused).toMatchObject({ status: 'paused', pauseReason: 'user' });
    const doneWhilePausing = paused.total - paused.counts.waiting;
    await queue.resume();
    // Once an answer has shown the quota (on a busy machine, later than on an idle one).
    await until(() => queue.snapshot()!.etaMs !== undefined);
    const running = queue.snapshot()!;
    expect(running.status).toBe('running');
    expect(running.etaMs).toBeGreaterThan(0);
    await queue.stop();
    await queue.idle();
    const stopped = queue.snapshot()!;
    expect(stopped.status).toBe('stopped');
    expect(stopped.counts.waiting).toBeGreaterThan(0);
    expect(stopped.total - stopped.counts.waiting).toBeGreaterThanOrEqual(doneWhilePausing);
    // Nothing is sent after the stop.
    const sent = sandbox.requestLog.length;
    await new Promise((r) => setTimeout(r, 20));
    expect(sandbox.requestLog.length).toBe(sent);
  });

  it('counts the answers still on their way after a pause or a stop, and says none once they have landed', async () => {
    // The service holds every DELETE until the test lets it answer.
    const held: (() => void)[] = [];
    const { sandbox, queue, changes } = await setup(
      {
        orders: 100,
        faults: 'latency=1@1',
        sleep: () => new Promise<void>((resolve) => held.push(resolve)),
      },
      'demo-pro',
    );
    const ids = sandbox.orderIds({ status: 'pending' }).slice(0, 6);
    await queue.start(ids);
    // The first answer shows the quota; then both workers' DELETEs are at the service.
    await until(() => held.length === 1);
    held.shift()!();
    await until(() => held.length === 2);
    expect(queue.snapshot()).toMatchObject({ status: 'running', answersOnTheirWay: 2 });

    await queue.pause();
    const paused = queue.snapshot()!;
    // Paused, but two answers can still change the counts.
    expect(paused).toMatchObject({ status: 'paused', answersOnTheirWay: 2 });
    expect(paused.counts).toMatchObject({ cancelled: 1, waiting: 5 });

    const seen = changes.length;
    held.shift()!();
    await until(() => queue.snapshot()!.answersOnTheirWay === 1);
    expect(queue.snapshot()!.counts).toMatchObject({ cancelled: 2, waiting: 4 });
    held.shift()!();
    await queue.idle();
    expect(queue.snapshot()).toMatchObject({ status: 'paused', answersOnTheirWay: 0 });
    expect(queue.snapshot()!.counts).toMatchObject({ cancelled: 3, waiting: 3 });
    // The last change the window was told of says nothing more is coming, with the final counts.
    expect(changes.length).toBeGreaterThan(seen);
    expect(changes.at(-1)).toMatchObject({ answersOnTheirWay: 0, counts: { cancelled: 3 } });
    expect(held).toHaveLength(0); // nothing was sent after the pause

    // The same after a stop.
    await queue.resume();
    await until(() => held.length === 2);
    await queue.stop();
    expect(queue.snapshot()).toMatchObject({ status: 'stopped', answersOnTheirWay: 2 });
    for (const answer of held.splice(0)) answer();
    await queue.idle();
    expect(queue.snapshot()).toMatchObject({ status: 'stopped', answersOnTheirWay: 0 });
    expect(queue.snapshot()!.counts).toMatchObject({ cancelled: 5, waiting: 1 });
  });

  it('pauses when the service cannot be reached, keeps unknown answers as sent, and resumes by itself', async () => {
    const { sandbox, queue, journal } = await setup({ orders: 200 }, 'demo-pro');
    const ids = sandbox.orderIds({ status: 'pending' }).slice(0, 40);
    // Every answer is lost (the order is cancelled, the connection cut).
    sandbox.setFaults('reset@1');
    await queue.start(ids);
    await queue.idle();
    const paused = queue.snapshot()!;
    expect(paused).toMatchObject({ status: 'paused', pauseReason: 'offline' });
    expect(paused.message).toContain('tries again by itself');
    // The clerk's pause holds it still (its own timer, on the virtual clock, would resume it
    // at any moment, and a DELETE journaled as sent but not yet out would be counted here).
    await queue.pause();
    await queue.idle();
    const sentUnanswered = [...replay(await journal.read())!.items.values()].filter(
      (s) => s === 'sent',
    ).length;
    expect(sentUnanswered).toBeGreaterThan(0);
    sandbox.setFaults(undefined);
    await queue.resume();
    // The queue also resumes by itself (its timer runs on the virtual clock), so a
    // resume may still be journaling its line when the workers are idle: wait for
    // the job to settle, a bounded number of times.
    let done = queue.snapshot()!;
    for (let i = 0; i < 50 && done.status === 'running'; i++) {
      await queue.idle();
      await new Promise((r) => setTimeout(r, 10));
      done = queue.snapshot()!;
    }
    expect(done.status).toBe('finished');
    // Orders whose first DELETE landed unseen are "gone": the service never said it
    // cancelled them (a 404 alone is no proof), and they are not "not found" either.
    expect(done.counts).toMatchObject({ 'not-found': 0, failed: 0 });
    expect(done.counts.gone).toBe(sentUnanswered);
    expect(done.counts.cancelled + done.counts.gone).toBe(40);
    expect(ids.every((id) => sandbox.orderStatus(id) === 'cancelled')).toBe(true);
  });

  it('puts a finished or stopped job away for good when dismissed, remembered after a restart; never one under way', async () => {
    const { sandbox, queue, journal, timing } = await setup({ orders: 100 });
    await queue.start(sandbox.orderIds({ status: 'pending' }).slice(0, 30));
    await queue.dismiss();
    expect(queue.snapshot()!.dismissed).toBeUndefined();
    await queue.stop();
    await queue.dismiss();
    await queue.idle();
    expect(queue.snapshot()).toMatchObject({ status: 'stopped', dismissed: true });

    // A restart reads the journal: still stopped, still put away, results kept.
    const again = new BulkCancelQueue({
      environment: 'sandbox',
      journal,
      client: async () => {
        throw new Error('nothing is sent for a stopped job');
      },
      timing,
    });
    await again.load();
    expect(again.snapshot()).toMatchObject({ status: 'stopped', dismissed: true });
    expect(again.results()).toEqual(queue.results());

    // A new job starts with its panel shown.
    await queue.start(sandbox.orderIds({ status: 'pending' }).slice(0, 2));
    await queue.idle();
    expect(queue.snapshot()).toMatchObject({ status: 'finished' });
    expect(queue.snapshot()!.dismissed).toBeUndefined();
    await queue.dismiss();
    expect(queue.snapshot()!.dismissed).toBe(true);
  });

  it('refuses a second job while one is under way', async () => {
    const { sandbox, queue } = await setup({ orders: 100 });
    await queue.start(sandbox.orderIds().slice(0, 50));
    await expect(queue.start(['1'])).rejects.toThrow('already under way');
    await queue.stop();
    await queue.idle();
    await expect(queue.start(['1'])).resolves.toMatchObject({ total: 1 });
    await queue.idle();
  });

  it('resumes after the process is killed mid-queue, with no order lost or counted twice', async () => {
    const sandbox = await startSandbox({
      port: 0,
      orders: 400,
      minuteMs: 1000,
      faults: 'latency=15@1',
    });
    sandboxes.push(sandbox);
    const pending = sandbox.orderIds({ status: 'pending' }).slice(0, 120);
    const shipped = sandbox.orderIds({ status: 'shipped' }).slice(0, 30);
    const ids = [...pending, ...shipped];
    const journal = new BulkJournal(dir, serviceScope('staging', sandbox.baseUrl));
    const run = (killAfterResults?: number) =>
      new Promise<{ killed: boolean; out: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['test/main/bulk-cancel/queue-worker.ts'], {
          env: {
            ...process.env,
            SANDBOX_URL: sandbox.baseUrl,
            DATA_DIR: dir,
            IDS: ids.join(','),
            KEY: 'demo-pro',
          },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        let killed = false;
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        const poll = setInterval(() => {
          if (killAfterResults === undefined || killed) return;
          journal.read().then((text) => {
            const job = replay(text);
            if (job && job.results.length >= killAfterResults) {
              killed = child.kill('SIGKILL');
            }
          }, reject);
        }, 5);
        child.on('error', reject);
        child.on('exit', () => {
          clearInterval(poll);
          resolve({ killed, out });
        });
      });

    const first = await run(50);
    expect(first.killed).toBe(true);
    const afterKill = replay(await journal.read())!;
    expect(afterKill.results.length).toBeGreaterThanOrEqual(50);
    expect(afterKill.results.length).toBeLessThan(150);

    const second = await run();
    const final = JSON.parse(second.out.trim().split('\n').at(-1)!);
    expect(final).toMatchObject({
      status: 'finished',
      total: 150,
      counts: { 'already-shipped': 30, 'not-found': 0, failed: 0, waiting: 0 },
    });
    // An order whose answer the kill took is "gone" after the restart, never cancelled twice.
    expect(final.counts.cancelled + final.counts.gone).toBe(120);

    const job = replay(await journal.read())!;
    // Exactly one result per order, and each matches the server's state.
    expect(new Set(job.results.map((r) => r.orderId)).size).toBe(150);
    for (const result of job.results) {
      expect(sandbox.orderStatus(result.orderId)).toBe(
        result.outcome === 'cancelled' || result.outcome === 'gone' ? 'cancelled' : 'shipped',
      );
    }
    // An order is sent twice only if the kill took the first answer.
    const deletes = new Map<string, number>();
    for (const entry of sandbox.requestLog.filter((r) => r.method === 'DELETE')) {
      const id = entry.path.split('/').pop()!;
      deletes.set(id, (deletes.get(id) ?? 0) + 1);
    }
    const twice = [...deletes.entries()].filter(([, n]) => n > 1).map(([id]) => id);
    expect(twice.length).toBeLessThanOrEqual(3); // at most the kill's in-flight requests (concurrency 3)
  });
});

describe('BulkCancelQueue snapshots', () => {
  it('a finished job never shows an answer on its way: one recorded while its worker still logs it is not', async () => {
    const timing = virtualTiming({ start: Date.UTC(2026, 10, 22, 9, 0, 0) });
    const sandbox = await startSandbox({ port: 0, now: timing.now, orders: 60 });
    sandboxes.push(sandbox);
    const gate = new RequestGate({ timing });
    const client = new StoreClient({
      baseUrl: sandbox.baseUrl,
      getKey: () => 'demo-pro',
      gate,
      budget: new RetryBudget(timing.now),
      timing,
    });
    const changes: BulkCancelSnapshot[] = [];
    const queue = new BulkCancelQueue({
      environment: 'sandbox',
      journal: new BulkJournal(dir, serviceScope('sandbox')),
      client: async () => client,
      timing,
      concurrency: 2,
      // The cancel log's write takes a while: another worker's change comes meanwhile.
      onResult: () => new Promise<void>((resolve) => setTimeout(resolve, 5)),
      onChange: (snapshot) => changes.push(snapshot),
    });
    const ids = sandbox.orderIds({ status: 'pending' }).slice(0, 20);
    await queue.start(ids);
    await until(() => queue.snapshot()?.status === 'finished');
    await queue.idle();
    const finished = changes.filter((snapshot) => snapshot.status === 'finished');
    expect(finished.length).toBeGreaterThan(0);
    expect(finished.map((snapshot) => snapshot.answersOnTheirWay)).toEqual(finished.map(() => 0));
  });
});
