// A laptop that sleeps and loses its network, with the whole app (the real
// main bundle) opened through Playwright's Electron driver: powerMonitor's
// suspend, resume and unlock-screen emitted in main (powerMonitor is an
// EventEmitter on Electron as here, so these run on a real Electron too), the
// page's network taken away and given back by Chromium's own emulation
// (`context.setOffline`), and the machine's network that main's
// net.isOnline() tells of, which only the stand-in's channel can take away.
// Staging is a sandbox of its own, which the test stops and starts again at
// the same address as a network would drop and return. What the clerk sees:
// a bulk cancel paused while Staging could not be reached, and the notice
// saying so, go on by themselves once the machine wakes, the screen is
// unlocked or the network is back, and the app looks at the service when told.
// The job's own next try (15 s after it paused, longer after each try that
// failed) may find the service back before the event or just after it: the
// tests hold either way, asserting what the clerk sees after the event and
// that the app looked. Needs `npm run build`.

import { setTimeout as delay } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/main/sandbox/server.ts';
import { WAKES_TOGETHER_MS } from '../../src/main/wake/wake-watcher.ts';
import {
  appHome,
  canRunApp,
  itNeedsStandin,
  launchApp,
  type AppHome,
  type AppRun,
} from './support/electron-app.ts';
import { inPage } from './support/in-page-shapes.ts';
import { checkScreen } from './support/screens.ts';
import { waitFor } from './support/standin.ts';

const KEY = 'stg-sleep-key-31c9';
/**
 * An Enterprise key, whose quota holds no DELETE back: when the service goes,
 * nothing waits in the gate to find it back by itself, and the job's own next
 * try is 15 s off. Every answer 20 ms late: the job goes on through the test.
 */
const STAGING: Omit<SandboxOptions, 'port'> = {
  orders: 4000,
  seed: 33,
  keys: [{ plan: 'enterprise', key: KEY }],
  faults: 'latency=20@1',
};

let staging: Sandbox;
let port: number;
let home: AppHome;
let run: AppRun;
let page: Page;

const notice = () => page.locator('[data-notice="unreachable"]');
const strip = () => page.getByRole('region', { name: /^Bulk cancel/ });
const stripStatus = () => strip().locator('.bulk-status').textContent();

/** Staging goes away: its connections are refused, and the window says so. */
async function stagingGoes(): Promise<void> {
  await staging.close();
  await page.getByRole('button', { name: 'Refresh', exact: true }).click();
  await notice().waitFor({ timeout: 30_000 });
  await expect
    .poll(stripStatus, { timeout: 30_000 })
    .toBe('Paused while the service cannot be reached; it tries again by itself.');
  // The refresh has given up its tries (one of them would find the service back).
  await expect
    .poll(() => page.getByRole('button', { name: /^Refresh/ }).textContent(), { timeout: 30_000 })
    .toBe('Refresh');
}

/** Staging is there again, at the same address, while the app has not looked yet. */
async function stagingBack(): Promise<void> {
  staging = await startSandbox({ ...STAGING, port });
}

/** Main's own word that it looked again, and why (src/main/index.ts logs it on stdout unpackaged). */
const LOOKED = {
  resume: 'Looking again after resume.',
  'unlock-screen': 'Looking again after unlock-screen.',
  online: 'Looking again after the network came back.',
} as const;
const timesSaid = (line: string) => run.output().split(line).length - 1;

/** When the test last saw main look again: wakes closer together than WAKES_TOGETHER_MS are one. */
let lastWakeSeen = Number.NEGATIVE_INFINITY;

/** Waits out the app's own rule that wakes close together are one, so the next one counts. */
async function apartFromTheLastWake(): Promise<void> {
  const wait = lastWakeSeen + WAKES_TOGETHER_MS + 200 - Date.now();
  if (wait > 0) await delay(wait);
}

/** Waits until main has said once more that it looked again for `reason`. */
async function mainLookedAgain(reason: keyof typeof LOOKED, before: number): Promise<void> {
  await waitFor(
    `main to say "${LOOKED[reason]}"`,
    () => (timesSaid(LOOKED[reason]) > before ? true : undefined),
    30_000,
  );
  lastWakeSeen = Date.now();
}

/** powerMonitor emits `event` in main, as Electron does when the desktop tells it. */
const power = (event: 'suspend' | 'resume' | 'unlock-screen') =>
  run.electronApp.evaluate(({ powerMonitor }, name) => powerMonitor.emit(name), event);

/**
 * What the clerk sees after the event at `eventAt` (epoch ms): the notice gone, the job going,
 * no Retry pressed; and that the app looked at the service when told. Holds whichever came
 * first, the app's look or the job's own next try, which waits on a timer.
 */
