// A refresh reads the list into columns while it downloads, and writes its
// bytes to a new cache file as they arrive; the file replaces the last good
// cache only once the whole list is valid. A disk that takes nothing keeps
// the last good cache too, and the list is handed over from memory.

import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceScope } from '../../../src/main/environments/service-scope.ts';
import { OrderCache } from '../../../src/main/orders/order-cache.ts';
import { refreshOrderColumns } from '../../../src/main/orders/refresh.ts';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';
import { StoreApiError } from '../../../src/main/store-api/errors.ts';
import { ordersOf } from '../../../src/shared/order-columns.ts';
import { parseOrders } from '../../../src/shared/parse-orders.ts';
import { failingFiles } from '../../support/failing-files.ts';
import { scriptedServer, type ScriptedServer } from '../../support/scripted-server.ts';
import { virtualTiming } from '../../support/virtual-timing.ts';

let dir: string;
const closers: Array<() => Promise<void>> = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'refresh-'));
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await rm(dir, { recursive: true, force: true });
});

function clientOf(baseUrl: string, key = 'demo-enterprise'): StoreClient {
  const timing = virtualTiming({ start: Date.UTC(2026, 10, 22, 9, 0, 0) });
  return new StoreClient({
    baseUrl,
    getKey: () => key,
    gate: new RequestGate({ timing }),
    budget: new RetryBudget(timing.now),
    timing,
  });
}

async function sandbox(options: Parameters<typeof startSandbox>[0]): Promise<Sandbox> {
  const started = await startSandbox({ port: 0, ...options });
  closers.push(() => started.close());
  return started;
}

async function serve(script: Parameters<typeof scriptedServer>[0]): Promise<ScriptedServer> {
  const server = await scriptedServer(script);
  closers.push(() => server.close());
  return server;
}

async function failureOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StoreApiError);
  return (error as StoreApiError).failure;
}

const order = (i: number) =>
  `{"id":${9007199254740993n + BigInt(i)},"petId":${i},"quantity":1,"shipDate":"2026-01-01T00:00:00Z","complete":false}`;
const orders = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => order(from + k)).join(',');

/** Sends `first`, then the rest once `release` is called. */
function heldBody(first: string, rest: string, headers: Record<string, string> = {}) {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const closed: { value: boolean } = { value: false };
  const script = async (_req: unknown, res: ServerResponse) => {
    res.on('close', () => (closed.value = true));
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.write(first);
    await released;
    if (!res.destroyed) res.end(rest);
  };
  return { script, release, closed };
}

async function temporaryFiles(): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith('.tmp'));
}

describe('refreshOrderColumns', () => {
  it('reads the sandbox list into exact columns and caches its bytes as sent', async () => {
    const service = await sandbox({ orders: 20_000, bigIds: true });
    const cache = new OrderCache(dir);
    const client = clientOf(service.baseUrl);
    const list = await refreshOrderColumns(client, cache, 'production');
    expect(list.columns.count).toBe(20_000);
    expect(ordersOf(list.columns).map((o) => o.id)).toEqual(service.orderIds());
    const cached = await cache.read(serviceScope('production', service.baseUrl));
    expect(cached.ok && cached.value.count).toBe(20_000);
    if (cached.ok) {
      expect(Buffer.byteLength(cached.value.body)).toBe(list.bytes);
      expect(parseOrders(cached.value.body)).toEqual(ordersOf(list.columns));
      expect(cached.value.receivedAt).toBe(list.receivedAt);
    }
    expect(await temporaryFiles()).toEqual([]);
  });

  it('writes the bytes to the cache file while the list is still arriving', async () => {
    const first = `[${orders(0, 3000)},`;
    const held = heldBody(first, `${orders(3000, 3001)}]`);
    const server = await serve(held.script);
    const cache = new OrderCache(dir);
    const refresh = refreshOrderColumns(clientOf(server.baseUrl), cache, 'production');
    // The first part reaches the temporary file before the rest is even sent.
    let written = 0;
    for (let tries = 0; tries < 200 && written < first.length; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const [name] = await temporaryFiles();
      written = name ? (await stat(join(dir, name))).size - 1025 : 0;
    }
    expect(written).toBe(first.length);
    const scope = serviceScope('production', server.baseUrl);
    expect(await cache.read(scope)).toEqual({ ok: false, problem: 'missing' });
    held.release();
    expect((await refresh).columns.count).toBe(3001);
    const cached = await cache.read(scope);
    expect(cached.ok && cached.value.count).toBe(3001);
    expect(await temporaryFiles()).toEqual([]);
  });

  it('stops the download at the first wrong order and keeps the last good cache', async () => {
    // The wrong order comes first; the rest of the list is never sent.
    const held = heldBody(`[${order(0)},{"id":9007199254740992.5},${orders(2, 2000)},`, ']');
    const server = await serve(held.script);
    const cache = new OrderCache(dir);
    await cache.write({
      environment: 'production',
      baseUrl: server.baseUrl,
      receivedAt: 1,
      count: 1,
      body: `[${order(0)}]`,
    });
    const failure = await failureOf(
      refreshOrderColumns(clientOf(server.baseUrl), cache, 'production'),
    );
    expect(failure).toMatchObject({ kind: 'invalid-response', delivery: 'answered' });
    expect(failure.message).toBe(
      'The store service sent an order list Store Admin cannot read (order 2: "id" is not a whole number). Nothing was replaced.',
    );
    for (let tries = 0; tries < 100 && !held.closed.value; tries++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(held.closed.value).toBe(true);
    held.release();
    const cached = await cache.read(serviceScope('production', server.baseUrl));
    expect(cached.ok && cached.value.receivedAt).toBe(1);
    expect(await temporaryFiles()).toEqual([]);
  });

  it('keeps the last good cache when the list is cut off or the connection drops', async () => {
    const cache = new OrderCache(dir);
    const service = await sandbox({ orders: 5000 });
    const client = clientOf(service.baseUrl);
    await refreshOrderColumns(client, cache, 'production');
    const scope = serviceScope('production', service.baseUrl);
    const good = await cache.read(scope);

    service.setFaults('malformed@1');
    const cut = await failureOf(refreshOrderColumns(client, cache, 'production'));
    expect(cut.kind).toBe('invalid-response');
    expect(cut.message).toContain('not valid JSON; it may have been cut off');

    const dropping = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000000' });
      res.write(`[${orders(0, 100)},`);
      setTimeout(() => res.destroy(), 20);
    });
    const dropped = await failureOf(
      refreshOrderColumns(clientOf(dropping.baseUrl), cache, 'production'),
    );
    expect(dropped.message).toMatch(/^The order list was cut off while downloading\./);

    expect(await cache.read(scope)).toEqual(good);
    // The dropped list left nothing under its own address either.
    expect(await cache.read(serviceScope('production', dropping.baseUrl))).toEqual({
      ok: false,
      problem: 'missing',
    });
    expect(await temporaryFiles()).toEqual([]);
  });

  it('reports progress against the declared size', async () => {
    const body = `[${orders(0, 4000)}]`;
    const server = await serve((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(body.length),
      });
      res.end(body);
    });
    const seen: Array<{ receivedBytes: number; totalBytes?: number }> = [];
    await refreshOrderColumns(clientOf(server.baseUrl), new OrderCache(dir), 'staging', {
      onProgress: (progress) => seen.push(progress),
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toEqual({ receivedBytes: body.length, totalBytes: body.length });
  });
});

