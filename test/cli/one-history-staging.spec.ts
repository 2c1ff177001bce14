// One history for Staging too: the command line keeps an address under the
// environment the app has it in, so an address the app has under Staging
// shares Staging's lists and cancel log (found from outside: the command
// line kept every address under Production's name, a history of its own
// beside the app's Staging). `--env` says which when the app cannot tell.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/main/environments/environment-service.ts';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import type { EnvironmentId, RemoteEnvironmentId } from '../../src/shared/environments.ts';
import { runCliProcess } from '../support/cli-process.ts';
import { startInProcessApp, type InProcessApp } from '../support/in-process-app.ts';

const KEY = 'demo-pro';
const ALREADY = /already cancelled at \d{1,2}:\d{2}/;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(): Promise<Sandbox> {
  const started = await startSandbox({ port: 0, orders: 30 });
  cleanups.push(() => started.close());
  return started;
}

/**
 * The app's userData folder as the app lays it out: its settings
 * (electron-store's settings.json) beside the data folder, `local-data`.
 */
function userData(settings?: Settings): string {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-staging-history-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'local-data'));
  if (settings) writeFileSync(join(dir, 'settings.json'), JSON.stringify({ settings }));
  return join(dir, 'local-data');
}

async function app(
  dataDir: string,
  settings: Settings,
  keyed: RemoteEnvironmentId[],
): Promise<InProcessApp> {
  const started = await startInProcessApp({ dataDir, settings });
  cleanups.push(() => started.close());
  for (const environment of keyed) await started.api.keys.set(environment, KEY);
  return started;
}

function cli(dataDir: string, baseUrl: string, ...args: string[]) {
  return runCliProcess([...args, '--base-url', baseUrl, '--json'], {
    STORE_ADMIN_API_KEY: KEY,
    STORE_ADMIN_DATA_DIR: dataDir,
    STORE_ADMIN_CACHE_DIR: undefined,
  });
}

async function goneIn(api: InProcessApp['api'], environment: EnvironmentId) {
  const changes = await api.changes.get(environment);
  const gone = changes.ok && changes.value.kind === 'compared' ? changes.value.gone : [];
  return gone.map((g) => [g.order.id, g.how]);
}

describe('an address the app has under Staging', () => {
  it('a cancel from a shell is "already cancelled at HH:MM" in the app’s Staging, and "Cancelled here" in its changes', async () => {
    const store = await sandbox();
    const settings: Settings = {
      activeEnvironment: 'staging',
      baseUrls: { staging: store.baseUrl },
    };
    const dataDir = userData(settings);
    const { api, readList } = await app(dataDir, settings, ['staging']);
    await readList('orders:list', 'staging');
    const [id] = store.orderIds({ status: 'pending' });

    const cancelled = await cli(dataDir, store.baseUrl, 'orders', 'cancel', id!);
    expect(cancelled.code).toBe(0);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ outcome: 'cancelled' });

    await readList('orders:list', 'staging');
    expect(await goneIn(api, 'staging')).toEqual([[id, 'cancelled-here']]);
    const again = await api.orders.cancel('staging', id!);
    expect(again).toMatchObject({ ok: true, value: { kind: 'not-found' } });
    expect(again.ok && again.value.message).toMatch(ALREADY);
  });

  it('a cancel from the app’s Staging is "already cancelled at HH:MM" in a shell, and the shell’s lists are Staging’s', async () => {
    const store = await sandbox();
    const settings: Settings = {
      activeEnvironment: 'staging',
      baseUrls: { staging: store.baseUrl },
    };
    const dataDir = userData(settings);
    const { api } = await app(dataDir, settings, ['staging']);
    expect((await cli(dataDir, store.baseUrl, 'orders', 'list')).code).toBe(0);
    const [id] = store.orderIds({ status: 'pending' });
    expect(await api.orders.cancel('staging', id!)).toMatchObject({
      ok: true,
      value: { kind: 'cancelled' },
    });

    const again = await cli(dataDir, store.baseUrl, 'orders', 'cancel', id!);
    expect(again.code).toBe(3);
    expect((JSON.parse(again.stdout) as { message: string }).message).toMatch(ALREADY);

    expect((await cli(dataDir, store.baseUrl, 'orders', 'list')).code).toBe(0);
    const changes = await cli(dataDir, store.baseUrl, 'orders', 'changes');
    expect(JSON.parse(changes.stdout)).toMatchObject({
      gone: [expect.objectContaining({ id, how: 'cancelled-here' })],
    });
    // The two lists the shell saved are the app's Staging lists.
    expect(await goneIn(api, 'staging')).toEqual([[id, 'cancelled-here']]);
  });

  it('a bulk cancel from a shell is logged in Staging’s cancel log', async () => {
    const store = await sandbox();
    const settings: Settings = {
      activeEnvironment: 'staging',
      baseUrls: { staging: store.baseUrl },
    };
    const dataDir = userData(settings);
    const ids = store.orderIds({ status: 'pending' }).slice(0, 3);
    const file = join(dataDir, '..', 'ids.txt');
    writeFileSync(file, `${ids.join('\n')}\n`);
    expect((await cli(dataDir, store.baseUrl, 'orders', 'cancel', '--from', file)).code).toBe(0);

    const { api } = await app(dataDir, settings, ['staging']);
    const log = await api.cancelLog.list('staging');
    // In the order the answers came (two at a time), each once.
    expect(log.ok && log.value.map((entry) => [entry.orderId, entry.result])).toEqual(
      expect.arrayContaining(ids.map((id) => [id, 'cancelled'])),
    );
    expect(log.ok && log.value).toHaveLength(ids.length);
  });
});

