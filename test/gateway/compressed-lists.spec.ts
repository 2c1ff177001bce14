// Order lists through nginx as a CDN or a company's gateway sends them:
// - gzip on the way (chunked, no length): the CLI's list is the service's;
// - a pre-compressed body with its compressed length declared (gzip_static):
//   the bytes read are shown without a total (never "5.4 MB of 2.0 MB" with
//   the bar full at 15%), and a list that is large once decoded is read on a
//   thread of its own though its compressed length is small; through Node's
//   fetch (the CLI's) and the Electron stand-in's net.fetch (the app's).

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/run.ts';
import { RequestGate } from '../../src/main/quota/gate.ts';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import {
  StoreClient,
  THREAD_FROM_BYTES,
  type DownloadProgress,
} from '../../src/main/store-api/client.ts';
import { sharedBytesHeld } from '../../src/main/store-api/list-scanner-thread.ts';
import { RetryBudget } from '../../src/main/store-api/retry-budget.ts';
import { net } from '../../tools/electron-standin/electron/net.ts';
import { startNginx, type Nginx } from '../../tools/nginx/nginx.ts';
import { virtualTiming } from '../support/virtual-timing.ts';
import { proxyTo, describeBehindNginx } from './gateway-support.ts';

let sandbox: Sandbox;
let nginx: Nginx;
let list: Buffer;
let compressed: Buffer;
let dataDir: string;

beforeAll(async () => {
  // 60,000 orders: about 5.4 MB as JSON, under 4 MB (the thread's threshold) compressed.
  sandbox = await startSandbox({ port: 0, orders: 60_000 });
  const response = await fetch(`${sandbox.baseUrl}/store/orders`, {
    headers: { authorization: 'Bearer demo-pro' },
  });
  list = Buffer.from(await response.arrayBuffer());
  compressed = gzipSync(list);
  nginx = await startNginx({
    files: { 'static/v1/store/orders.gz': compressed, 'static/v1/store/orders': list },
    http: ({ port, prefix }) => `
  gzip on;
  gzip_types application/json;
  gzip_proxied any;
  gzip_min_length 0;
  server {
    listen 127.0.0.1:${port};
    # A pre-compressed list, its compressed length declared (a CDN, gzip_static).
    location = /static/v1/store/orders {
      alias ${prefix}/static/v1/store/orders;
      gzip_static on;
      default_type application/json;
    }
    # The service, compressed on the way (chunked).
    ${proxyTo(`127.0.0.1:${sandbox.port}`)}
  }`,
  });
  dataDir = mkdtempSync(join(tmpdir(), 'store-admin-gzip-'));
});
afterAll(async () => {
  await Promise.all([nginx?.stop(), sandbox?.close()]);
  rmSync(dataDir, { recursive: true, force: true });
});

const FETCHES = {
  'Node’s fetch (the CLI)': undefined,
  'Chromium’s net.fetch (the app)': ((input, init) =>
    net.fetch(input instanceof URL ? input.href : input, init)) as typeof fetch,
};

/** Whether `read` read its list on a thread: its columns come to main on shared buffers. */
async function onThread(read: () => Promise<unknown>): Promise<boolean> {
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

describeBehindNginx('order lists through nginx', () => {
  it('gzip on the way, chunked: the CLI’s list is the service’s', async () => {
    // Its own process, as a shell runs it (its output is megabytes: more than execFile keeps by default).
    const run = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(
        process.execPath,
        ['bin/store-admin.js', 'orders', 'list', '--json', '--base-url', `${nginx.origin}/v1`],
        {
          env: {
            ...process.env,
            STORE_ADMIN_API_KEY: 'demo-pro',
            STORE_ADMIN_DATA_DIR: dataDir,
            STORE_ADMIN_CACHE_DIR: join(dataDir, 'cache'),
          },
          maxBuffer: 64 * 1024 * 1024,
          timeout: 120_000,
        },
        (error, stdout) => resolve({ code: error ? Number(error.code ?? -1) : 0, stdout }),
      ),
    );
    expect(run.code).toBe(EXIT.ok);
    expect((JSON.parse(run.stdout) as { count: number }).count).toBe(60_000);
    const [entry] = (await nginx.accessLog()).filter((e) => e.uri === '/v1/store/orders');
    expect(entry).toMatchObject({ status: 200, contentEncoding: 'gzip' });
    expect(entry!.bodyBytes).toBeLessThan(list.length / 2);
  });

  it.each(Object.entries(FETCHES))(
    'gzip_static, its compressed length declared, through %s: bytes without a total, read on a thread',
    async (_name, fetch) => {
      expect(compressed.length).toBeLessThan(THREAD_FROM_BYTES);
      expect(list.length).toBeGreaterThan(THREAD_FROM_BYTES);
      const timing = virtualTiming();
      const client = new StoreClient({
        baseUrl: `${nginx.origin}/static/v1`,
        getKey: () => 'demo-pro',
        gate: new RequestGate({ timing }),
        budget: new RetryBudget(timing.now),
        timing,
        listThreadFromBytes: THREAD_FROM_BYTES,
        ...(fetch ? { fetch } : {}),
      });
      const progress: DownloadProgress[] = [];
      let count = 0;
      const threaded = await onThread(async () => {
        count = (await client.listOrderColumns({ onProgress: (p) => progress.push(p) })).columns
          .count;
      });
      const entry = (await nginx.accessLog()).at(-1)!;
      console.log(
        `gzip_static list: ${entry.bodyBytes} bytes on the wire (gzip), ${list.length} decoded; progress said ${progress.at(-1)!.receivedBytes} bytes, total ${String(progress.at(-1)!.totalBytes)}; read on a thread: ${threaded}`,
      );
      expect(entry).toMatchObject({ status: 200, contentEncoding: 'gzip' });
      expect(entry.bodyBytes).toBe(compressed.length);
      expect(count).toBe(60_000);
      expect(progress.every((p) => p.totalBytes === undefined)).toBe(true);
      expect(progress.at(-1)!.receivedBytes).toBe(list.length);
      expect(threaded).toBe(true);
    },
  );
});
