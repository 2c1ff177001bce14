// The app and the CLI on one computer, with one key: a bulk cancel in each,
// at once, pace as one client through the shared gate file, so no 429 comes
// back and the pair still uses the plan's rate. Real processes on the real
// clock, so it is in the heavy tier; the window is 10 s (60 requests, 6 a
// second for the two), a rate a slow or busy machine keeps with room to
// spare (this 2-core machine kept 23 a second under a load of 9).

import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/main/sandbox/server.ts';
import { desktopApp } from '../../tools/reliability/desktop-app.ts';

const WINDOW_MS = 10_000;
const PER_WINDOW = 60; // the Free plan's

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function cancelFrom(file: string, baseUrl: string, dataDir: string) {
  return new Promise<number>((resolve) => {
    execFile(
      process.execPath,
      ['bin/store-admin.js', 'orders', 'cancel', '--from', file, '--json', '--base-url', baseUrl],
      {
        env: { ...process.env, STORE_ADMIN_API_KEY: 'demo-free', STORE_ADMIN_DATA_DIR: dataDir },
        timeout: 240_000,
      },
      (error) => resolve(error ? Number((error as { code?: unknown }).code ?? -1) : 0),
    );
  });
}

describe('the app and the CLI on one computer, one key', () => {
  it('bulk-cancel together through the shared gate file: no 429, at least 90% of the rate', async () => {
    const store = await startSandbox({ port: 0, orders: 600, minuteMs: WINDOW_MS });
    cleanups.push(() => store.close());
    const dir = mkdtempSync(join(tmpdir(), 'app-and-cli-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const pending = store.orderIds({ status: 'pending' });
    const file = join(dir, 'ids.txt');
    writeFileSync(file, `${pending.slice(0, 120).join('\n')}\n`);
    // The app (its data folder is the CLI's: one computer) and a CLI process, at once.
    const app = desktopApp(store, { key: 'demo-free', dataDir: dir });
    cleanups.push(() => app.close());
    const queue = (await app.services.bulkCancelOf('sandbox'))!;
    const cli = cancelFrom(file, store.baseUrl, dir);
    await queue.start(pending.slice(120, 240));
    const [code] = await Promise.all([cli, queue.idle()]);
    expect(code).toBe(0);
    expect(queue.snapshot()).toMatchObject({ status: 'finished', counts: { cancelled: 120 } });
    // One gate record for the two: they paced as one client.
    expect(readdirSync(join(dir, 'quota')).filter((n) => n.endsWith('.json'))).toHaveLength(1);
    const deletes = store.requestLog.filter((r) => r.method === 'DELETE');
    expect(deletes.filter((r) => r.status === 429)).toHaveLength(0);
    const windows = new Map<number, number>();
    for (const entry of deletes) {
      const window = Math.floor(entry.at / WINDOW_MS);
      windows.set(window, (windows.get(window) ?? 0) + 1);
    }
    // The windows between the first and the last, which the two had whole.
    const full = [...windows.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, n]) => n)
      .slice(1, -1);
    expect(full.length).toBeGreaterThan(0);
    const ratio = full.reduce((a, b) => a + b, 0) / full.length / PER_WINDOW;
    console.log(`app and CLI: ${JSON.stringify({ perWindow: full, ratio })}`);
    expect(ratio).toBeGreaterThanOrEqual(0.9);
  }, 300_000);
});
