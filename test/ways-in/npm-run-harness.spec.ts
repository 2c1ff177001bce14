// `npm run harness` in a fresh checkout, with nothing built first: it builds
// the app itself, then serves it to a browser, where the Sandbox's orders show.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../../tools/browser/chromium.ts';
import {
  freshCheckout,
  standinHome,
  startStandin,
  waitFor,
  type StandinHome,
  type StandinRun,
} from '../e2e/support/standin.ts';

let checkout: Awaited<ReturnType<typeof freshCheckout>>;
let home: StandinHome;
let run: StandinRun;

describe.skipIf(!hasChromium)('npm run harness from a fresh checkout', () => {
  beforeAll(async () => {
    checkout = await freshCheckout();
    home = standinHome();
    run = startStandin(['npm', 'run', 'harness'], { cwd: checkout.dir, home });
  }, 30_000);
  afterAll(async () => {
    await run?.stop();
    home?.remove();
    checkout?.remove();
  });

  it('builds, then serves the app with its orders', async () => {
    const url = await waitFor(
      'the harness to say where it is',
      () => {
        if (run.child.exitCode !== null) throw new Error(`the harness ended:\n${run.output()}`);
        return /Store Admin harness: open (\S+)/.exec(run.output())?.[1];
      },
      180_000,
    );
    expect(run.output()).not.toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(url);
      await page
        .getByRole('grid', { name: 'Sandbox orders' })
        .locator('[role="row"][aria-rowindex="2"]')
        .waitFor({ timeout: 60_000 });
      await expect
        .poll(() => page.locator('.view-count').textContent(), { timeout: 30_000 })
        .toMatch(/^Showing [\d,]+ of [\d,]+ orders$/);
    } finally {
      await browser.close();
    }
  });
});
