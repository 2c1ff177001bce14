// One computer, one history: the command line keeps its lists and cancel
// log in the app's data folder, as the app's own data for the address. A
// cancel from a shell is "already cancelled at HH:MM" in the app and
// "Cancelled here" in its changes, and the other way round. What the
// command line of 0.2.0 to 0.4.0 kept in a folder of its own is merged in
// once (the corpus's 0.4.0 folder, laid out where a clerk's computer has it).

import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliDataDir } from '../../src/cli/data-folder.ts';
import { earlierCliListsFolder } from '../../src/main/local-data/earlier-cli-lists.ts';
import { DATA_FOLDER_NAME } from '../../src/main/desktop/app-identity.ts';
import { parseSettings } from '../../src/main/environments/settings.ts';
import { type Sandbox } from '../../src/main/sandbox/server.ts';
import { runCliProcess } from '../support/cli-process.ts';
import { startInProcessApp, type InProcessApp } from '../support/in-process-app.ts';
import { useScratch } from '../support/scratch.ts';

const KEY = 'demo-pro';
const ALREADY = /already cancelled at \d{1,2}:\d{2}/;
const scratch = useScratch('one-history');
const { folder } = scratch;
const sandbox = (): Promise<Sandbox> => scratch.sandbox({ orders: 30 });
const app = (dataDir: string, baseUrl: string): Promise<InProcessApp> =>
  scratch.productionApp(dataDir, baseUrl, KEY);

/** The command line on the app's data folder, as on a clerk's computer (no cache folder of its own). */
function cli(dataDir: string, baseUrl: string, ...args: string[]) {
  return runCliProcess([...args, '--base-url', baseUrl, '--json'], {
    STORE_ADMIN_API_KEY: KEY,
    STORE_ADMIN_DATA_DIR: dataDir,
    STORE_ADMIN_CACHE_DIR: undefined,
  });
}

describe('the app and the command line on one computer', () => {
  it('a cancel from a shell is "already cancelled at HH:MM" in the app, and "Cancelled here" in its changes', async () => {
    const store = await sandbox();
    const dataDir = folder();
    const { api, readList } = await app(dataDir, store.baseUrl);
    await readList('orders:list', 'production');
    const [id] = store.orderIds({ status: 'pending' });

    const cancelled = await cli(dataDir, store.baseUrl, 'orders', 'cancel', id!);
    expect(cancelled.code).toBe(0);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ outcome: 'cancelled' });

    await readList('orders:list', 'production');
    const changes = await api.changes.get('production');
    expect(changes).toMatchObject({ ok: true, value: { kind: 'compared' } });
    const gone = changes.ok && changes.value.kind === 'compared' ? changes.value.gone : [];
    expect(gone).toEqual([
      expect.objectContaining({
        order: expect.objectContaining({ id }),
        how: 'cancelled-here',
        cancelledAt: expect.any(Number),
      }),
    ]);
    const again = await api.orders.cancel('production', id!);
    expect(again).toMatchObject({ ok: true, value: { kind: 'not-found' } });
    expect(again.ok && again.value.message).toMatch(ALREADY);
  });

  it('a cancel from the app is "already cancelled at HH:MM" in a shell, and "cancelled from this computer" in its changes', async () => {
    const store = await sandbox();
    const dataDir = folder();
    const { api } = await app(dataDir, store.baseUrl);
    expect((await cli(dataDir, store.baseUrl, 'orders', 'list')).code).toBe(0);
    const [id] = store.orderIds({ status: 'pending' });
    expect(await api.orders.cancel('production', id!)).toMatchObject({
      ok: true,
      value: { kind: 'cancelled' },
    });

    const again = await cli(dataDir, store.baseUrl, 'orders', 'cancel', id!);
    expect(again.code).toBe(3);
    expect(JSON.parse(again.stdout)).toMatchObject({ outcome: 'not-found' });
    expect((JSON.parse(again.stdout) as { message: string }).message).toMatch(ALREADY);

    expect((await cli(dataDir, store.baseUrl, 'orders', 'list')).code).toBe(0);
    const changes = await cli(dataDir, store.baseUrl, 'orders', 'changes');
    expect(JSON.parse(changes.stdout)).toMatchObject({
      gone: [expect.objectContaining({ id, how: 'cancelled-here' })],
    });
    // The app's own changes say the same of the list the shell saved.
    const inApp = await api.changes.get('production');
    const gone = inApp.ok && inApp.value.kind === 'compared' ? inApp.value.gone : [];
    expect(gone.map((g) => [g.order.id, g.how])).toEqual([[id, 'cancelled-here']]);
  });
});

describe("the command line's own folder of 0.4.0", () => {
  it("is merged into the app's data folder on the first run, once, nothing lost", async () => {
    const corpus = join(import.meta.dirname, '..', 'fixtures', 'releases', '0.4.0');
    const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8')) as {
      app: { settings: { baseUrls: { production: string } }; cancels: { orderId: string }[] };
      cli: { cancelled: string; cancelledElsewhere: string[] };
    };
    // A clerk's computer: the app's folder and the command line's cache folder where 0.4.0 had them
    // on this system (every variable that places them points into the test's home).
    const home = folder();
    const env = {
      HOME: home,
      USERPROFILE: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      APPDATA: join(home, 'AppData', 'Roaming'),
      LOCALAPPDATA: join(home, 'AppData', 'Local'),
      STORE_ADMIN_DATA_DIR: undefined,
      STORE_ADMIN_CACHE_DIR: undefined,
      STORE_ADMIN_API_KEY: KEY,
    };
    const dataDir = cliDataDir(env, process.platform, home);
    const userData = dirname(dataDir);
    expect(basename(userData)).toBe(DATA_FOLDER_NAME);
    const cliCache = earlierCliListsFolder(env, process.platform, home)!;
    expect(cliCache.startsWith(home)).toBe(true);
    mkdirSync(dirname(cliCache), { recursive: true });
    cpSync(join(corpus, 'app'), userData, { recursive: true });
    cpSync(join(corpus, 'cli-cache'), cliCache, { recursive: true });
    const url = manifest.app.settings.baseUrls.production;

    // Sends nothing: the saved lists alone.
    const run = await runCliProcess(['orders', 'changes', '--base-url', url, '--json'], env);
    expect(run.code).toBe(0);
    const gone = Object.fromEntries(
      (JSON.parse(run.stdout) as { gone: { id: string; how: string }[] }).gone.map((g) => [
        g.id,
        g.how,
      ]),
    );
    // The command line's two lists were the newest: they are the address's lists now.
    expect(gone[manifest.cli.cancelled]).toBe('cancelled-here');
    for (const id of manifest.cli.cancelledElsewhere) expect(gone[id]).toBe('left');
    expect(existsSync(cliCache)).toBe(false);

    // The app sees the command line's cancels beside its own.
    const stored = JSON.parse(readFileSync(join(userData, 'settings.json'), 'utf8')) as {
      settings: unknown;
    };
    const opened = await startInProcessApp({ dataDir, settings: parseSettings(stored.settings) });
    scratch.later(() => opened.close());
    const { api } = opened;
    const log = await api.cancelLog.list('production');
    const ids = log.ok ? log.value.map((entry) => entry.orderId) : [];
    expect(ids).toContain(manifest.cli.cancelled);
    for (const cancel of manifest.app.cancels) expect(ids).toContain(cancel.orderId);
    // In the order of their times, each once.
    const times = log.ok ? log.value.map((entry) => entry.at) : [];
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(log.ok ? log.value.map((e) => `${e.at} ${e.orderId}`) : []).size).toBe(
      ids.length,
    );
  });
});
