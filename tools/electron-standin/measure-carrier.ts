// How fast the stand-in's carrier (main → the preload's world → the page)
// takes an order list, two ways:
// - the app (default): the real built main bundle and preload, a sandbox of
//   N orders as Staging, unthrottled on loopback, timed in the page from
//   choosing Staging to the whole list shown. The download, main's parsing
//   and the page's own work are in the figure too, the same for any carrier.
// - the carrier alone (--carrier-only): a small app of its own posts what
//   the app's stream posts for N orders (about 45 bytes of columns a row, in
//   parts of 100,000 rows, on a MessageChannelMain port handed to the page as
//   the app's preload hands it), timed from main's first post to the last
//   part in the page's world.
//
//   npm run build
//   node tools/electron-standin/measure-carrier.ts [--orders 1000000] [--runs 3] [--carrier-only] [--standin DIR ...]
//
// Each --standin names a stand-in's dist folder (default: this one); with
// several, the runs alternate between them (A, B, A, B, ...), so a busy
// machine's load falls on each alike.

import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { startSandbox } from '../../src/main/sandbox/server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const KEY = 'stg-measure-carrier-Key-31';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '3' },
    'carrier-only': { type: 'boolean', default: false },
    standin: { type: 'string', multiple: true, default: [join(import.meta.dirname, 'dist')] },
  },
});
const orders = Number(values.orders);
const runs = Number(values.runs);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Rows per part, and bytes a row takes of each column (screen-columns.ts's ScreenColumns). */
const PART_ROWS = 100_000;

/** The carrier-only app: main posts the parts on a port the preload hands to the page. */
function carrierApp(dir: string, rows: number): void {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'carrier', main: 'main.mjs' }));
  writeFileSync(
    join(dir, 'main.mjs'),
    `import { app, BrowserWindow, MessageChannelMain } from 'electron';
import { join } from 'node:path';
const now = () => performance.timeOrigin + performance.now();
app.whenReady().then(() => {
  const window = new BrowserWindow({ webPreferences: { preload: join(import.meta.dirname, 'preload.cjs'), sandbox: true } });
  window.webContents.once('did-finish-load', () => {
    const { port1, port2 } = new MessageChannelMain();
    window.webContents.postMessage('port', null, [port1]);
    port2.postMessage({ kind: 'start', at: now(), rows: ${rows} });
    for (let from = 0; from < ${rows}; from += ${PART_ROWS}) {
      const count = Math.min(${PART_ROWS}, ${rows} - from);
      port2.postMessage({
        kind: 'rows',
        from,
        columns: {
          count,
          idText: new Uint8Array(count * 16).fill(48),
          lineStarts: new Uint32Array(count + 1).map((_, i) => i * 16),
          tabs: new Uint32Array(count).fill(7),
          quantities: new Float64Array(count).fill(2),
          shipTimes: new Float64Array(count).fill(1.7e12),
          shipForms: new Uint8Array(count).fill(1),
        },
      });
    }
  });
  void window.loadFile(join(import.meta.dirname, 'index.html'));
});
`,
  );
  writeFileSync(
    join(dir, 'preload.cjs'),
    `const { ipcRenderer } = require('electron');
ipcRenderer.on('port', (event) => window.postMessage('port', '*', event.ports));
`,
  );
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><script>
window.addEventListener('message', (event) => {
  if (event.data !== 'port') return;
  let start = 0, rows = 0, bytes = 0;
  event.ports[0].onmessage = ({ data }) => {
    if (data.kind === 'start') { start = data.at; rows = data.rows; return; }
    for (const column of Object.values(data.columns)) if (column.byteLength) bytes += column.byteLength;
    if (data.from + data.columns.count >= rows)
      window.carrier = { ms: performance.timeOrigin + performance.now() - start, bytes };
  };
});
</script></head><body>carrier</body></html>`,
  );
}

/**
 * Ms through the stand-in in `dist`: choosing Staging to the whole list
 * shown (the app), or main's first post to the last part in the page (the
 * carrier only).
 */
async function once(dist: string, baseUrl: string | undefined): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), 'measure-carrier-'));
  const control = join(home, 'control');
  mkdirSync(control);
  const appDir = baseUrl === undefined ? join(home, 'app') : ROOT;
  if (baseUrl === undefined) {
    mkdirSync(appDir);
    carrierApp(appDir, orders);
  }
  const child = spawn(join(dist, 'electron'), ['.'], {
    cwd: appDir,
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
      ELECTRON_OVERRIDE_DIST_PATH: dist,
      ELECTRON_STANDIN_HEADLESS: '1',
      ELECTRON_STANDIN_PASSWORD_STORE: 'gnome_libsecret',
      ELECTRON_STANDIN_CONTROL: control,
    },
    stdio: 'ignore',
    detached: true,
  });
  try {
    let devtools: string | undefined;
    for (let waited = 0; !devtools && waited < 120_000; waited += 100) {
      const name = readdirSync(control).find((n) => /^standin-\d+\.json$/.test(n));
      if (name)
        devtools = (JSON.parse(readFileSync(join(control, name), 'utf8')) as { devtools?: string })
          .devtools;
      if (!devtools) await sleep(100);
    }
    if (!devtools) throw new Error('the stand-in did not start');
    const browser = await chromium.connectOverCDP(devtools);
    let page = browser
      .contexts()[0]
      ?.pages()
      .find((p) => p.url().startsWith('file:'));
    for (let waited = 0; !page && waited < 60_000; waited += 100) {
      await sleep(100);
      page = browser
        .contexts()[0]
        ?.pages()
        .find((p) => p.url().startsWith('file:'));
    }
    if (!page) throw new Error('no window');
    if (baseUrl === undefined) {
      const { ms, bytes } = await page.evaluate(async () => {
        const deadline = performance.now() + 600_000;
        const state = window as unknown as { carrier?: { ms: number; bytes: number } };
        while (!state.carrier && performance.now() < deadline)
          await new Promise((r) => setTimeout(r, 20));
        return state.carrier ?? { ms: Number.NaN, bytes: 0 };
      });
      console.log(`  ${(bytes / 1e6).toFixed(1)} MB of columns`);
      await browser.close().catch(() => undefined);
      return ms;
    }
    await page.locator('.view-count').waitFor({ timeout: 60_000 });
    await page.evaluate(
      async ([url, key]) => {
        const api = (
          window as unknown as {
            storeAdmin: {
              environments: { setBaseUrl(e: string, u: string): Promise<unknown> };
              keys: { set(e: string, k: string, o: object): Promise<unknown> };
            };
          }
        ).storeAdmin;
        await api.environments.setBaseUrl('staging', url!);
        await api.keys.set('staging', key!, {});
      },
      [baseUrl, KEY],
    );
    const radio = page.getByRole('radio', { name: 'Staging' });
    await radio.waitFor();
    const whole = `Showing ${orders.toLocaleString('en')} of ${orders.toLocaleString('en')} orders`;
    // Clicked and watched in the page, frame by frame, on the page's own clock.
    await radio.evaluate((element) => {
      const state = window as unknown as { measured?: number; startedAt?: number };
      state.startedAt = performance.now();
      (element as HTMLElement).click();
    });
    const ms = await page.evaluate(async (text) => {
      const state = window as unknown as { startedAt: number };
      const deadline = performance.now() + 600_000;
      while (performance.now() < deadline) {
        if (document.querySelector('.view-count')?.textContent?.trim() === text)
          return performance.now() - state.startedAt;
        await new Promise((r) => requestAnimationFrame(() => r(undefined)));
      }
      return Number.NaN;
    }, whole);
    await browser.close().catch(() => undefined);
    return ms;
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // gone already
    }
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(undefined)));
    rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

const carrierOnly = values['carrier-only'];
if (!carrierOnly && !existsSync(join(ROOT, 'out/main/index.js')))
  throw new Error('run "npm run build" first');
const sandbox = await startSandbox({
  port: 0,
  orders,
  keys: [{ plan: 'enterprise', key: KEY }],
  enterpriseLimits: { perMinute: 100_000, perDay: 10_000_000 },
});
const results = new Map<string, number[]>(values.standin.map((dist) => [dist, []]));
try {
  for (let run = 0; run < runs; run++) {
    for (const dist of values.standin) {
      const ms = await once(resolve(dist), carrierOnly ? undefined : sandbox.baseUrl);
      results.get(dist)!.push(ms);
      console.log(
        `${dist}: ${orders.toLocaleString('en')} orders ${carrierOnly ? 'through the carrier' : 'whole'} in ${ms.toFixed(0)} ms (load ${loadavg()[0]!.toFixed(1)})`,
      );
    }
  }
} finally {
  await sandbox.close();
}
for (const [dist, times] of results) {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `${dist}: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms of ${times.map((t) => t.toFixed(0)).join(', ')}`,
  );
}
