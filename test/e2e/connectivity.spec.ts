// Notices that tell the truth, in Chromium against real sandboxes with the
// sandbox's own faults: lost answers and 503s among answers never say the
// service cannot be reached, and the notice area does not flap; a stopped
// sandbox is said at once (its refused connection), and the notice, the bulk
// cancel's strip, the quota meter and the Cancel buttons say it together;
// Retry shows it is trying; a Staging not set up yet is a neutral prompt with
// one button, and no red notice stays above "Saved." and "Connected"; short
// messages cover no work, and a notice that comes moves no row from under the
// pointer; no message counts "1 tries". A network's sign-in page at the
// Staging address is never "Connected". Staging with 5,000 orders and faults
// too. Each screen checked with axe-core and photographed in both themes.

import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { inPage } from './support/in-page-shapes.ts';
import { checkScreen } from './support/screens.ts';
import { describeOnHarness } from './support/app.ts';
import { gridShown, specApps } from './support/spec-apps.ts';
import { answer, scriptedServer, type ScriptedServer } from '../support/scripted-server.ts';

const apps = specApps('connectivity');
const portals: ScriptedServer[] = [];

/** Presses Refresh and waits until the refresh is over (whatever it came to). */
async function refresh(page: Page): Promise<void> {
  const button = page.getByRole('button', { name: /^Refresh/ });
  await button.click();
  await expect.poll(() => button.textContent(), { timeout: 30_000 }).toBe('Refresh');
}

const notice = (page: Page, kind: string) => page.locator(`[data-notice="${kind}"]`);

