// Bulk-cancel pacing in real time: the sandbox's Free plan (60 a window) with
// the window shrunk to 3 s, so several windows pass in seconds. Reports the
// DELETEs per full window against the 60 allowed, and the 429s received.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BulkJournal } from '../src/main/bulk-cancel/journal.ts';
import { serviceScope } from '../src/main/environments/service-scope.ts';
import { BulkCancelQueue } from '../src/main/bulk-cancel/queue.ts';
import { realTiming } from '../src/main/quota/clock.ts';
import { RequestGate } from '../src/main/quota/gate.ts';
import { RetryBudget } from '../src/main/quota/retry-budget.ts';
import { startSandbox } from '../src/main/sandbox/server.ts';
import { StoreClient } from '../src/main/store-api/client.ts';
import type { BenchLine } from './report.ts';

export async function benchPacing(cancels: number, windowMs = 3000): Promise<BenchLine[]> {
  const sandbox = await startSandbox({
    port: 0,
    orders: Math.ceil(cancels * 2),
    minuteMs: windowMs,
  });
  const dir = mkdtempSync(join(tmpdir(), 'bench-pacing-'));
  try {
    const gate = new RequestGate({ timing: realTiming });
    const client = new StoreClient({
      baseUrl: sandbox.baseUrl,
      getKey: () => 'demo-free',
      gate,
      budget: new RetryBudget(Date.now),
    });
    const queue = new BulkCancelQueue({
      environment: 'sandbox',
      journal: new BulkJournal(dir, serviceScope('sandbox')),
      client: async () => client,
      timing: realTiming,
    });
    gate.onChange((quota) => queue.observeQuota(quota));
    const ids = sandbox.orderIds({ status: 'pending' }).slice(0, cancels);
    await queue.start(ids);
    await queue.idle();
    const deletes = sandbox.requestLog.filter((r) => r.method === 'DELETE');
    const perWindow = new Map<number, number>();
    for (const entry of deletes)
      perWindow.set(
        Math.floor(entry.at / windowMs),
        (perWindow.get(Math.floor(entry.at / windowMs)) ?? 0) + 1,
      );
    const windows = [...perWindow.entries()].sort(([a], [b]) => a - b).map(([, n]) => n);
    // The first and last windows are partial: only the full ones in between count.
    const full = windows.slice(1, -1);
    const achieved = full.reduce((a, b) => a + b, 0) / Math.max(1, full.length);
    const rejected = sandbox.requestLog.filter((r) => r.status === 429).length;
    return [
      {
        name: `pacing: ${ids.length} bulk cancels, Free plan (60 per ${windowMs / 1000} s window): DELETEs per full window`,
        value: `${achieved.toFixed(1)} / 60`,
        ratio: achieved / 60,
        limit: 0.95,
        atLeast: true,
      },
      {
        name: 'pacing: 429 answers received',
        value: String(rejected),
        check: { ok: rejected === 0, rule: '(must be 0)' },
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}