describe('--env', () => {
  it('keeps the address under Staging when the app cannot tell (a data folder of its own), and Production is apart', async () => {
    const store = await sandbox();
    const dataDir = userData(); // no settings beside it
    const [first, second] = store.orderIds({ status: 'pending' });
    expect(
      (await cli(dataDir, store.baseUrl, 'orders', 'cancel', first!, '--env', 'staging')).code,
    ).toBe(0);
    expect((await cli(dataDir, store.baseUrl, 'orders', 'cancel', second!)).code).toBe(0);

    const settings: Settings = {
      activeEnvironment: 'staging',
      baseUrls: { staging: store.baseUrl, production: store.baseUrl },
    };
    const { api } = await app(dataDir, settings, ['staging', 'production']);
    const logged = async (environment: EnvironmentId) => {
      const log = await api.cancelLog.list(environment);
      return log.ok ? log.value.map((entry) => entry.orderId) : [];
    };
    expect(await logged('staging')).toEqual([first]);
    expect(await logged('production')).toEqual([second]);
  });

  it('an address both environments of the app have is Production’s unless --env says Staging', async () => {
    const store = await sandbox();
    const settings: Settings = {
      activeEnvironment: 'staging',
      baseUrls: { staging: store.baseUrl, production: store.baseUrl },
    };
    const dataDir = userData(settings);
    const [first, second] = store.orderIds({ status: 'pending' });
    expect((await cli(dataDir, store.baseUrl, 'orders', 'cancel', first!)).code).toBe(0);
    expect(
      (await cli(dataDir, store.baseUrl, 'orders', 'cancel', second!, '--env=staging')).code,
    ).toBe(0);
    const { api } = await app(dataDir, settings, ['staging', 'production']);
    const staging = await api.cancelLog.list('staging');
    const production = await api.cancelLog.list('production');
    expect(staging.ok && staging.value.map((entry) => entry.orderId)).toEqual([second]);
    expect(production.ok && production.value.map((entry) => entry.orderId)).toEqual([first]);
  });

  it('takes production or staging, nothing else', async () => {
    const run = await runCliProcess(
      ['orders', 'changes', '--base-url', 'http://127.0.0.1:9/v1', '--env', 'sandbox'],
      { STORE_ADMIN_DATA_DIR: userData() },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('store-admin: --env is production or staging. Try --help.\n');
  });
});
