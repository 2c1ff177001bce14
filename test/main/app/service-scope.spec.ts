// An environment's local data belongs to the service its address
// points at. A new address starts with no cached list, no review marks, no
// cancel log and no bulk cancel; the old address's data is kept and comes
// back with it. Through the real IPC handlers, against two real sandboxes on
// loopback standing in for two services.

import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceScope } from '../../../src/main/environments/service-scope.ts';
import { parseOrders } from '../../../src/shared/parse-orders.ts';
import { OrderCache } from '../../../src/main/orders/order-cache.ts';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import type { RemoteEnvironmentId } from '../../../src/shared/environments.ts';
import type { Result } from '../../../src/shared/result.ts';
import {
  SANDBOX_DEMO_KEY,
  startInProcessApp,
  type InProcessApp,
} from '../../support/in-process-app.ts';

let dataDir: string;
const apps: InProcessApp[] = [];
const sandboxes: Sandbox[] = [];
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'service-scope-'));
});
afterEach(async () => {
  await Promise.all([
    ...apps.splice(0).map((a) => a.close()),
    ...sandboxes.splice(0).map((s) => s.close()),
  ]);
  await rm(dataDir, { recursive: true, force: true });
});

async function app(options: Parameters<typeof startInProcessApp>[0] = {}): Promise<InProcessApp> {
  // The clerk says yes to main's question each time the key follows the address here.
  const started = await startInProcessApp({
    dataDir,
    confirmKeyForOrigin: async () => true,
    ...options,
  });
  apps.push(started);
  return started;
}

