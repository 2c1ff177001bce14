// Bulk-cancel pacing in real time against the sandbox, with the window
// shrunk to 3 s so several windows pass in seconds:
// - one client on the Free plan (60 a window): DELETEs per full window and 429s;
// - two clients on one key, as two desktops (no shared gate state): together,
//   DELETEs per full window against the 60 allowed, and 429s
//   (pacing.twoClients.ratio, pacing.twoClients.429);
// - what the journal's fsync before each DELETE costs: milliseconds per
//   cancel on a plan that never limits, with and without the fsync.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BulkJournal } from '../src/main/bulk-cancel/journal.ts';
import { serviceScope } from '../src/main/environments/service-scope.ts';
import { BulkCancelQueue } from '../src/main/bulk-cancel/queue.ts';
import { realTiming } from '../src/main/store-api/clock.ts';
import { RequestGate } from '../src/main/quota/gate.ts';
import { RetryBudget } from '../src/main/store-api/retry-budget.ts';
import { startSandbox, type Sandbox } from '../src/main/sandbox/server.ts';
import { StoreClient } from '../src/main/store-api/client.ts';
import type { BenchLine } from './report.ts';

const perCancel = (ms: number): string => `${ms.toFixed(1)} ms`;

interface PacedRun {
  /** DELETEs answered (not 429) per full window, all clients together. */
  readonly perWindow: number;
  readonly rejected: number;
  readonly elapsedMs: number;
}

/** `clients` bulk cancels of `each` orders on one key, each with its own gate (as on separate computers). */
async function runClients(
  sandbox: Sandbox,
  key: string,
  clients: number,
  each: number,
  windowMs: number,
  journalSync = true,
): Promise<PacedRun> {
  const dirs: string[] = [];
  try {
    const queues = Array.from({ length: clients }, () => {
      const dir = mkdtempSync(join(tmpdir(), 'bench-pacing-'));
      dirs.push(dir);
      const gate = new RequestGate({ timing: realTiming });
      const client = new StoreClient({
        baseUrl: sandbox.baseUrl,
        getKey: () => key,
        gate,
        budget: new RetryBudget(Date.now),
      });
      const queue = new BulkCancelQueue({
        environment: 'sandbox',
        journal: new BulkJournal(dir, serviceScope('sandbox'), { sync: journalSync }),
        client: async () => client,
        timing: realTiming,
      });
      gate.onChange((quota) => queue.observeQuota(quota));
      return queue;
    });
    sandbox.clearRequestLog();
    const ids = sandbox.orderIds({ status: 'pending' });
    const started = performance.now();
    await Promise.all(queues.map((q, i) => q.start(ids.slice(i * each, (i + 1) * each))));
    await Promise.all(queues.map((q) => q.idle()));
    const elapsedMs = performance.now() - started;
    const deletes = sandbox.requestLog.filter((r) => r.method === 'DELETE');
    const windows = new Map<number, number>();
    for (const entry of deletes) {
      if (entry.status === 429) continue;
      const window = Math.floor(entry.at / windowMs);
      windows.set(window, (windows.get(window) ?? 0) + 1);
    }
    // The first and last windows are partial: only the full ones in between count.
    const full = [...windows.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, n]) => n)
      .slice(1, -1);
    return {
      perWindow: full.reduce((a, b) => a + b, 0) / Math.max(1, full.length),
      rejected: deletes.filter((r) => r.status === 429).length,
      elapsedMs,
    };
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchPacing(cancels: number, windowMs = 3000): Promise<BenchLine[]> {
  const sandbox = await startSandbox({ port: 0, orders: cancels * 6, minuteMs: windowMs });
  try {
    const one = await runClients(sandbox, 'demo-free', 1, cancels, windowMs);
    const two = await runClients(sandbox, 'demo-free', 2, cancels / 2, windowMs);
    // The fsync's cost, where the quota never limits: per cancel, without it (baseline) and with it.
    const syncCancels = Math.min(cancels, 200);
    const unsynced = await runClients(sandbox, 'demo-enterprise', 1, syncCancels, windowMs, false);
    const synced = await runClients(sandbox, 'demo-enterprise', 1, syncCancels, windowMs, true);
    return [
      {
        name: `pacing: ${cancels} bulk cancels, Free plan (60 per ${windowMs / 1000} s window): DELETEs per full window`,
        value: `${one.perWindow.toFixed(1)} / 60`,
        figure: { name: 'pacing.perWindow', value: one.perWindow, unit: 'requests', baseline: 60 },
        ratio: one.perWindow / 60,
        limit: 0.95,
        atLeast: true,
      },
      {
        name: 'pacing: 429 answers received',
        value: String(one.rejected),
        figure: { name: 'pacing.429.count', value: one.rejected, unit: 'count', bound: 0 },
        check: { ok: one.rejected === 0, rule: '(must be 0)' },
      },
      {
        name: `pacing.twoClients.ratio: two desktops, one Free key, ${cancels / 2} cancels each: DELETEs per full window`,
        value: `${two.perWindow.toFixed(1)} / 60`,
        figure: {
          name: 'pacing.twoClients.ratio',
          value: two.perWindow,
          unit: 'requests',
          baseline: 60,
        },
        ratio: two.perWindow / 60,
        limit: 0.9,
        atLeast: true,
      },
      {
        name: 'pacing.twoClients.429: answers of 429 received by the two',
        value: String(two.rejected),
        figure: { name: 'pacing.twoClients.429', value: two.rejected, unit: 'count', bound: 0 },
        check: { ok: two.rejected === 0, rule: '(must be 0)' },
      },
      {
        name: `pacing: ${syncCancels} cancels, no limit: journal without fsync (baseline), per cancel`,
        value: perCancel(unsynced.elapsedMs / syncCancels),
        figure: {
          name: 'pacing.fsync.baseline.ms',
          value: unsynced.elapsedMs / syncCancels,
          unit: 'ms',
        },
      },
      {
        name: 'pacing.fsync.ratio: journal with fsync of each send line before its DELETE, per cancel',
        value: perCancel(synced.elapsedMs / syncCancels),
        figure: {
          name: 'pacing.fsync.ratio',
          value: synced.elapsedMs / syncCancels,
          unit: 'ms',
          baseline: unsynced.elapsedMs / syncCancels,
        },
        ratio: synced.elapsedMs / unsynced.elapsedMs,
      },
    ];
  } finally {
    await sandbox.close();
  }
}
