// `npm run package:dir` in a fresh checkout with ELECTRON_OVERRIDE_DIST_PATH
// on the Electron stand-in, then the packaged app started as a user starts it
// (dist/linux-unpacked/store-admin, no arguments): it loads its app.asar, is
// packaged (no developer menu), and lists the Sandbox's orders. Its fuses
// were flipped while packaging, so the stand-in loads the app only from the
// asar and ignores ELECTRON_RUN_AS_NODE.

import { existsSync } from 'node:fs';
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
let packaging: StandinRun;
let run: StandinRun | undefined;

const executable = () => join(checkout.dir, 'dist/linux-unpacked/store-admin');

describe.skipIf(!hasChromium)('the packaged app, started with the Electron stand-in', () => {
  beforeAll(async () => {
    checkout = await freshCheckout();
    home = standinHome({
      ELECTRON_OVERRIDE_DIST_PATH: join(checkout.dir, 'tools/electron-standin/dist'),
    });
    packaging = startStandin(['npm', 'run', 'package:dir'], { cwd: checkout.dir, home });
  }, 30_000);
  afterAll(async () => {
    await run?.stop();
    await packaging?.stop();
    home?.remove();
    checkout?.remove();
  });

  it('packages with npm run package:dir', async () => {
    expect(await packaging.exited, packaging.output()).toBe(0);
    expect(packaging.output()).toContain(`Fuses flipped in ${executable()}.`);
    expect(existsSync(join(checkout.dir, 'dist/linux-unpacked/resources/app.asar'))).toBe(true);
  });

  it('starts, loads its asar and lists the Sandbox orders, as the app even when asked to be Node', async () => {
    // With its RunAsNode fuse off, ELECTRON_RUN_AS_NODE changes nothing: the app starts.
    run = startStandin([executable()], {
      cwd: checkout.dir,
      home,
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
    const page = await run.page(60_000);
    expect(page.url()).toMatch(/^file:\/\/.*\/out\/renderer\/index\.html$/);
    await page
      .getByRole('grid', { name: 'Sandbox orders' })
      .locator('[role="row"][aria-rowindex="2"]')
      .waitFor({ timeout: 60_000 });
    await expect
      .poll(() => page.locator('.view-count').textContent(), { timeout: 30_000 })
      .toBe('Showing 1,000 of 1,000 orders');
    const state = (await run.state()) as unknown as {
      isPackaged: boolean;
      menu: { label: string; submenu?: { label: string }[] }[];
    };
    expect(state.isPackaged).toBe(true);
    const view = state.menu.find((item) => item.label === 'View')!;
    expect(view.submenu!.map((item) => item.label)).not.toContain('Toggle Developer Tools');
    await run.clickMenu(['File', 'Quit']);
    expect(await run.exited).toBe(0);
  });
});