function overlap(
  a: { top: number; bottom: number; left: number; right: number },
  b: { top: number; bottom: number; left: number; right: number },
): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** The screen at 1280×800 and at 1920×1080 (`<name>-1920`), then back to 1280×800. */
async function checkBothSizes(page: Page, name: string): Promise<void> {
  await checkScreen(page, name);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await checkScreen(page, `${name}-1920`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

describeOnHarness('notices that tell the truth, in Chromium', () => {
  afterAll(async () => {
    await Promise.all(portals.splice(0).map((portal) => portal.close()));
    await apps.closeAll();
  });

  it('lost answers and 503s among answers: never “cannot be reached”, cancels stay open, and the notice area does not flap', async () => {
    // The sandbox's fault rolls repeat from its seed: with seed 6 the first refresh loses two
    // answers in a row before one comes, a later one meets a 503, and the cancels meet both.
    const app = await apps.open({ sandbox: { orders: 300, seed: 6 } });
    const { page, sandbox } = app;
    const grid = await gridShown(page);
    await page.evaluate(inPage.recordNotices);
    sandbox.setFaults('reset@0.3,5xx@0.2');
    const refreshes = 8;
    for (let i = 0; i < refreshes; i++) await refresh(page);
    // Cancels in between, through the dialog, as a clerk sends them.
    const pending = new Set(sandbox.orderIds({ status: 'pending' }));
    const ids = (await grid.getByRole('rowheader').allTextContents()).filter((id) =>
      pending.has(id),
    );
    for (const id of ids.slice(0, 3)) {
      await grid.getByRole('button', { name: `Cancel order ${id}`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Cancel order ${id}?` });
      await dialog.getByRole('button', { name: `Cancel order ${id}` }).click();
      await dialog.waitFor({ state: 'detached', timeout: 30_000 });
    }
    sandbox.setFaults(undefined);
    await refresh(page);
    const log = sandbox.requestLog;
    const lost = log.filter((request) => !request.answered).length;
    const failed = log.filter((request) => request.faults.includes('5xx')).length;
    console.log(`faults that fired: ${lost} answers lost, ${failed} answered 503`);
    expect(lost).toBeGreaterThanOrEqual(2);
    expect(failed).toBeGreaterThanOrEqual(1);
    // A refresh lost answers and came through on a later try: the case that said offline.
    expect(log.some((request) => request.method === 'GET' && !request.answered)).toBe(true);
    const seen = await page.evaluate(inPage.recordedNotices);
    // Every refresh and cancel came through in the end, so there was nothing to say: the notice
    // area stayed empty all along (no offline, no "Not refreshed (503)", no flicker between them),
    // no alert came, and the Cancel buttons were never held back.
    expect(seen.map((state) => state.notices).filter((kinds) => kinds !== '')).toEqual([]);
    expect(seen.filter((state) => state.alerts > 0)).toEqual([]);
    expect(seen.some((state) => state.cancelDisabled)).toBe(false);
  });

  it('a stopped sandbox: known at once; the notice, the bulk strip, the meter and cancel say it together; Retry shows it is trying', async () => {
    const app = await apps.open({ sandbox: { orders: 400 } });
    const { page, sandbox } = app;
    const grid = await gridShown(page);
    await page.evaluate(inPage.recordNotices);
    // A bulk cancel that is still sending when the service goes.
    sandbox.setFaults('latency=150@1');
    await grid.getByRole('checkbox', { name: 'Select all shown' }).click();
    await page.getByRole('button', { name: 'Cancel ticked orders…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Cancel \d+ orders\?$/ });
    await dialog.getByRole('button', { name: /^Cancel \d+ orders$/ }).click();
    const strip = page.getByRole('region', { name: /^Bulk cancel/ });
    await expect
      .poll(
        async () => Number((await strip.locator('.bulk-progress').textContent())!.split(' ')[0]),
        { timeout: 20_000 },
      )
      .toBeGreaterThan(5);

    await sandbox.close();
    await expect.poll(() => notice(page, 'unreachable').count(), { timeout: 20_000 }).toBe(1);
    await expect
      .poll(() => strip.locator('.bulk-status').textContent(), { timeout: 20_000 })
      .toBe('Paused while the service cannot be reached; it tries again by itself.');
    // It carries on by itself when the service answers: Stop, and no Resume that would do nothing more.
    expect(await strip.getByRole('button').allTextContents()).toEqual(['Stop', 'Export results']);
    expect(await page.getByRole('region', { name: 'Quota' }).textContent()).toMatch(/ at /);
    const cancel = grid.locator('.status-cell button').first();
    expect(await cancel.getAttribute('aria-disabled')).toBe('true');
    // Never one without the others: the strip said the service could not be reached only
    // while the notice said so too, and cancel was held back all the while.
    const seen = await page.evaluate(inPage.recordedNotices);
    for (const state of seen.filter((s) => s.bulk.startsWith('Paused while the service'))) {
      expect(state.notices).toContain('unreachable');
    }
    for (const state of seen.filter((s) => s.notices.includes('unreachable')))
      expect(state.cancelDisabled).toBe(true);
    await checkScreen(page, 'bulk-cancel-offline');

    // Retry shows that it is trying, then offers itself again.
    const retry = notice(page, 'unreachable').getByRole('button');
    await retry.click();
    await expect.poll(() => retry.textContent(), { timeout: 5_000 }).toBe('Trying…');
    expect(await retry.getAttribute('aria-busy')).toBe('true');
    await expect.poll(() => retry.textContent(), { timeout: 30_000 }).toBe('Retry');
    // The saved list's time, said once: under the list, not again in the notice.
    const time = /\d{1,2}:\d\d/;
    expect(await notice(page, 'unreachable').locator('.notice-text').textContent()).not.toMatch(
      time,
    );
    expect(await page.locator('.refresh-line').textContent()).toMatch(time);
    await checkBothSizes(page, 'orders-offline');
  });

  it('a refused connection is said at once, not after the retries (on loopback it took 4 s)', async () => {
    const app = await apps.open();
    const { page, sandbox } = app;
    await gridShown(page);
    await sandbox.close();
    const started = Date.now();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await notice(page, 'unreachable').waitFor({ timeout: 10_000 });
    const tookMs = Date.now() - started;
    console.log(`stopped sandbox: the notice came ${tookMs} ms after Refresh`);
    // Said at the first refused attempt, while the refresh is still trying its retries (which is
    // where the notice used to wait), however slow the machine is.
    expect(await page.getByRole('button', { name: /^Refresh/ }).textContent()).toBe('Refreshing…');
  });

  it('a network sign-in page at the Staging address: never “Connected”; said in plain words, with what to do', async () => {
    // A hotel's or a company's sign-in page answers every address with 200 and a web page.
    const portal = await scriptedServer((_req, res) =>
      answer(res, 200, '<!doctype html><title>Sign in</title><h1>Welcome to the Hotel Wi-Fi</h1>', {
        'content-type': 'text/html; charset=utf-8',
      }),
    );
    portals.push(portal);
    const app = await apps.open();
    const { page } = app;
    await gridShown(page);
    await page.evaluate(inPage.setUpEnvironment, {
      environment: 'staging' as const,
      baseUrl: portal.baseUrl,
      key: 'stg-key-portal',
    });
    await page.getByRole('radio', { name: /^Staging/ }).check();
    const unreachable = notice(page, 'unreachable');
    await unreachable.waitFor({ timeout: 20_000 });
    expect(await unreachable.locator('.notice-text').textContent()).toBe(
      'Staging cannot be reached. The Staging address answered with a web page, not the store service: perhaps this network’s sign-in page. Sign in to the network in a browser, then retry.',
    );
    // Said once: no "Not refreshed" beside it.
    expect(await page.locator('[data-notice]').count()).toBe(1);
    await checkBothSizes(page, 'notice-sign-in-page');

    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Settings' })
      .click();
    await page.getByRole('heading', { name: 'Staging settings' }).waitFor();
    await page.getByRole('button', { name: 'Test connection' }).click();
    const test = page.getByRole('status', { name: 'Staging connection test' });
    await expect
      .poll(() => test.textContent(), { timeout: 20_000 })
      .toContain('answered with a web page, not the store service');
    expect(await test.textContent()).not.toContain('Connected');
    await checkScreen(page, 'settings-staging-sign-in-page');
  });

  it('Staging not set up: a neutral prompt with one button, never an alert; none above “Saved.” and “Connected”', async () => {
    const staging = await apps.sandbox({
      orders: 200,
      keys: [{ plan: 'pro', key: 'stg-key-1' }],
    });
    const app = await apps.open();
    const { page } = app;
    await gridShown(page);
    await page.evaluate(inPage.recordNotices);
    await page.getByRole('radio', { name: /^Staging/ }).check();
    const prompt = page.locator('.orders-placeholder');
    await prompt.waitFor();
    expect(await prompt.getAttribute('role')).toBe('status');
    expect(await notice(page, 'set-up').count()).toBe(0);
    expect(await prompt.locator('p').textContent()).toBe(
      'Staging is not set up yet. Enter its address and API key in Settings to work with its orders.',
    );
    expect(await prompt.getByRole('button').allTextContents()).toEqual(['Set up Staging']);
    expect(await page.getByRole('alert').count()).toBe(0);
    await checkBothSizes(page, 'set-up-prompt');

    await prompt.getByRole('button', { name: 'Set up Staging' }).click();
    await page.getByRole('heading', { name: 'Staging settings' }).waitFor();
    await page.getByLabel('Address', { exact: true }).fill(staging.baseUrl);
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.getByText('Saved.').first().waitFor();
    await page.getByLabel('API key', { exact: true }).fill('stg-key-1');
    await page.getByRole('button', { name: 'Save key' }).click();
    await page.getByRole('button', { name: 'Test connection' }).click();
    const test = page.getByRole('status', { name: 'Staging connection test' });
    await expect.poll(() => test.textContent(), { timeout: 20_000 }).toContain('Connected');
    await checkScreen(page, 'settings-staging-connected');
    // Orders of the new Staging, with nothing left to say.
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Orders' })
      .click();
    await gridShown(page, 'Staging');
    const seen = await page.evaluate(inPage.recordedNotices);
    expect(seen.filter((state) => state.alerts > 0)).toEqual([]);
    expect(seen.at(-1)!.notices).toBe('');
  });

  it('short messages cover no work; a notice that comes moves no row from under the pointer', async () => {
    const app = await apps.open({ sandbox: { orders: 300 } });
    const { page, sandbox } = app;
    const grid = await gridShown(page);
    // A cancel's outcome, with the order's details open beside the grid.
    const pending = new Set(sandbox.orderIds({ status: 'pending' }));
    const id = (await grid.getByRole('rowheader').allTextContents()).find((each) =>
      pending.has(each),
    )!;
    await grid.getByRole('rowheader', { name: id, exact: true }).click();
    await grid.getByRole('button', { name: `Cancel order ${id}`, exact: true }).click();
    await page
      .getByRole('dialog', { name: `Cancel order ${id}?` })
      .getByRole('button', { name: `Cancel order ${id}` })
      .click();
    const outcome = page.getByRole('status', { name: 'Cancel outcome' });
    await expect.poll(() => outcome.textContent()).toContain('was cancelled');
    const toast = (await page.evaluate(inPage.boxOf, '.toast:not(.toast-empty)'))!;
    const rows = (await page.evaluate(inPage.boxOf, '.orders-grid-scroll'))!;
    const panel = (await page.evaluate(inPage.boxOf, '.side-panel'))!;
    expect(overlap(toast, rows)).toBe(false);
    expect(overlap(toast, panel)).toBe(false);
    await checkScreen(page, 'orders-cancel-outcome');
    await page.getByRole('button', { name: 'Dismiss' }).click();

    // The pointer on a row; the service goes and its notice comes: the row stays under it.
    const row = grid.locator('[role="row"][aria-rowindex="8"]');
    const box = (await row.boundingBox())!;
    const point = { x: box.x + box.width / 3, y: box.y + box.height / 2 };
    await page.mouse.move(point.x, point.y);
    const under = await page.evaluate(inPage.rowIdAt, point);
    await sandbox.close();
    await page.keyboard.press('Tab'); // nothing moves the pointer
    await page
      .locator('button.primary-button')
      .evaluate((button) => (button as { click(): void }).click());
    await notice(page, 'unreachable').waitFor({ timeout: 10_000 });
    expect((await row.boundingBox())!.y).toBe(box.y);
    expect(await page.evaluate(inPage.rowIdAt, point)).toBe(under);
  });

  it('messages: a 503 at every try says so without counting “1 tries”; Staging with 5,000 orders and faults stays calm', async () => {
    const staging = await apps.sandbox({
      orders: 5_000,
      seed: 9,
      keys: [{ plan: 'business', key: 'stg-key-2' }],
    });
    const app = await apps.open();
    const { page, sandbox } = app;
    await gridShown(page);
    sandbox.setFaults('5xx@1');
    await refresh(page);
    const failed = notice(page, 'refresh-failed');
    await failed.waitFor();
    const words = (await failed.locator('.notice-text').textContent())!;
    expect(words).toBe(
      'Not refreshed. The store service had a problem (503) and did not finish the request, though Store Admin tried 4 times. Try again in a few minutes.',
    );
    expect(words).not.toMatch(/\b1 tr(y|ies)\b/);
    sandbox.setFaults(undefined);
    await refresh(page);
    expect(await failed.count()).toBe(0);

    // Staging with faults: lost answers, 503s and slow answers now and then.
    await page.evaluate(inPage.setUpEnvironment, {
      environment: 'staging' as const,
      baseUrl: staging.baseUrl,
      key: 'stg-key-2',
    });
    staging.setFaults('reset@0.2,5xx@0.1,latency=300@0.3');
    await page.getByRole('radio', { name: /^Staging/ }).check();
    await gridShown(page, 'Staging');
    await page.evaluate(inPage.recordNotices);
    for (let i = 0; i < 4; i++) await refresh(page);
    const seen = await page.evaluate(inPage.recordedNotices);
    expect(seen.filter((state) => state.notices.includes('unreachable'))).toEqual([]);
    await checkScreen(page, 'orders-staging-faults');
  });
});
