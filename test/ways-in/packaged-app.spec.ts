// `npm run package:dir` in a fresh checkout (with the electron package's
// Electron where it is installed, else the Electron stand-in through
// ELECTRON_OVERRIDE_DIST_PATH), then the packaged app started as a user
// starts it: it loads its app.asar, is packaged (no developer menu), and
// lists the Sandbox's orders. Its fuses were flipped while packaging: it
// loads the app only from the asar, ignores ELECTRON_RUN_AS_NODE, and takes
// no --inspect, so Playwright's Electron driver cannot reach its main
// process; its window is reached over Chromium's DevTools instead
// (--remote-debugging-port, which no fuse turns off).

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appHome,
  canRunApp,
  itNeedsStandin,
  openPackagedApp,
  runCommand,
  type AppHome,
  type PackagedRun,
} from '../e2e/support/electron-app.ts';
import { freshCheckout } from '../e2e/support/standin.ts';

let checkout: Awaited<ReturnType<typeof freshCheckout>>;
let home: AppHome;
let packaging: { code: number; output: string };
let run: PackagedRun | undefined;

/** The unpacked app's folder, its executable and the file with its fuses, as electron-builder lays them out on each system. */
function unpacked(): { dir: string; executable: string; fuses: string } {
  const dist = join(checkout.dir, 'dist');
  if (process.platform === 'darwin') {
    const dir = join(dist, readdirSync(dist).find((name) => /^mac(-\w+)?$/.test(name)) ?? 'mac');
    const app = join(dir, 'Store Admin.app');
    return {
      dir,
      executable: join(app, 'Contents', 'MacOS', 'Store Admin'),
      fuses: join(
        app,
        'Contents',
        'Frameworks',
        'Electron Framework.framework',
        'Electron Framework',
      ),
    };
  }
  if (process.platform === 'win32') {
    const dir = join(dist, 'win-unpacked');
    const executable = join(dir, 'Store Admin.exe');
    return { dir, executable, fuses: executable };
  }
  const dir = join(dist, 'linux-unpacked');
  const executable = join(dir, 'store-admin');
  return { dir, executable, fuses: executable };
}

/** Where the asar is: beside the executable's resources, or inside the .app on macOS. */
function asar(): string {
  return process.platform === 'darwin'
    ? join(unpacked().executable, '..', '..', 'Resources', 'app.asar')
    : join(unpacked().dir, 'resources', 'app.asar');
}

describe.skipIf(!canRunApp)('the packaged app', () => {
  beforeAll(async () => {
    checkout = await freshCheckout();
    home = appHome({
      ELECTRON_OVERRIDE_DIST_PATH: join(checkout.dir, 'tools', 'electron-standin', 'dist'),
    });
    packaging = await runCommand(['npm', 'run', 'package:dir'], { cwd: checkout.dir, home });
  });
  afterAll(async () => {
    await run?.stop();
    home?.remove();
    checkout?.remove();
  });

  it('packages with npm run package:dir', () => {
    expect(packaging.code, packaging.output).toBe(0);
    expect(packaging.output).toContain(`Fuses flipped in ${unpacked().fuses}.`);
    expect(existsSync(unpacked().executable)).toBe(true);
    expect(existsSync(asar())).toBe(true);
  });

  it('starts, loads its asar and lists the Sandbox orders, as the app even when asked to be Node', async () => {
    // With its RunAsNode fuse off, ELECTRON_RUN_AS_NODE changes nothing: the app starts.
    run = await openPackagedApp(unpacked().executable, {
      cwd: checkout.dir,
      home,
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
    const { page } = run;
    expect(page.url()).toMatch(/^file:\/\/.*\/out\/renderer\/index\.html$/);
    await page
      .getByRole('grid', { name: 'Sandbox orders' })
      .locator('[role="row"][aria-rowindex="2"]')
      .waitFor({ timeout: 60_000 });
    await expect
      .poll(() => page.locator('.view-count').textContent(), { timeout: 30_000 })
      .toBe('Showing 1,000 of 1,000 orders');
  });

  itNeedsStandin(
    'is packaged: no developer menu',
    'a fused app keeps its main process closed to the driver, and the stand-in reports its menu',
    async () => {
      const state = (await run!.standin().state()) as unknown as {
        isPackaged: boolean;
        menu: { label: string; submenu?: { label: string }[] }[];
      };
      expect(state.isPackaged).toBe(true);
      const view = state.menu.find((item) => item.label === 'View')!;
      expect(view.submenu!.map((item) => item.label)).not.toContain('Toggle Developer Tools');
    },
  );

  it('quits when its window is closed, with exit code 0', async () => {
    await run!.page.close();
    // A macOS app stays without windows, as the platform's apps do; it is asked to quit instead.
    if (process.platform === 'darwin') process.kill(run!.pid, 'SIGTERM');
    expect(await run!.exited).toBe(0);
  });
});
