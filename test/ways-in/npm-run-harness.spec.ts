// `npm run harness` in a fresh checkout, with nothing built first: it builds
// the app itself, then opens it in Chromium through the Electron stand-in.
// Here there is no display, so it runs headless and says where to look: the
// page's DevTools (which Chromium serves itself) and a screenshot of the
// first screen. The test goes where it says, and finds the Sandbox's orders.
// DevTools are asked for on a port of the test's choosing (--port N, as the
// README's ssh forwarding needs): Chromium writes down only a port it chose.

import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freshCheckout,
  STANDIN_RUNS_ON,
  standinHome,
  standinRunsHere,
  startStandin,
  waitFor,
  type StandinHome,
  type StandinRun,
} from '../e2e/support/standin.ts';

let checkout: Awaited<ReturnType<typeof freshCheckout>>;
let home: StandinHome;
let run: StandinRun;
let port: number;

/** A port nothing listens on now (the system's choice, given back). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port: chosen } = server.address() as { port: number };
      server.close(() => resolve(chosen));
    });
  });
}

describe.skipIf(!standinRunsHere)(
  `npm run harness from a fresh checkout (the harness shows the app on ${STANDIN_RUNS_ON})`,
  () => {
    beforeAll(async () => {
      checkout = await freshCheckout();
      home = standinHome({ DISPLAY: '', WAYLAND_DISPLAY: '', ELECTRON_STANDIN_HEADLESS: '' });
      // Its temporary data folder and Chromium's profile go where the test removes them.
      const tmp = join(home.dir, 'tmp');
      mkdirSync(tmp);
      port = await freePort();
      run = startStandin(['npm', 'run', 'harness', '--', '--port', String(port)], {
        cwd: checkout.dir,
        home,
        env: { TMPDIR: tmp },
      });
    }, 30_000);
    afterAll(async () => {
      await run?.stop();
      home?.remove();
      checkout?.remove();
    });

    it('builds, then opens the app headless and says where to see it, with its orders', async () => {
      const said = (pattern: RegExp) => () => {
        if (run.child.exitCode !== null) throw new Error(`the harness ended:\n${run.output()}`);
        return pattern.exec(run.output())?.[1];
      };
      const inspector = await waitFor(
        'the harness to say where to look',
        said(/See and use it in DevTools.*: (\S+)/),
        180_000,
      );
      expect(run.output()).not.toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
      // Nothing was built in the checkout: the harness built it.
      expect(run.output()).toMatch(/built in [\d.]+m?s/);
      expect(run.output()).toContain('headless Chromium (no display here)');
      // DevTools' own page, from Chromium, for the app's page.
      const devtools = new URL(inspector).origin;
      expect(devtools).toBe(`http://127.0.0.1:${port}`);
      const frontend = await fetch(inspector);
      expect(frontend.status).toBe(200);
      expect(await frontend.text()).toContain('<title>DevTools</title>');
      const pageId = /\/devtools\/page\/(\w+)$/.exec(inspector)?.[1];
      const targets = (await (await fetch(`${devtools}/json/list`)).json()) as {
        id: string;
        url: string;
      }[];
      expect(targets.find((target) => target.id === pageId)?.url).toMatch(
        /^file:\/\/.*\/out\/renderer\/index\.html/,
      );

      const browser = await chromium.connectOverCDP(devtools);
      try {
        const page = browser
          .contexts()
          .flatMap((context) => context.pages())
          .find((candidate) => candidate.url().startsWith('file:'));
        if (!page) throw new Error("no app page in the harness's Chromium");
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
      const screenshot = await waitFor(
        'the first screen',
        said(/The first screen: (\S+\.png)/),
        60_000,
      );
      expect(existsSync(screenshot)).toBe(true);
    });
  },
);
