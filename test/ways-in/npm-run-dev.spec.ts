// `npm run dev` in a fresh checkout, opened through Playwright's Electron
// driver with `npm run dev` as the Electron it launches (the electron
// package's binary where it is installed, else the Electron stand-in): the
// renderer comes from Vite's dev server, styled (the development policy lets
// Vite's styles and refresh preamble in, the built page's stays as written),
// React's StrictMode runs every effect twice without breaking the order
// stream, no Content-Security-Policy violation is reported, and a list
// arrives.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appHome,
  canRunApp,
  launchApp,
  npmAsElectron,
  type AppHome,
  type AppRun,
} from '../e2e/support/electron-app.ts';
import { freshCheckout } from '../e2e/support/standin.ts';

let checkout: Awaited<ReturnType<typeof freshCheckout>>;
let home: AppHome;
let run: AppRun;

describe.skipIf(!canRunApp)('npm run dev', () => {
  beforeAll(async () => {
    checkout = await freshCheckout();
    home = appHome({
      ELECTRON_OVERRIDE_DIST_PATH: join(checkout.dir, 'tools', 'electron-standin', 'dist'),
    });
    const npmRunDev = npmAsElectron('dev');
    run = await launchApp({
      home,
      app: null,
      cwd: checkout.dir,
      executablePath: npmRunDev.executablePath,
      env: npmRunDev.env,
      timeoutMs: 180_000,
    });
  });
  afterAll(async () => {
    await run?.stop();
    home?.remove();
    checkout?.remove();
  });

  it('serves a styled page whose order list arrives, with no policy violation', async () => {
    const page = await run.page(120_000);
    expect(page.url()).toMatch(/^http:\/\/localhost:\d+\/$/);
    const grid = page.getByRole('grid', { name: 'Sandbox orders' });
    await grid.locator('[role="row"][aria-rowindex="2"]').waitFor({ timeout: 60_000 });
    await expect
      .poll(() => page.locator('.view-count').textContent(), { timeout: 30_000 })
      .toBe('Showing 1,000 of 1,000 orders');
    const styles = await page.evaluate(() => ({
      rules: [...document.styleSheets].reduce((sum, sheet) => sum + sheet.cssRules.length, 0),
      background: getComputedStyle(document.body).backgroundColor,
      strict: document.querySelector('#root')?.childElementCount ?? 0,
    }));
    expect(styles.rules).toBeGreaterThan(100);
    expect(styles.background).not.toBe('rgba(0, 0, 0, 0)');

    // Once more with the console watched from the document's first line: the driver may have
    // attached after the first load began.
    const before = run.consoleLines().length;
    await page.reload();
    await grid.locator('[role="row"][aria-rowindex="2"]').waitFor({ timeout: 60_000 });
    await expect
      .poll(() => page.locator('.view-count').textContent(), { timeout: 30_000 })
      .toBe('Showing 1,000 of 1,000 orders');
    const lines = run.consoleLines();
    expect(lines.length).toBeGreaterThan(before);
    expect(lines.filter((line) => /Content.Security.Policy/i.test(line))).toEqual([]);
    expect(lines.filter((line) => /did not arrive whole/i.test(line))).toEqual([]);
  });

  it('leaves the built page its own strict policy', () => {
    const html = readFileSync(join(checkout.dir, 'src/renderer/index.html'), 'utf8');
    expect(html).toContain("style-src 'self';");
    expect(html).not.toContain('nonce');
  });

  it('quits from the menu', async () => {
    await run.quitFromMenu();
    expect(await run.exited).toBe(0);
  });
});
