// `npm run dev` with the Electron stand-in, in a fresh checkout: the renderer
// comes from Vite's dev server, styled (the development policy lets Vite's
// styles and refresh preamble in, the built page's stays as written), React's
// StrictMode runs every effect twice without breaking the order stream, no
// Content-Security-Policy violation is reported, and a list arrives.

import { readFileSync } from 'node:fs';
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

describe.skipIf(!hasChromium)('npm run dev with the Electron stand-in', () => {
  beforeAll(async () => {
    checkout = await freshCheckout();
    home = standinHome({
      ELECTRON_OVERRIDE_DIST_PATH: join(checkout.dir, 'tools/electron-standin/dist'),
    });
    run = startStandin(['npm', 'run', 'dev'], { cwd: checkout.dir, home });
  }, 30_000);
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

    // The stand-in kept every console line of the page from its first one.
    const lines = (await run.events())
      .filter((event) => event.kind === 'console')
      .map((event) => String((event.detail as { text?: unknown }).text));
    expect(lines.filter((line) => /Content.Security.Policy/i.test(line))).toEqual([]);
    expect(lines.filter((line) => /did not arrive whole/i.test(line))).toEqual([]);
  });

  it('leaves the built page its own strict policy', () => {
    const html = readFileSync(join(checkout.dir, 'src/renderer/index.html'), 'utf8');
    expect(html).toContain("style-src 'self';");
    expect(html).not.toContain('nonce');
  });

  it('quits from the menu', async () => {
    await run.clickMenu(['File', 'Quit']);
    expect(await run.exited).toBe(0);
  });
});
