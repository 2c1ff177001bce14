import { readdirSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceScope } from '../../../src/main/environments/service-scope.ts';
import { CancelLog } from '../../../src/main/orders/cancel-log.ts';
import { ReviewMarksStore } from '../../../src/main/orders/review-marks.ts';
import { MAX_NOTE_LENGTH } from '../../../src/shared/orders-local.ts';

const production = serviceScope('production', 'https://api.example.com/v1');
const staging = serviceScope('staging', 'https://staging.example.com/v1');
const sandbox = serviceScope('sandbox');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'local-records-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('CancelLog', () => {
  it('keeps every entry per environment and skips a torn last line', async () => {
    const log = new CancelLog(dir);
    await log.append(production, {
      at: 1,
      environment: 'production',
      orderId: '1',
      result: 'cancelled',
      message: 'ok',
    });
    await log.append(staging, {
      at: 2,
      environment: 'staging',
      orderId: '2',
      result: 'already-shipped',
      message: 'shipped',
    });
    await log.append(production, {
      at: 3,
      environment: 'production',
      orderId: '3',
      result: 'failed',
      message: 'offline',
      delivery: 'not-sent',
    });
    await appendFile(
      join(dir, `cancel-log-${production.key}.jsonl`),
      '{"at":4,"environment":"produ',
    );
    expect((await log.read(production)).map((e) => e.orderId)).toEqual(['1', '3']);
    expect((await log.read(staging)).map((e) => e.result)).toEqual(['already-shipped']);
    expect(await log.read(sandbox)).toEqual([]);
  });

  it('skips a line that parses but is not an entry, keeping the others', async () => {
    const log = new CancelLog(dir);
    const entry = { at: 1, environment: 'production', orderId: '1', message: 'ok' } as const;
    await log.append(production, { ...entry, result: 'cancelled' });
    await appendFile(
      join(dir, `cancel-log-${production.key}.jsonl`),
      [
        JSON.stringify({ ...entry, orderId: '2', result: 'exploded' }),
        JSON.stringify({ ...entry, orderId: 3, result: 'cancelled' }),
        JSON.stringify({ ...entry, orderId: '4', result: 'failed', delivery: 'maybe' }),
        JSON.stringify({ ...entry, orderId: '5', result: 'cancelled', at: '1' }),
        '42',
        'null',
        '',
      ].join('\n'),
    );
    await log.append(production, { ...entry, orderId: '6', result: 'gone' });
    expect(await log.read(production)).toEqual([
      { ...entry, result: 'cancelled' },
      { ...entry, orderId: '6', result: 'gone' },
    ]);
  });

  it('starts afresh past its size, keeping the log before: the newest entries always, never more than twice the size', async () => {
    const rotateAtBytes = 1000;
    const log = new CancelLog(dir, undefined, { rotateAtBytes });
    const file = join(dir, `cancel-log-${production.key}.jsonl`);
    const previous = join(dir, `cancel-log-${production.key}.previous.jsonl`);
    const sizeOf = (path: string) =>
      stat(path).then(
        (s) => s.size,
        () => 0,
      );
    const ids: string[] = [];
    for (let i = 1; i <= 60; i++) {
      ids.push(String(i));
      await log.append(production, {
        at: i,
        environment: 'production',
        orderId: String(i),
        result: 'cancelled',
        message: 'Cancelled.',
      });
      const entryBytes = (await readFile(file, 'utf8')).split('\n')[0]!.length + 1;
      expect(await sizeOf(file)).toBeLessThan(rotateAtBytes + entryBytes);
      expect((await sizeOf(file)) + (await sizeOf(previous))).toBeLessThan(
        2 * (rotateAtBytes + entryBytes),
      );
      // Every entry since the previous log began, in order; only the oldest are gone.
      const read = (await log.read(production)).map((entry) => entry.orderId);
      expect(read).toEqual(ids.slice(-read.length));
      expect(read.length).toBeGreaterThanOrEqual(Math.min(i, rotateAtBytes / entryBytes));
    }
    expect((await log.read(production)).length).toBeLessThan(60);
    expect(readdirSync(dir).sort()).toEqual([
      `cancel-log-${production.key}.jsonl`,
      `cancel-log-${production.key}.previous.jsonl`,
    ]);
  });

  it('keeps each address of an environment apart', async () => {
    const log = new CancelLog(dir);
    await log.append(production, {
      at: 1,
      environment: 'production',
      orderId: '1',
      result: 'cancelled',
      message: 'ok',
    });
    const moved = serviceScope('production', 'https://eu.api.example.com/v1');
    expect(await log.read(moved)).toEqual([]);
    expect(await log.read(production)).toHaveLength(1);
    await expect(
      log.append(production, {
        at: 2,
        environment: 'staging',
        orderId: '2',
        result: 'cancelled',
        message: 'ok',
      }),
    ).rejects.toThrow(TypeError);
  });
});

describe('ReviewMarksStore', () => {
  it('survives a restart, per environment', async () => {
    const first = new ReviewMarksStore(dir);
    await first.set(production, '42', { reviewed: true, note: ' called the customer ' }, 100);
    await first.set(staging, '42', { reviewed: false, note: 'staging only' }, 101);
    const second = new ReviewMarksStore(dir);
    expect(await second.all(production)).toEqual({
      '42': { reviewed: true, note: 'called the customer', updatedAt: 100 },
    });
    expect(await second.all(staging)).toEqual({
      '42': { reviewed: false, note: 'staging only', updatedAt: 101 },
    });
  });

  it('clears a mark with nothing left in it, and caps notes', async () => {
    const store = new ReviewMarksStore(dir);
    await store.set(sandbox, '1', { reviewed: true, note: 'x'.repeat(MAX_NOTE_LENGTH + 50) }, 1);
    expect((await store.all(sandbox))['1']?.note).toHaveLength(MAX_NOTE_LENGTH);
    await store.set(sandbox, '1', { reviewed: false, note: '  ' }, 2);
    expect(await new ReviewMarksStore(dir).all(sandbox)).toEqual({});
  });

  it('starts empty from a damaged file instead of failing', async () => {
    await writeFile(
      join(dir, `review-marks-${production.key}.json`),
      '{"version":1,"marks":{"1":{"reviewed":"yes"}}}',
    );
    expect(await new ReviewMarksStore(dir).all(production)).toEqual({});
  });
});
