// A list sent compressed (a CDN, nginx's gzip_static: Content-Encoding: gzip
// with the compressed Content-Length) reads true: both fetches hand the body
// over decoded, so its bytes are shown without a total, never "5.4 MB of
// 2.0 MB" with the bar full at 15%; and whether it is read on a thread of its
// own is chosen by what arrives, not by the compressed length. Through
// Node's fetch (the CLI's) and the Electron stand-in's net.fetch (the app's,
// Chromium's network modelled over undici).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import {
  StoreClient,
  THREAD_FROM_BYTES,
  type DownloadProgress,
} from '../../../src/main/store-api/client.ts';
import { sharedBytesHeld } from '../../../src/main/store-api/list-scanner-thread.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { net } from '../../../tools/electron-standin/electron/net.ts';
import { virtualTiming } from '../../support/virtual-timing.ts';

function listText(orders: number): string {
  const items: string[] = [];
  for (let i = 0; i < orders; i++)
    items.push(
      `{"id":${i + 1},"petId":${(i * 7) % 500},"quantity":${1 + (i % 4)},"shipDate":"2026-11-${String((i % 28) + 1).padStart(2, '0')}T10:00:00.000Z","complete":${i % 3 === 0}}`,
    );
  return `[${items.join(',')}]`;
}

/** Big enough to be read on a thread (decoded), small enough compressed not to look it. */
const LARGE = Buffer.from(listText(60_000));
const SMALL = Buffer.from(listText(2_000));
const LARGE_GZ = gzipSync(LARGE);
const SMALL_GZ = gzipSync(SMALL);

let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const [body, gz] = req.url?.startsWith('/small') ? [SMALL, SMALL_GZ] : [LARGE, LARGE_GZ];
    const headers = {
      'content-type': 'application/json',
      'x-ratelimit-limit': '300',
      'x-ratelimit-remaining': '290',
      'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
    };
    if (req.url?.includes('/plain/')) {
      res.writeHead(200, { ...headers, 'content-length': String(body.length) });
      res.end(body);
      return;
    }
    // As gzip_static sends a pre-compressed file: its compressed length declared.
    res.writeHead(200, {
      ...headers,
      'content-encoding': 'gzip',
      'content-length': String(gz.length),
    });
    res.end(gz);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const FETCHES = {
  'Node’s fetch (the CLI)': undefined,
  'Chromium’s, through net.fetch (the app)': ((input, init) =>
    net.fetch(input instanceof URL ? input.href : input, init)) as typeof fetch,
};

function clientAt(path: string, fetch: typeof globalThis.fetch | undefined) {
  const timing = virtualTiming();
  return new StoreClient({
    baseUrl: `${origin}${path}/v1`,
    getKey: () => 'demo-pro',
    gate: new RequestGate({ timing }),
    budget: new RetryBudget(timing.now),
    timing,
    listThreadFromBytes: THREAD_FROM_BYTES,
    ...(fetch ? { fetch } : {}),
  });
}

/**
 * Whether `read` read its list on a thread: the thread's columns come to main
 * on shared buffers, which main counts (and forgets only when it collects).
 */
async function onThread(read: () => Promise<unknown>): Promise<boolean> {
  // Earlier lists' buffers collected first, so none is forgotten while this one is read.
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  for (let round = 0; round < 10; round++) {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const before = sharedBytesHeld();
  await read();
  return sharedBytesHeld() > before;
}

describe.each(Object.entries(FETCHES))('a compressed list through %s', (_name, fetch) => {
  it('shows the bytes read without a total, never more than a total, and reads a large one on a thread', async () => {
    expect(LARGE_GZ.length).toBeLessThan(THREAD_FROM_BYTES);
    expect(LARGE.length).toBeGreaterThan(THREAD_FROM_BYTES);
    const progress: DownloadProgress[] = [];
    let count = 0;
    const threaded = await onThread(async () => {
      const list = await clientAt('/large', fetch).listOrderColumns({
        onProgress: (p) => progress.push(p),
      });
      count = list.columns.count;
      expect(list.bytes).toBe(LARGE.length);
    });
    expect(count).toBe(60_000);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.every((p) => p.totalBytes === undefined)).toBe(true);
    expect(progress.at(-1)!.receivedBytes).toBe(LARGE.length);
    expect(threaded).toBe(true);
  });

  it('reads a small one on main', async () => {
    let count = 0;
    const threaded = await onThread(async () => {
      count = (await clientAt('/small', fetch).listOrderColumns()).columns.count;
    });
    expect(count).toBe(2_000);
    expect(threaded).toBe(false);
  });

  it('keeps the total of a list sent as it is', async () => {
    const progress: DownloadProgress[] = [];
    const threaded = await onThread(() =>
      clientAt('/large/plain', fetch).listOrderColumns({ onProgress: (p) => progress.push(p) }),
    );
    expect(threaded).toBe(true);
    expect(progress.every((p) => p.totalBytes === LARGE.length)).toBe(true);
    expect(progress.every((p) => p.receivedBytes <= p.totalBytes!)).toBe(true);
  });
});
