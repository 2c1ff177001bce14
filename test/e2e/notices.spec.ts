// One problem, one message, in Chromium against real sandboxes: the service
// unreachable, a 429, a banned key, a refused key (401) and a data folder
// that takes nothing (a full disk, through main's file layer) each show exactly
// one visible alert, however many calls ran into the problem, while the
// header keeps its height. Each state is checked with axe-core and
// photographed in both themes.

import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { SANDBOX_DEMO_KEY } from '../../src/shared/environments.ts';
import { farWindowMs } from '../support/far-window.ts';
import { startE2EApp, type E2EApp, type E2EAppOptions, describeOnHarness } from './support/app.ts';
import { inPage } from './support/in-page-shapes.ts';
import { axeSummary, checkScreen } from './support/screens.ts';

const apps: E2EApp[] = [];
const alertCounts: Record<string, number> = {};

async function open(options: E2EAppOptions = {}): Promise<E2EApp> {
  const app = await startE2EApp(options);
  apps.push(app);
  return app;
}

/** The alerts a clerk sees now (role="alert", visible). */
function visibleAlerts(page: Page) {
  return page.getByRole('alert').filter({ visible: true });
}

async function headerHeight(page: Page): Promise<number> {
  return (await page.evaluate(inPage.frameOf)).headerHeight;
}

async function gridShown(page: Page): Promise<void> {
  await page.getByRole('grid', { name: 'Sandbox orders' }).getByRole('row').nth(1).waitFor();
}

/** Requests with the app's key from elsewhere (another clerk, a script), until `stop` says. */
async function elsewhere(app: E2EApp, stop: (status: number, code?: string) => boolean) {
  for (let sent = 0; sent < 400; sent++) {
    const answer = await fetch(`${app.sandbox.baseUrl}/store/orders/0`, {
      method: 'GET',
      headers: { authorization: `Bearer ${SANDBOX_DEMO_KEY}` },
    });
    const body = (await answer.json().catch(() => ({}))) as { code?: string };
    if (stop(answer.status, body.code)) return;
  }
  throw new Error('the sandbox never answered as expected');
}

/**
 * A hold's notice at 1280x800: its words and the live countdown after them, "(in 29:41)", on
 * one line, so the notice keeps its height as the countdown ticks and nothing moves under it.
 */
async function expectCountdownOnOneLine(page: Page): Promise<void> {
  expect(page.viewportSize()).toEqual({ width: 1280, height: 800 });
  expect(await page.locator('.notice-countdown').textContent()).toMatch(/^ \(in [\d:]+\)$/);
  expect(await page.evaluate(inPage.linesOf, '.notice-text'), 'lines of the notice').toBe(1);
}

/** Exactly one visible alert, saying `words`; recorded for the summary. */
async function expectOneAlert(page: Page, condition: string, words: RegExp): Promise<void> {
  await expect.poll(() => visibleAlerts(page).count(), { timeout: 30_000 }).toBeGreaterThan(0);
  const count = await visibleAlerts(page).count();
  alertCounts[condition] = count;
  expect(count, condition).toBe(1);
  expect(await visibleAlerts(page).textContent()).toMatch(words);
}