describe('a disk that takes nothing (full, read-only)', () => {
  const errorCodes = (errors: unknown[]) =>
    errors.map((error) => (error as NodeJS.ErrnoException).code);

  /** A cache holding a good list of one order, received at 1, for `baseUrl`. */
  async function goodCache(files: ReturnType<typeof failingFiles>, baseUrl: string) {
    const cache = new OrderCache(dir, files);
    await cache.write({
      environment: 'production',
      baseUrl,
      receivedAt: 1,
      count: 1,
      body: `[${order(0)}]`,
    });
    return cache;
  }

  it('filling up in the middle of the streamed write: the list from memory, the last good cache whole, told once', async () => {
    const first = `[${orders(0, 3000)},`;
    const held = heldBody(first, `${orders(3000, 3001)}]`);
    const server = await serve(held.script);
    const files = failingFiles();
    const cache = await goodCache(files, server.baseUrl);
    const notSaved: unknown[] = [];
    let saved = 0;
    const refresh = refreshOrderColumns(clientOf(server.baseUrl), cache, 'production', {
      cacheNotSaved: (error) => (notSaved.push(error), true),
      cacheSaved: () => void saved++,
    });
    // The first part is on the disk (in the temporary file) when the disk fills.
    let written = 0;
    for (let tries = 0; tries < 200 && written < first.length; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const [name] = await temporaryFiles();
      written = name ? (await stat(join(dir, name))).size - 1025 : 0;
    }
    expect(written).toBe(first.length);
    files.fail('ENOSPC');
    held.release();

    const list = await refresh;
    expect(list.columns.count).toBe(3001);
    expect(ordersOf(list.columns).at(-1)!.id).toBe(String(9007199254740993n + 3000n));
    expect(errorCodes(notSaved)).toEqual(['ENOSPC']);
    expect(saved).toBe(0);
    const cached = await cache.read(serviceScope('production', server.baseUrl));
    expect(cached.ok && cached.value).toMatchObject({ receivedAt: 1, count: 1 });
    expect(await temporaryFiles()).toEqual([]);
  });

  it('read-only from the start: the list still comes back, nothing is written', async () => {
    const body = `[${orders(0, 50)}]`;
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const files = failingFiles();
    files.fail('EROFS');
    const notSaved: unknown[] = [];
    const list = await refreshOrderColumns(
      clientOf(server.baseUrl),
      new OrderCache(dir, files),
      'staging',
      {
        cacheNotSaved: (error) => (notSaved.push(error), true),
      },
    );
    expect(list.columns.count).toBe(50);
    expect(errorCodes(notSaved)).toEqual(['EROFS']);
    expect(await readdir(dir)).toEqual([]);
  });

  it('a failure that is not the disk’s doing (or nobody to say so) fails the refresh, keeping the last good cache', async () => {
    const service = await sandbox({ orders: 100 });
    const files = failingFiles();
    const cache = await goodCache(files, service.baseUrl);
    files.fail('EACCES');
    const client = clientOf(service.baseUrl);
    await expect(
      refreshOrderColumns(client, cache, 'production', { cacheNotSaved: () => false }),
    ).rejects.toMatchObject({ code: 'EACCES' });
    await expect(refreshOrderColumns(client, cache, 'production')).rejects.toMatchObject({
      code: 'EACCES',
    });
    const cached = await cache.read(serviceScope('production', service.baseUrl));
    expect(cached.ok && cached.value.receivedAt).toBe(1);
    expect(await temporaryFiles()).toEqual([]);
  });

  it('a save that goes through is told, so a storage problem can end', async () => {
    const service = await sandbox({ orders: 100 });
    const files = failingFiles();
    const told: string[] = [];
    const list = await refreshOrderColumns(
      clientOf(service.baseUrl),
      new OrderCache(dir, files),
      'production',
      {
        cacheNotSaved: () => (told.push('not saved'), true),
        cacheSaved: () => void told.push('saved'),
      },
    );
    expect(list.columns.count).toBe(100);
    expect(told).toEqual(['saved']);
  });
});