/** A second service: another sandbox with other orders. */
async function otherService(): Promise<Sandbox> {
  const sandbox = await startSandbox({ port: 0, seed: 7, orders: 300 });
  sandboxes.push(sandbox);
  return sandbox;
}

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.kind}: ${result.error.message}`);
  return result.value;
}

/** Points an environment at a service, the key following it with the clerk's yes. */
async function pointAt(a: InProcessApp, environment: RemoteEnvironmentId, baseUrl: string) {
  value(await a.api.environments.setBaseUrl(environment, baseUrl));
  if (!a.keys.status(environment).set) value(await a.api.keys.set(environment, SANDBOX_DEMO_KEY));
  expect(value(await a.api.keys.confirmOrigin(environment)).problem).toBeUndefined();
}

describe('local data per address', () => {
  it('keeps the cached list, review marks and cancel log of each address apart', async () => {
    const a = await app();
    const b = await otherService();
    await pointAt(a, 'production', a.sandbox.baseUrl);
    const first = await a.readList('orders:list', 'production');
    const [pending] = a.sandbox.orderIds({ status: 'pending' });
    value(await a.api.reviewMarks.set('production', pending!, { reviewed: true, note: 'at A' }));
    value(await a.api.orders.cancel('production', pending!));

    await pointAt(a, 'production', b.baseUrl);
    expect(value(await a.api.orders.cached('production'))).toEqual({
      found: false,
      reason: 'missing',
    });
    expect(value(await a.api.reviewMarks.list('production'))).toEqual({});
    expect(value(await a.api.cancelLog.list('production'))).toEqual([]);
    const second = value(await a.api.orders.list('production'));
    expect(second.count).toBe(300);
    value(await a.api.reviewMarks.set('production', pending!, { reviewed: false, note: 'at B' }));

    await pointAt(a, 'production', a.sandbox.baseUrl);
    const cached = await a.readList('orders:cached', 'production');
    expect(cached.result.ok).toBe(true);
    expect(cached.orders).toHaveLength(1000);
    expect(cached.orders).toEqual(first.orders);
    expect(value(await a.api.reviewMarks.list('production'))[pending!]?.note).toBe('at A');
    expect(value(await a.api.cancelLog.list('production'))).toMatchObject([
      { orderId: pending, result: 'cancelled' },
    ]);

    // And B's data is still B's.
    await pointAt(a, 'production', b.baseUrl);
    const atB = value(await a.api.orders.cached('production'));
    expect(atB.found && atB.list.count).toBe(300);
    expect(value(await a.api.reviewMarks.list('production'))[pending!]?.note).toBe('at B');
  });

  it('stops a running bulk cancel when the address moves, and carries on with it when it comes back', async () => {
    // Once a few are cancelled, A holds its answers until the address has moved, so the
    // job cannot finish first however slow this side is.
    let holding = false;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const a = await app({
      sandbox: {
        faults: 'latency=60@1',
        sleep: (ms) => (holding ? released : new Promise((resolve) => setTimeout(resolve, ms))),
      },
    });
    const b = await otherService();
    await pointAt(a, 'staging', a.sandbox.baseUrl);
    const ids = a.sandbox.orderIds({ status: 'pending' }).slice(0, 30);
    value(await a.api.bulkCancel.start('staging', ids));
    await expect
      .poll(async () => value(await a.api.bulkCancel.status('staging'))?.counts.cancelled ?? 0, {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(4);
    holding = true;

    const jobAtA = (await a.services.bulkCancelOf('staging'))!;
    await pointAt(a, 'staging', b.baseUrl);
    expect(value(await a.api.bulkCancel.status('staging'))).toBeNull();
    expect(value(await a.api.bulkCancel.results('staging'))).toEqual([]);
    // The old job stops sending: once the answers on their way are in, none of its
    // workers runs, so it sends nothing more to A, and nothing to B.
    release();
    await jobAtA.idle();
    const deletesAtA = () => a.sandbox.requestLog.filter((r) => r.method === 'DELETE').length;
    const stoppedAt = deletesAtA();
    expect(stoppedAt).toBeLessThan(30);
    expect(b.requestLog.filter((r) => r.method === 'DELETE')).toEqual([]);
    // B can run its own job meanwhile, and A hears nothing while it runs.
    const atB = b.orderIds({ status: 'pending' }).slice(0, 3);
    value(await a.api.bulkCancel.start('staging', atB));
    await expect
      .poll(async () => value(await a.api.bulkCancel.status('staging'))?.status, {
        timeout: 10_000,
      })
      .toBe('finished');
    expect(deletesAtA()).toBe(stoppedAt);

    await pointAt(a, 'staging', a.sandbox.baseUrl);
    await expect
      .poll(async () => value(await a.api.bulkCancel.status('staging'))?.status, {
        timeout: 20_000,
      })
      .toBe('finished');
    const results = value(await a.api.bulkCancel.results('staging'));
    expect(results.map((r) => r.orderId).sort()).toEqual([...ids].sort());
    expect(results.every((r) => r.outcome === 'cancelled')).toBe(true);
    // Each order cancelled once at A: none sent twice, none sent to B.
    expect(deletesAtA()).toBe(30);
    expect(b.requestLog.filter((r) => r.method === 'DELETE')).toHaveLength(3);
    // The log is written after the journal's answer (the journal is the truth), so the last
    // worker may still be appending when the job reads finished: the log follows at once.
    await expect
      .poll(async () =>
        value(await a.api.cancelLog.list('staging'))
          .map((e) => e.orderId)
          .sort(),
      )
      .toEqual([...ids].sort());
  });

  it('keeps the sandbox’s data when its port changes at the next start', async () => {
    const first = await app();
    const listed = await first.readList('orders:list', 'sandbox');
    const [id] = first.sandbox.orderIds();
    value(await first.api.reviewMarks.set('sandbox', id!, { reviewed: true, note: 'seen' }));
    const port = new URL(first.sandbox.baseUrl).port;
    await first.close();
    apps.splice(0);

    const second = await app();
    expect(new URL(second.sandbox.baseUrl).port).not.toBe(port);
    const cached = await second.readList('orders:cached', 'sandbox');
    expect(cached.orders.length).toBeGreaterThan(0);
    expect(cached.orders).toEqual(listed.orders);
    expect(value(await second.api.reviewMarks.list('sandbox'))[id!]?.note).toBe('seen');
  });

  it('reads files from before this change as the data of the address set then', async () => {
    const service = await otherService();
    const b = await otherService();
    // What an earlier version left: files named after the environment alone.
    const scope = serviceScope('production', service.baseUrl);
    const cache = new OrderCache(dataDir);
    const body =
      '[{"id":5,"petId":1,"quantity":1,"shipDate":"2026-01-01T00:00:00Z","complete":false}]';
    await cache.write({
      environment: 'production',
      baseUrl: service.baseUrl,
      receivedAt: 1000,
      count: 1,
      body,
    });
    await rename(cache.fileOf(scope), join(dataDir, 'orders-production.cache'));
    await writeFile(
      join(dataDir, 'review-marks-production.json'),
      JSON.stringify({ version: 1, marks: { '5': { reviewed: true, note: 'old', updatedAt: 1 } } }),
    );
    await writeFile(
      join(dataDir, 'cancel-log-production.jsonl'),
      `${JSON.stringify({ at: 1, environment: 'production', orderId: '5', result: 'cancelled', message: 'Cancelled.' })}\n`,
    );

    const a = await app({
      settings: { activeEnvironment: 'production', baseUrls: { production: service.baseUrl } },
    });
    const cached = await a.readList('orders:cached', 'production');
    expect(cached.orders).toEqual(parseOrders(body));
    expect(value(await a.api.reviewMarks.list('production'))['5']?.note).toBe('old');
    expect(value(await a.api.cancelLog.list('production'))).toHaveLength(1);

    await pointAt(a, 'production', b.baseUrl);
    expect(value(await a.api.reviewMarks.list('production'))).toEqual({});
    await pointAt(a, 'production', service.baseUrl);
    expect(value(await a.api.reviewMarks.list('production'))['5']?.note).toBe('old');
  });

  it('asks for the address first when a remote environment has none', async () => {
    const a = await app();
    for (const call of [
      a.api.reviewMarks.set('staging', '1', { reviewed: true, note: '' }),
      a.api.bulkCancel.start('staging', ['1']),
    ]) {
      expect(await call).toMatchObject({
        ok: false,
        error: { kind: 'invalid-input', message: expect.stringContaining('Staging address') },
      });
    }
    expect(value(await a.api.reviewMarks.list('staging'))).toEqual({});
    expect(value(await a.api.bulkCancel.status('staging'))).toBeNull();
  });
});
