// A laptop that sleeps and loses its network, with the app's real main
// bundle on the Electron stand-in (`electron .`), the desktop driven through
// the stand-in's control channel: powerMonitor's suspend and resume, and the
// network net.isOnline tells of. Staging is a sandbox of its own, which the
// test stops and starts again at the same address as a network would drop
// and return. What the clerk sees: a bulk cancel paused while Staging could
// not be reached, and the notice saying so, go on by themselves the moment
// the machine wakes or the network is back, not when the timers that slept
// would have fired (the job's own next try is tens of seconds off); the
// first thing sent after the wake is the app's look at the service.

import { request } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/main/sandbox/server.ts';
import { hasChromium } from '../../tools/browser/chromium.ts';
import { inPage } from './support/in-page-shapes.ts';
import { checkScreen } from './support/screens.ts';
import {
  ROOT,
  STANDIN_ELECTRON,
  standinHome,
  startStandin,
  type StandinHome,
  type StandinRun,
} from './support/standin.ts';

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
let home: StandinHome;
let run: StandinRun;
let page: Page;

/** A request on the stand-in's control socket (support/standin.ts reaches the others). */
async function control(path: string, body: unknown): Promise<unknown> {
  const { socket } = await run.info();
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath: socket, path, method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () =>
          (res.statusCode ?? 500) >= 400
            ? reject(new Error(`${path}: ${res.statusCode} ${text}`))
            : resolve(JSON.parse(text)),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

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

/** What Staging heard first after it was back: the request that arrived first. */
const firstHeard = () => [...staging.requestLog].sort((a, b) => a.at - b.at)[0];

/** Staging is there again, at the same address, while the app has not looked yet. */
async function stagingBack(): Promise<void> {
  staging = await startSandbox({ ...STAGING, port });
}

describe.skipIf(!hasChromium)('sleep and networks, on the stand-in', () => {
  beforeAll(async () => {
    staging = await startSandbox({ ...STAGING, port: 0 });
    port = staging.port;
    home = standinHome();
    run = startStandin([STANDIN_ELECTRON, '.'], { cwd: ROOT, home });
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
    expect(await control('/power', { event: 'suspend' })).toEqual({ emitted: true });
    await stagingBack();
    expect(staging.requestLog).toEqual([]);
    expect(await control('/power', { event: 'resume' })).toEqual({ emitted: true });

    // What the clerk sees: the notice gone and the job going, no Retry pressed.
    await notice().waitFor({ state: 'detached', timeout: 30_000 });
    await expect
      .poll(stripStatus, { timeout: 30_000 })
      .toBe('Cancelling at the pace the quota allows.');
    // The first thing the service heard after the wake was the app's look at it (the list's
    // address, its body left unread), not the job's own next try, which waited on a timer.
    expect(firstHeard()).toMatchObject({ method: 'GET', path: '/v1/store/orders' });
    await expect
      .poll(() => staging.requestLog.some((entry) => entry.method === 'DELETE'), {
        timeout: 30_000,
      })
      .toBe(true);
    await checkScreen(page, 'bulk-cancel-after-wake');
  });

  it('when the network comes back, the same: at once, and the page learns it too', async () => {
    await stagingGoes();
    await control('/network', { online: false });
    await page.context().setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await stagingBack();

    await control('/network', { online: true });
    await page.context().setOffline(false);
    await notice().waitFor({ state: 'detached', timeout: 30_000 });
    await expect
      .poll(stripStatus, { timeout: 30_000 })
      .toBe('Cancelling at the pace the quota allows.');
    expect(firstHeard()).toMatchObject({ method: 'GET', path: '/v1/store/orders' });
    const state = (await run.state()) as unknown as {
      power: { happened: string[]; online: boolean };
    };
    expect(state.power).toEqual({ happened: ['suspend', 'resume'], online: true });
  });
});
