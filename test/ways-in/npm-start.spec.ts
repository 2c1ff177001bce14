// `npm start` as a user runs it, in a fresh checkout (no out/: nothing built
// first) with ELECTRON_OVERRIDE_DIST_PATH on the Electron stand-in: it builds,
// the window opens, the built-in Sandbox's orders arrive through the real
// preload and its MessagePort, and File > Quit ends it with exit code 0.
// With UPDATE_SCREENSHOTS=1 it photographs the window at 1280×800 in both
// themes for docs/screenshots.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../../tools/browser/chromium.ts';
import {
  freshCheckout,
  standinHome,
  startStandin,
  type StandinHome,
  type StandinRun,
} from '../e2e/support/standin.ts';

let checkout: Awaited<ReturnType<typeof freshCheckout>>;
let home: StandinHome;
let run: StandinRun;

describe.skipIf(!hasChromium)('npm start with the Electron stand-in, from a fresh checkout', () => {
  beforeAll(async () => {
    checkout = await freshCheckout();
    home = standinHome({
      ELECTRON_OVERRIDE_DIST_PATH: join(checkout.dir, 'tools/electron-standin/dist'),
    });
    run = startStandin(['npm', 'start'], { cwd: checkout.dir, home });
  }, 30_000);
  afterAll(async () => {
    await run?.stop();
    home?.remove();
    checkout?.remove();
  });

  it('builds, opens the window and shows the Sandbox orders that came over the port', async () => {
    const page = await run.page(120_000);
    expect(page.url()).toBe(`file://${join(checkout.dir, 'out/renderer/index.html')}`);
    await page.setViewportSize({ width: 1280, height: 800 });
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
    const state = await run.state();
    expect(state.windows).toHaveLength(1);
    expect(state.windows[0]!.visible).toBe(true);

    if (process.env.UPDATE_SCREENSHOTS) {
      const shots = join(import.meta.dirname, '../../docs/screenshots');
      await page.screenshot({ path: join(shots, 'standin-start-light.png') });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(shots, 'standin-start-dark.png') });
      await page.emulateMedia({ colorScheme: null });
    }
  });

  it('quits from the menu with exit code 0', async () => {
    await run.clickMenu(['File', 'Quit']);
    expect(await run.exited).toBe(0);
  });
});
