// The bulk-cancel journal read back: torn and damaged lines are skipped, so a
// damaged file never stops the app from restoring the job it holds.

import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { appendFile, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BulkJournal, KEPT_ARCHIVES, replay } from '../../../src/main/bulk-cancel/journal.ts';
import { serviceScope } from '../../../src/main/environments/service-scope.ts';

const scope = serviceScope('production', 'https://api.example.com/v1');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bulk-journal-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('BulkJournal.read', () => {
  it('skips torn lines and lines that are not journal lines, keeping the others', async () => {
    const journal = new BulkJournal(dir, scope, { sync: false });
    await journal.append({ t: 'job', jobId: 'j1', at: 1, orderIds: ['1', '2', '3'] });
    await journal.append({ t: 'send', orderId: '1', at: 2 });
    await appendFile(
      journal.file,
      [
        // A second job whose ids are not a list would replace the first one.
        '{"t":"job","jobId":"j2","at":3,"orderIds":"1,2"}',
        '{"t":"send","at":3}',
        '{"t":"result","orderId":"1","at":3,"outcome":"exploded","message":"?"}',
        '{"t":"status","at":3,"status":"finished"}',
        '{"t":"launch","at":3}',
        '[1,2]',
        '"send"',
        '',
      ].join('\n'),
    );
    await journal.append({ t: 'result', orderId: '1', at: 4, outcome: 'cancelled', message: 'ok' });
    await journal.append({ t: 'send', orderId: '2', at: 5 });
    await appendFile(journal.file, '{"t":"result","orderId":"2","at":6,"outc');

    const lines = await journal.read();
    expect(lines.map((line) => line.t)).toEqual(['job', 'send', 'result', 'send']);
    const job = replay(lines)!;
    expect(job.jobId).toBe('j1');
    expect(job.status).toBe('running');
    expect(Object.fromEntries(job.items)).toEqual({ 1: 'done', 2: 'sent', 3: 'queued' });
    expect(job.results).toEqual([{ orderId: '1', outcome: 'cancelled', message: 'ok', at: 4 }]);
  });

  it('reads a missing journal as no lines', async () => {
    expect(await new BulkJournal(dir, scope).read()).toEqual([]);
  });
});

describe('BulkJournal archives', () => {
  it('keeps the newest finished journals per service and deletes the older ones', async () => {
    expect(KEPT_ARCHIVES).toBe(10);
    const journal = new BulkJournal(dir, scope, { sync: false });
    const other = new BulkJournal(dir, serviceScope('sandbox'), { sync: false });
    const name = (id: string) => journal.file.replace(/\.jsonl$/, `.${id}.jsonl`);
    // Fifteen finished jobs archived before, a minute apart, oldest first.
    const older = Array.from({ length: 15 }, () => randomUUID());
    for (const [i, id] of older.entries()) {
      await writeFile(name(id), '{"t":"dismiss","at":1}\n');
      const at = new Date(Date.UTC(2026, 0, 1, 0, i));
      await utimes(name(id), at, at);
    }
    await other.append({ t: 'job', jobId: 'x', at: 1, orderIds: ['1'] });
    await other.archive(randomUUID());
    await writeFile(`${journal.file.replace(/\.jsonl$/, '')}.notes.jsonl`, 'not an archive\n');

    const last = randomUUID();
    await journal.append({ t: 'job', jobId: last, at: 1, orderIds: ['1'] });
    await journal.archive(last);

    const archived = readdirSync(dir).filter((n) => n.startsWith('bulk-cancel-production'));
    expect(archived.sort()).toEqual(
      [
        ...older.slice(-(KEPT_ARCHIVES - 1)).map(name),
        name(last),
        `${journal.file.replace(/\.jsonl$/, '')}.notes.jsonl`,
      ]
        .map((file) => file.slice(dir.length + 1))
        .sort(),
    );
    // Another service's archive is its own.
    expect(readdirSync(dir).filter((n) => n.startsWith('bulk-cancel-sandbox.'))).toHaveLength(1);
    // The one just archived can be put back.
    await journal.restore(last);
    expect(replay(await journal.read())?.jobId).toBe(last);
  });
});