async function goesOnByItself(eventAt: number): Promise<void> {
  await notice().waitFor({ state: 'detached', timeout: 30_000 });
  await expect
    .poll(stripStatus, { timeout: 30_000 })
    .toBe('Cancelling at the pace the quota allows.');
  await expect
    .poll(() => staging.requestLog.some((entry) => entry.method === 'DELETE'), {
      timeout: 30_000,
    })
    .toBe(true);
  // The app's look is a GET of the list's address (its body left unread); the job sends only
  // DELETEs. Unless the job's own try had found the service back before the event (the window
  // then had nothing left to look at), the service hears that look after the event.
  const backBefore = staging.requestLog.some((entry) => entry.at < eventAt);
  if (backBefore) return;
  await expect
    .poll(
      () =>
        staging.requestLog.some(
          (entry) =>
            entry.method === 'GET' && entry.path === '/v1/store/orders' && entry.at >= eventAt,
        ),
      { timeout: 30_000 },
    )
    .toBe(true);
}

describe.skipIf(!canRunApp)('sleep and networks', () => {
  beforeAll(async () => {
    staging = await startSandbox({ ...STAGING, port: 0 });
    port = staging.port;
    home = appHome();
    run = await launchApp({ home });
    page = await run.page();
    await page
      .getByRole('grid', { name: 'Sandbox orders' })
      .locator('[role="row"][aria-rowindex="2"]')
      .waitFor({ timeout: 60_000 });
    await page.evaluate(inPage.setUpEnvironment, {
      environment: 'staging' as const,
      baseUrl: staging.baseUrl,
      key: KEY,
    });
  });
  afterAll(async () => {
    await run?.stop();
    await staging?.close();
    home?.remove();
  });

  it('Staging downloads its list, and a bulk cancel of it goes', async () => {
    await page.getByRole('radio', { name: 'Staging' }).check();
    const grid = page.getByRole('grid', { name: 'Staging orders' });
    await expect
      .poll(() => page.locator('.view-count').textContent(), { timeout: 60_000 })
      .toBe('Showing 4,000 of 4,000 orders');
    await grid.getByRole('checkbox', { name: 'Select all shown' }).click();
    await page.getByRole('button', { name: 'Cancel ticked orders…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Cancel [\d,]+ orders\?$/ });
    await dialog.getByRole('button', { name: /^Cancel [\d,]+ orders$/ }).click();
    await expect.poll(stripStatus).toBe('Cancelling at the pace the quota allows.');
  });

  it('on waking, a job paused while the service could not be reached goes on at once, and the notice goes', async () => {
    await stagingGoes();
    // The machine sleeps; the network (the service) is back before it wakes.
    expect(await power('suspend')).toBe(true);
    await stagingBack();
    await apartFromTheLastWake();
    const before = timesSaid(LOOKED.resume);
    const wokeAt = Date.now();
    expect(await power('resume')).toBe(true);
    await mainLookedAgain('resume', before);
    await goesOnByItself(wokeAt);
    await checkScreen(page, 'bulk-cancel-after-wake');
  });

  it('when the screen is unlocked (the clerk back after a night), the same', async () => {
    await stagingGoes();
    await stagingBack();
    await apartFromTheLastWake();
    const before = timesSaid(LOOKED['unlock-screen']);
    const unlockedAt = Date.now();
    expect(await power('unlock-screen')).toBe(true);
    await mainLookedAgain('unlock-screen', before);
    await goesOnByItself(unlockedAt);
  });

  it("when the page's network comes back (Chromium's online event), the same, main's network never gone", async () => {
    await stagingGoes();
    await page.context().setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await stagingBack();
    const before = timesSaid(LOOKED.online);
    const onlineAt = Date.now();
    await page.context().setOffline(false);
    await goesOnByItself(onlineAt);
    // The page looked, by itself: main's network never went, so main had nothing to say.
    expect(timesSaid(LOOKED.online)).toBe(before);
  });

  itNeedsStandin(
    "when the machine's network comes back (net.isOnline in main), the same, the page never offline",
    "net.isOnline() in main tells of the machine's own network, which only the stand-in lets a test take away",
    async () => {
      await stagingGoes();
      // Main has seen the network go (it asks now and then: Electron tells of no change).
      await run.standin().network(false);
      await stagingBack();
      await apartFromTheLastWake();
      const before = timesSaid(LOOKED.online);
      const onlineAt = Date.now();
      await run.standin().network(true);
      await mainLookedAgain('online', before);
      expect(await page.evaluate(() => navigator.onLine)).toBe(true);
      await goesOnByItself(onlineAt);
    },
  );
});