describeOnHarness('one alert per condition in Chromium', () => {
  afterAll(async () => {
    console.log(
      `visible alerts per condition: ${Object.entries(alertCounts)
        .map(([condition, count]) => `${condition} ${count}`)
        .join(', ')}`,
    );
    console.log(axeSummary('notices'));
    await Promise.all(apps.map((app) => app.close()));
  });

  it('the service unreachable: one alert (offline review of the saved list, Retry), after several calls failed', async () => {
    const app = await open();
    const { page } = app;
    await gridShown(page);
    const height = await headerHeight(page);
    await app.sandbox.close();
    // A refresh, a second one, and a cancel that cannot go: still one alert.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expectOneAlert(page, 'unreachable', /^Offline review\. Sandbox cannot be reached/);
    await page.getByRole('alert').getByRole('button', { name: 'Retry' }).click();
    await page.waitForTimeout(500);
    await expectOneAlert(page, 'unreachable', /the list shown is the last one saved/);
    // Its time is said once, under the list it belongs to.
    expect(await page.locator('.refresh-line').textContent()).toMatch(
      /\d{1,2}:\d\d:\d\d(?:\s[AP]M)?/,
    );
    expect(await headerHeight(page)).toBe(height);
    await checkScreen(page, 'notice-offline');
  });

  it('rate-limited (429): one alert, until the time the gate opens', async () => {
    const app = await open({ sandbox: { minuteMs: farWindowMs() } });
    const { page } = app;
    await gridShown(page);
    await elsewhere(app, (status) => status === 429);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expectOneAlert(
      page,
      '429',
      /^Requests paused\. Requests to Sandbox are paused until (?:[A-Z][a-z]{2} \d{1,2}, (?:\d{4}, )?)?\d{1,2}:\d\d:\d\d(?:\s[AP]M)?\. The service asked Store Admin to slow down\./,
    );
    // A cancel waits too, without a second message about it.
    const cancel = page
      .getByRole('grid', { name: 'Sandbox orders' })
      .getByRole('button', { name: /^Cancel order / })
      .first();
    expect(await cancel.getAttribute('aria-disabled')).toBe('true');
    await cancel.click({ force: true });
    await expectOneAlert(page, '429', /paused until/);
    await expectCountdownOnOneLine(page);
    await checkScreen(page, 'notice-rate-limited');
  });

  it('a banned key: one alert, until the ban ends', async () => {
    const app = await open({ sandbox: { minuteMs: farWindowMs(), banAfter: 1 } });
    const { page } = app;
    await gridShown(page);
    await elsewhere(app, (status, code) => status === 429 && code === 'api_key_banned');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expectOneAlert(
      page,
      'ban',
      /^Key banned\. The service has banned the Sandbox API key until (?:[A-Z][a-z]{2} \d{1,2}, (?:\d{4}, )?)?\d{1,2}:\d\d:\d\d(?:\s[AP]M)?\./,
    );
    await expectCountdownOnOneLine(page);
    await page.getByRole('alert').getByText('Details').click();
    expect(await page.getByRole('alert').textContent()).toContain('api_key_banned');
    await checkScreen(page, 'notice-banned');
  });

  it('a refused key (401): one alert, with the service’s words behind Details', async () => {
    const app = await open({ appKey: 'not-a-key-the-service-knows' });
    const { page } = app;
    await expectOneAlert(page, '401', /^Key refused\./);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForTimeout(500);
    await expectOneAlert(page, '401', /^Key refused\./);
    await page.getByRole('alert').getByText('Details').click();
    expect(await page.getByRole('alert').textContent()).toContain('HTTP 401');
    // No plan is read from the refused answer.
    expect(await page.getByRole('region', { name: 'Quota' }).textContent()).toContain(
      'Quota unknown: the key was refused',
    );
    await checkScreen(page, 'notice-key-refused');
  });

  it('a full disk: one alert naming the data folder, the code behind Details, the refreshed list still shown', async () => {
    const app = await open();
    const { page } = app;
    await gridShown(page);
    const height = await headerHeight(page);
    app.disk.fail('ENOSPC');
    // A refresh cannot save its cache file; a second one cannot either: one alert all along.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expectOneAlert(
      page,
      'full disk',
      /^Not saving\. Store Admin cannot save to its data folder .+ because the disk is full, so what changes now is kept only until it closes; nothing saved before is lost\./,
    );
    expect(await visibleAlerts(page).textContent()).toContain(join(app.dataDir, 'local-data'));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForTimeout(500);
    await expectOneAlert(page, 'full disk', /^Not saving\./);
    await gridShown(page);
    expect(await headerHeight(page)).toBe(height);
    await page.getByRole('alert').getByText('Details').click();
    expect(await page.getByRole('alert').textContent()).toContain('ENOSPC');
    await checkScreen(page, 'notice-storage');
    // Space again: the next save goes through and the alert goes.
    app.disk.fail(undefined);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => visibleAlerts(page).count(), { timeout: 30_000 }).toBe(0);
  });
});
