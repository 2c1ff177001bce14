// Power loss: the journal's `send` line must be on the disk (fsync) before
// its DELETE leaves, so a power cut can never lead to a second DELETE
// reported as new. The file layer here syncs slowly and records when each
// synced line landed; the client's fetch records when each DELETE left.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BulkJournal } from '../../../src/main/bulk-cancel/journal.ts';
import { BulkCancelQueue } from '../../../src/main/bulk-cancel/queue.ts';
import { serviceScope } from '../../../src/main/environments/service-scope.ts';
import { nodeFiles, type LocalFiles } from '../../../src/main/local-data/local-files.ts';
import { realTiming } from '../../../src/main/store-api/clock.ts';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';

let dir: string | undefined;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the journal on a power cut', () => {
  it('every send line is synced to the disk before its DELETE leaves', async () => {
    dir = await mkdtemp(join(tmpdir(), 'journal-sync-'));
    sandbox = await startSandbox({ port: 0, orders: 100 });
    const events: string[] = [];
    const base = nodeFiles();
    const slowSync: LocalFiles = {
      ...base,
      async append(file, text, options) {
        await base.append(file, text, options);
        if (!options?.sync) return;
        // A slow disk: a DELETE that did not wait for the sync would leave first.
        await new Promise((resolve) => setTimeout(resolve, 5));
        const line = JSON.parse(text) as { t: string; orderId?: string };
        if (line.t === 'send') events.push(`synced ${line.orderId}`);
      },
    };
    const client = new StoreClient({
      baseUrl: sandbox.baseUrl,
      getKey: () => 'demo-pro',
      gate: new RequestGate({ timing: realTiming }),
      budget: new RetryBudget(Date.now),
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (request.method === 'DELETE') events.push(`delete ${request.url.split('/').pop()}`);
        return fetch(request);
      },
    });
    const journal = new BulkJournal(dir, serviceScope('sandbox'), { files: slowSync });
    const queue = new BulkCancelQueue({
      environment: 'sandbox',
      journal,
      client: async () => client,
      timing: realTiming,
      concurrency: 3,
    });
    const ids = sandbox.orderIds({ status: 'pending' }).slice(0, 20);
    await queue.start(ids);
    await queue.idle();
    expect(queue.snapshot()).toMatchObject({ status: 'finished', counts: { cancelled: 20 } });
    for (const id of ids) {
      const synced = events.indexOf(`synced ${id}`);
      expect(synced, id).toBeGreaterThanOrEqual(0);
      expect(synced, id).toBeLessThan(events.indexOf(`delete ${id}`));
    }
    // And the lines are those the journal reads back.
    const text = await readFile(journal.file, 'utf8');
    expect(text.split('\n').filter((l) => l.includes('"t":"send"'))).toHaveLength(20);
  });

  it('the real file layer syncs only job and send lines', async () => {
    dir = await mkdtemp(join(tmpdir(), 'journal-sync-'));
    const syncs: boolean[] = [];
    const base = nodeFiles();
    const journal = new BulkJournal(dir, serviceScope('sandbox'), {
      files: { ...base, append: (f, t, o) => (syncs.push(o?.sync === true), base.append(f, t, o)) },
    });
    await journal.append({ t: 'job', jobId: 'j', at: 1, orderIds: ['1'] });
    await journal.append({ t: 'send', orderId: '1', at: 2 });
    await journal.append({ t: 'result', orderId: '1', at: 3, outcome: 'cancelled', message: 'ok' });
    expect(syncs).toEqual([true, true, false]);
  });
});
