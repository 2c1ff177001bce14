// A list that downloads slowly, in Chromium against the real main process:
// the sandbox sends it at a limited rate (its --bandwidth), and the first rows
// are on screen, with the count so far and the progress bar, long before the
// last byte; a search and a sort made on what has arrived hold and settle on
// the whole list. Then a refresh cut off by a malformed answer: the whole
// list stays on screen and the problem is said once. The arriving rows are
// photographed at 1280×800 and 1920×1080 in both themes.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startE2EApp, type E2EApp, describeOnHarness } from './support/app.ts';
import { axeSummary, checkScreen } from './support/screens.ts';

/** Orders in the list, and the rate it comes at: some ten seconds of download. */
const ORDERS = 60_000;
const BYTES_PER_SECOND = 600_000;

let app: E2EApp;

describeOnHarness('an order list arriving in Chromium', () => {
  beforeAll(async () => {
    app = await startE2EApp({
      sandbox: { orders: ORDERS, bytesPerSecond: BYTES_PER_SECOND },
    });
  });
  afterAll(async () => {
    console.log(axeSummary('orders-stream'));
    await app?.close();
  });

  it('shows rows before a throttled download ends, and search and sort settle on the whole list', async () => {
    const { page } = app;
    const grid = page.getByRole('grid', { name: 'Sandbox orders' });
    // The app downloads the list as it starts (a fresh data folder): the first row comes.
    await grid.locator('[role="row"][aria-rowindex="2"]').waitFor({ timeout: 20_000 });
    const early = await page.evaluate<{
      busy: string | null;
      status: string;
      received: number;
      total: number;
    }>(`(() => {
        const progress = document.querySelector('#orders-progress');
        return {
          busy: document.querySelector('[role="grid"]').getAttribute('aria-busy'),
          status: document.querySelector('.view-count')?.textContent ?? '',
          received: progress ? progress.value : -1,
          total: progress ? progress.max : -1,
        };
      })()`);
    // Main had not read the whole body yet when the rows were on screen.
    expect(early.total).toBeGreaterThan(0);
    expect(early.received).toBeLessThan(early.total);
    expect(early.busy).toBe('true');
    expect(early.status).toMatch(
      /^Showing the [\d,]+ orders received so far; the rest are on their way/,
    );
    const soFar = Number(/the ([\d,]+) orders/.exec(early.status)![1]!.replaceAll(',', ''));
    expect(soFar).toBeGreaterThan(0);
    expect(soFar).toBeLessThan(ORDERS);

    // Search and sort on what has arrived; the count keeps growing under them.
    await page.getByRole('searchbox', { name: 'Search by order or pet ID' }).fill('42');
    await grid.getByRole('button', { name: /^Pet ID/ }).click();
    const status = page.locator('.view-count');
    await expect.poll(() => status.textContent()).toMatch(/so far/);
    await checkScreen(page, 'orders-arriving');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await checkScreen(page, 'orders-arriving-1920');
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect
      .poll(() => status.textContent(), { timeout: 30_000 })
      .toMatch(new RegExp(`^Showing [\\d,]+ of ${ORDERS.toLocaleString('en')} orders$`));
    expect(await grid.getAttribute('aria-busy')).not.toBe('true');
    expect(await page.locator('#orders-progress').count()).toBe(0);
    expect(
      await grid.getByRole('columnheader', { name: /^Pet ID/ }).getAttribute('aria-sort'),
    ).toBe('ascending');
    // The view is the search's rows of the whole list, by pet ID: every row holds 42.
    const cells = (await grid.getByRole('row').allTextContents()).slice(1, 6);
    expect(cells.length).toBeGreaterThan(0);
    for (const text of cells) expect(text).toContain('42');
  }, 60_000);

  it('keeps the whole list on screen when a refresh is cut off, and says so once', async () => {
    const { page, sandbox } = app;
    await page.getByRole('searchbox', { name: 'Search by order or pet ID' }).fill('');
    const status = page.locator('.view-count');
    const whole = new RegExp(
      `^Showing ${ORDERS.toLocaleString('en')} of ${ORDERS.toLocaleString('en')} orders$`,
    );
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(whole);
    // Every list answer from now on is cut off: a truncated array.
    sandbox.setFaults('malformed@1');
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expect
      .poll(() => page.getByText('Not refreshed.', { exact: true }).count(), { timeout: 30_000 })
      .toBe(1);
    expect(await status.textContent()).toMatch(whole);
    expect(await page.locator('[role="grid"] [role="row"][aria-rowindex="2"]').count()).toBe(1);
    await checkScreen(page, 'orders-refresh-cut-off');
    sandbox.setFaults(undefined);
  }, 60_000);
});
