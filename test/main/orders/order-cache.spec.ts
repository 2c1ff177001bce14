import {
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceScope } from '../../../src/main/environments/service-scope.ts';
import { nodeFiles, type LocalFiles } from '../../../src/main/local-data/local-files.ts';
import { OrderCache, type CachedOrders } from '../../../src/main/orders/order-cache.ts';
import { parseOrders } from '../../../src/shared/parse-orders.ts';

const production = serviceScope('production', 'https://api.example.com/v1');
const staging = serviceScope('staging', 'https://api.example.com/v1');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'order-cache-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function list(count: number, receivedAt: number): CachedOrders {
  const orders = Array.from(
    { length: count },
    (_, i) =>
      `{"id":${i + 1},"petId":9007199254740993,"quantity":1,"shipDate":"2026-01-01T00:00:00Z","complete":false}`,
  );
  const body = `[${orders.join(',')}]`;
  return {
    environment: 'production',
    baseUrl: 'https://api.example.com/v1',
    receivedAt,
    count,
    body,
  };
}

describe('OrderCache', () => {
  it('round-trips the body exactly, int64 ids included', async () => {
    const cache = new OrderCache(dir);
    const entry = list(3, 1000);
    await cache.write(entry);
    const read = await cache.read(production);
    expect(read).toEqual({ ok: true, value: entry });
    if (read.ok) expect(parseOrders(read.value.body)[0]?.petId).toBe('9007199254740993');
  });

  it('tells missing, damaged and another service apart', async () => {
    const cache = new OrderCache(dir);
    expect(await cache.read(staging)).toEqual({ ok: false, problem: 'missing' });
    await cache.write(list(50, 1000));
    // Another address has a file of its own; a list of this one found there is refused.
    const other = serviceScope('production', 'https://other.example.com/v1');
    expect(await cache.read(other)).toEqual({ ok: false, problem: 'missing' });
    await copyFile(cache.fileOf(production), cache.fileOf(other));
    expect(await cache.read(other)).toEqual({ ok: false, problem: 'other-service' });
    await truncate(cache.fileOf(production), 2000);
    expect(await cache.read(production)).toEqual({ ok: false, problem: 'damaged' });
    await writeFile(cache.fileOf(production), 'garbage');
    expect(await cache.read(production)).toEqual({ ok: false, problem: 'damaged' });
  });

  it('takes a header that parses but is not a header for damage', async () => {
    const cache = new OrderCache(dir);
    const sandbox = serviceScope('sandbox');
    await cache.write({ ...list(2, 1000), environment: 'sandbox' });
    const file = cache.fileOf(sandbox);
    const text = await readFile(file, 'utf8');
    const header = JSON.parse(text.slice(0, 1024)) as Record<string, unknown>;
    const body = text.slice(1024);
    for (const change of [{ baseUrl: 42 }, { receivedAt: 'yesterday' }, { count: null }]) {
      await writeFile(file, JSON.stringify({ ...header, ...change }).padEnd(1024, ' ') + body);
      expect(await cache.read(sandbox), JSON.stringify(change)).toEqual({
        ok: false,
        problem: 'damaged',
      });
    }
    await writeFile(file, JSON.stringify(header).padEnd(1024, ' ') + body);
    expect((await cache.read(sandbox)).ok).toBe(true);
  });

  it('never mixes environments', async () => {
    const cache = new OrderCache(dir);
    await cache.write(list(2, 1000));
    expect(await cache.read(staging)).toEqual({ ok: false, problem: 'missing' });
  });

  it('keeps the sandbox’s list whatever port it had', async () => {
    const cache = new OrderCache(dir);
    await cache.write({
      ...list(2, 1000),
      environment: 'sandbox',
      baseUrl: 'http://127.0.0.1:4010/v1',
    });
    const read = await cache.read(serviceScope('sandbox'));
    expect(read.ok && read.value.baseUrl).toBe('http://127.0.0.1:4010/v1');
  });

  it('keeps the last good list when a refresh is aborted, and leaves no temporary file', async () => {
    const cache = new OrderCache(dir);
    await cache.write(list(4, 1));
    const pending = cache.begin(
      { environment: 'production', baseUrl: 'https://api.example.com/v1', receivedAt: 2 },
      '[{"id":"broken"',
    );
    await pending.abort();
    const read = await cache.read(production);
    expect(read.ok && read.value.receivedAt).toBe(1);
    expect(await readdir(dir)).toEqual([`orders-${production.key}.cache`]);
  });

  it('keeps only whole files with the last write winning', async () => {
    const cache = new OrderCache(dir);
    await Promise.all([
      cache.write(list(10, 1)),
      cache.write(list(20, 2)),
      cache.write(list(30, 3)),
    ]);
    const read = await cache.read(production);
    expect(read.ok && read.value.count).toBe(30);
  });

  it('appends a list as it arrives and keeps it only on commit', async () => {
    const cache = new OrderCache(dir);
    await cache.write(list(2, 1));
    const entry = list(3000, 2);
    const bytes = Buffer.from(entry.body);
    const pending = cache.begin({ environment: 'production', baseUrl: entry.baseUrl });
    for (let at = 0; at < bytes.length; at += 7000)
      await pending.append(bytes.subarray(at, at + 7000));
    const before = await cache.read(production);
    expect(before.ok && before.value.count).toBe(2);
    await pending.commit(entry.count, entry.receivedAt);
    expect(await cache.read(production)).toEqual({ ok: true, value: entry });
    // The list it replaced is kept as the previous generation; nothing else is left.
    expect((await readdir(dir)).sort()).toEqual([
      `orders-${production.key}.cache`,
      `orders-${production.key}.previous.cache`,
    ]);
    const previous = await cache.read(production, 'previous');
    expect(previous.ok && [previous.value.receivedAt, previous.value.count]).toEqual([1, 2]);
  });

  it('keeps each replaced list as the previous generation, and tells listeners of each new list', async () => {
    const cache = new OrderCache(dir);
    const commits: number[] = [];
    cache.onCommit((commit) => commits.push(commit.receivedAt));
    expect(await cache.read(production, 'previous')).toEqual({ ok: false, problem: 'missing' });
    await cache.write(list(2, 1));
    expect(await cache.read(production, 'previous')).toEqual({ ok: false, problem: 'missing' });
    await cache.write(list(3, 2));
    await cache.write(list(4, 3));
    const previous = await cache.read(production, 'previous');
    expect(previous.ok && previous.value.count).toBe(3);
    // An aborted refresh changes neither generation.
    await cache.begin({ environment: 'production', baseUrl: list(1, 4).baseUrl }, '[').abort();
    const still = await cache.read(production, 'previous');
    expect(still.ok && still.value.count).toBe(3);
    expect(commits).toEqual([1, 2, 3]);
  });

  it('goes on writing while an earlier part is flushed to the disk, and commits once the flush is done', async () => {
    // A disk whose flushes wait until the test lets them finish.
    const disk = nodeFiles();
    let release!: () => void;
    const flushed = new Promise<void>((resolve) => (release = resolve));
    let flushes = 0;
    let bytesWritten = 0;
    const events: string[] = [];
    const files: LocalFiles = {
      ...disk,
      create: async (file) => {
        const handle = await disk.create(file);
        return {
          ...handle,
          writeAt: async (chunks, position) => {
            await handle.writeAt(chunks, position);
            bytesWritten += chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
          },
          flush: async () => {
            flushes++;
            await flushed;
            await handle.flush();
            events.push('flushed');
          },
          sync: async () => {
            events.push('sync');
            await handle.sync();
          },
        };
      },
    };
    const cache = new OrderCache(dir, files);
    const entry = list(200_000, 1);
    const bytes = Buffer.from(entry.body);
    expect(bytes.length).toBeGreaterThan(17 * 1024 * 1024);
    const pending = cache.begin({ environment: 'production', baseUrl: entry.baseUrl });
    for (let at = 0; at < bytes.length; at += 64 * 1024)
      await pending.append(bytes.subarray(at, at + 64 * 1024));
    // Every byte reaches the file while the first flush is still under way.
    await expect.poll(() => bytesWritten).toBe(bytes.length + 1025);
    expect(flushes).toBe(1);
    const commit = pending.commit(entry.count, entry.receivedAt);
    release();
    await commit;
    // The file is synced for its rename only once the flush under way is done.
    expect(events).toEqual(['flushed', 'sync']);
    expect(await cache.read(production)).toEqual({ ok: true, value: entry });
  });

  it('removes the generation two back once the new list is in place, and leaves nothing else', async () => {
    const cache = new OrderCache(dir);
    for (let receivedAt = 1; receivedAt <= 4; receivedAt++)
      await cache.write(list(receivedAt + 1, receivedAt));
    await cache.settled();
    expect((await readdir(dir)).sort()).toEqual([
      `orders-${production.key}.cache`,
      `orders-${production.key}.previous.cache`,
    ]);
    const [current, previous] = await Promise.all([
      cache.read(production),
      cache.read(production, 'previous'),
    ]);
    expect(current.ok && current.value.count).toBe(5);
    expect(previous.ok && previous.value.count).toBe(4);
  });

  it('still takes the new list when the previous generation cannot be kept, and keeps no stale one', async () => {
    const cache = new OrderCache(dir);
    await cache.write(list(2, 1));
    await cache.write(list(3, 2));
    // A previous generation that cannot be replaced (a folder in its place).
    await rm(cache.fileOf(production, 'previous'));
    await mkdir(join(cache.fileOf(production, 'previous'), 'blocked'), { recursive: true });
    await cache.write(list(4, 3));
    const read = await cache.read(production);
    expect(read.ok && read.value.count).toBe(4);
    expect((await cache.read(production, 'previous')).ok).toBe(false);
  });
});

describe('OrderCache and the longest base address', () => {
  it('keeps and reads back the list of an address of the longest length allowed', async () => {
    const { MAX_BASE_URL_LENGTH, validateBaseUrl } =
      await import('../../../src/shared/environments.ts');
    const origin = 'https://api.example.com';
    const address = `${origin}/${'p'.repeat(MAX_BASE_URL_LENGTH - origin.length - 4)}/v1`;
    expect(validateBaseUrl(address)).toEqual({ ok: true, value: address });
    const scope = serviceScope('production', address);
    const cache = new OrderCache(dir);
    // The largest figures a header holds beside it.
    const body = '[{"id":1}]';
    await cache
      .begin({ environment: 'production', baseUrl: address, receivedAt: 8.64e15 }, body)
      .commit(Number.MAX_SAFE_INTEGER);
    const read = await cache.read(scope);
    expect(read).toMatchObject({ ok: true, value: { baseUrl: address, body } });
  });
});
