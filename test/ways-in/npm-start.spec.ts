// `npm start` as a user runs it, in a fresh checkout (no out/: nothing built
// first), opened through Playwright's Electron driver with `npm start` as
// the Electron it launches (its switches go through to the Electron npm
// start runs): the electron package's own binary where it is installed,
// else the Electron stand-in through ELECTRON_OVERRIDE_DIST_PATH. It builds,
// the window opens, the built-in Sandbox's orders arrive through the real
// preload and its MessagePort, and Quit from the menu ends it with exit
// code 0. With UPDATE_SCREENSHOTS=1 it photographs the window at 1280×800 in
// both themes for docs/screenshots.

import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appHome,
  canRunApp,
  electronUnderTest,
  launchApp,
  npmAsElectron,
  type AppHome,
  type AppRun,
} from '../e2e/support/electron-app.ts';
import { freshCheckout } from '../e2e/support/standin.ts';

let checkout: Awaited<ReturnType<typeof freshCheckout>>;
let home: AppHome;
let run: AppRun;

describe.skipIf(!canRunApp)(
  `npm start from a fresh checkout, on ${electronUnderTest.kind === 'electron' ? 'Electron' : 'the Electron stand-in'}`,
  () => {
    beforeAll(async () => {
      checkout = await freshCheckout();
      home = appHome({
        ELECTRON_OVERRIDE_DIST_PATH: join(checkout.dir, 'tools', 'electron-standin', 'dist'),
      });
      const npmStart = npmAsElectron('start');
      // It builds first: a long start.
      run = await launchApp({
        home,
        app: null,
        cwd: checkout.dir,
        executablePath: npmStart.executablePath,
        env: npmStart.env,
        timeoutMs: 180_000,
      });
    });
    afterAll(async () => {
      await run?.stop();
      home?.remove();
      checkout?.remove();
    });

    it('builds, opens the window and shows the Sandbox orders that came over the port', async () => {
      const page = await run.page(120_000);
      // Node runs main from its real path (macOS's temporary folder is behind a symbolic link).
      expect(page.url()).toBe(
        pathToFileURL(join(realpathSync.native(checkout.dir), 'out', 'renderer', 'index.html'))
          .href,
      );
      const grid = page.getByRole('grid', { name: 'Sandbox orders' });
      await grid.locator('[role="row"][aria-rowindex="2"]').waitFor({ timeout: 60_000 });
      await expect
        .poll(() => page.locator('.view-count').textContent(), { timeout: 30_000 })
        .toBe('Showing 1,000 of 1,000 orders');
      // The page's own world has the preload's API and nothing of Node or Electron.
      expect(
        await page.evaluate(() => ({
          api: typeof (window as unknown as { storeAdmin?: unknown }).storeAdmin,
          require: typeof (window as unknown as { require?: unknown }).require,
          process: typeof (window as unknown as { process?: unknown }).process,
        })),
      ).toEqual({ api: 'object', require: 'undefined', process: 'undefined' });
      const windows = await run.windows();
      expect(windows).toHaveLength(1);
      expect(windows[0]!.visible).toBe(true);

      if (process.env.UPDATE_SCREENSHOTS) {
        await page.setViewportSize({ width: 1280, height: 800 });
        const shots = join(import.meta.dirname, '../../docs/screenshots');
        await page.screenshot({ path: join(shots, 'standin-start-light.png') });
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.waitForTimeout(200);
        await page.screenshot({ path: join(shots, 'standin-start-dark.png') });
        await page.emulateMedia({ colorScheme: null });
      }
    });

    it('quits from the menu with exit code 0', async () => {
      await run.quitFromMenu();
      expect(await run.exited).toBe(0);
    });
  },
);
