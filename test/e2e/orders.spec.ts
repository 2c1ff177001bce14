// Whole flows of the orders screen in Chromium, against the real main
// process and the sandbox: the list, search and filters, the details panel,
// cancel a pending order and a shipped one, the quota's details, a bulk
// cancel with no 429 (ticks, toolbar, strip, Close), the cancel log panel,
// the service gone (review from the cache, cancel disabled), and a restart
// that shows the cache at once. Every screen and dialog on the way is checked
// with axe-core and photographed in both themes (support/screens.ts).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startE2EApp, type E2EApp, describeOnHarness } from './support/app.ts';
import { axeSummary, checkScreen } from './support/screens.ts';

let app: E2EApp;

describeOnHarness('orders in Chromium', () => {
  beforeAll(async () => {
    app = await startE2EApp({ sandbox: { orders: 2000 } });
  });
  afterAll(async () => {
    console.log(axeSummary('orders'));
    await app?.close();
  });

  it('lists, searches, and cancels a pending order and a shipped one', async () => {
    const { page, sandbox } = app;
    const grid = page.getByRole('grid', { name: 'Sandbox orders' });
    await grid.getByRole('row').nth(1).waitFor();
    await expect.poll(() => page.getByText(/^Showing [\d,]+ of 2,000 orders/).count()).toBe(1);
    await checkScreen(page, 'orders');

    const pending = sandbox.orderIds({ status: 'pending' })[5]!;
    const shipped = sandbox.orderIds({ status: 'shipped' })[5]!;
    const search = page.getByRole('searchbox', { name: 'Search by order or pet ID' });
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByRole('combobox', { name: 'Look in' }).selectOption('Order ID only');
    await page.getByRole('combobox', { name: 'Match' }).selectOption('Start of the ID');
    await checkScreen(page, 'orders-filters');
    await search.fill(pending);
    await expect
      .poll(() => page.getByText(/^Showing [\d,]+ of 2,000 orders/).textContent())
      .not.toContain('2,000 of');

    // The order's details in the side panel, the grid still in view.
    await grid.getByRole('rowheader', { name: pending, exact: true }).click();
    const details = page.getByRole('complementary', { name: `Order ${pending}` });
    await details.waitFor();
    expect(await grid.isVisible()).toBe(true);
    await checkScreen(page, 'order-details');

    await grid.getByRole('button', { name: `Cancel order ${pending}`, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel order ${pending}?` });
    await expect.poll(() => dialog.textContent()).toContain('Sandbox (demo data)');
    await checkScreen(page, 'cancel-confirmation');
    await dialog.getByRole('button', { name: `Cancel order ${pending}` }).click();
    const outcome = page.getByRole('status', { name: 'Cancel outcome' });
    await expect.poll(() => outcome.textContent()).toContain(`Order ${pending} was cancelled`);
    expect(sandbox.orderStatus(pending)).toBe('cancelled');
    // One message, no alert; the row says Cancelled.
    expect(await page.getByRole('alert').count()).toBe(0);
    await expect.poll(() => grid.getByRole('row').filter({ hasText: 'Cancelled' }).count()).toBe(1);

    await search.fill(shipped);
    await grid.getByRole('button', { name: `Cancel order ${shipped}`, exact: true }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: `Cancel order ${shipped}`, exact: true })
      .click();
    await expect.poll(() => outcome.textContent()).toContain('already shipped');
    expect(sandbox.orderStatus(shipped)).toBe('shipped');
    // The message goes away by itself, or at once with Dismiss.
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => outcome.textContent()).toBe('');

    // An empty view says so in the grid, with the way back.
    await search.fill('99999999');
    const empty = page.getByText('No orders match “99999999” with the filters set.');
    await empty.waitFor();
    await checkScreen(page, 'orders-no-match');
    await page
      .locator('.orders-grid-empty')
      .getByRole('button', { name: 'Clear search and filters' })
      .click();
    await expect.poll(() => search.inputValue()).toBe('');
    await page.getByRole('button', { name: 'Close order details' }).click();
  });

  it('shows the quota meter and its details, and runs a bulk cancel to the end', async () => {
    const { page, sandbox } = app;
    const meter = page.getByRole('meter');
    await expect.poll(() => meter.getAttribute('aria-valuetext')).toMatch(/of 300 requests left/);
    await page.getByRole('button', { name: 'Quota details' }).click();
    await page.getByRole('group', { name: 'Quota details' }).waitFor();
    await checkScreen(page, 'quota-details');
    await page.keyboard.press('Escape');

    const grid = page.getByRole('grid', { name: 'Sandbox orders' });
    const search = page.getByRole('searchbox', { name: 'Search by order or pet ID' });
    // The bulk-cancel actions are in the toolbar only while orders are ticked.
    expect(await page.getByRole('group', { name: 'Ticked orders' }).count()).toBe(0);
    // Order ids starting with 3: 111 of them, within one minute's quota of the Pro plan.
    await page.getByRole('button', { name: /^Filters/ }).click();
    await page.getByRole('combobox', { name: 'Look in' }).selectOption('Order ID only');
    await page.getByRole('combobox', { name: 'Match' }).selectOption('Start of the ID');
    await page.keyboard.press('Escape');
    await search.fill('3');
    await expect
      .poll(() => page.getByText(/^Showing [\d,]+ of 2,000 orders/).textContent())
      .not.toContain('2,000 of');
    await grid.getByRole('checkbox', { name: 'Select all shown' }).check();
    const ticked = page.getByRole('group', { name: 'Ticked orders' });
    const count = Number((await ticked.getByText(/ticked$/).textContent())!.replace(/\D/g, ''));
    expect(count).toBeGreaterThan(100);
    await checkScreen(page, 'orders-ticked');
    await ticked.getByRole('button', { name: 'Cancel ticked orders…' }).click();
    await page.getByRole('dialog').waitFor();
    await checkScreen(page, 'bulk-cancel-confirmation');
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Cancel [\d,]+ orders$/ })
      .click();
    const strip = page.getByRole('region', { name: /^Bulk cancel/ });
    await strip.waitFor();
    // The ticked orders went to the job: none ticked now.
    expect(await ticked.count()).toBe(0);
    await strip.getByText('Finished.').waitFor({ timeout: 60_000 });
    await checkScreen(page, 'bulk-cancel');
    expect(sandbox.requestLog.filter((r) => r.status === 429)).toHaveLength(0);
    // Every pending order shown was cancelled; the shipped ones stay as they were.
    expect(sandbox.orderIds({ status: 'pending' }).filter((id) => id.startsWith('3'))).toHaveLength(
      0,
    );
    expect(await strip.getByText('Already shipped').count()).toBe(1);

    // The results stay in the cancel log, in its own panel.
    await page.getByRole('button', { name: /^Cancel log/ }).click();
    const log = page.getByRole('complementary', { name: 'Cancel log — Sandbox' });
    await log.getByRole('table').waitFor();
    await checkScreen(page, 'cancel-log');
    // The status column at its narrowest (the panel beside it, 1280 px) holds its widest chip whole.
    const widest = await page.evaluate(() => {
      const cell = document.querySelector<HTMLElement>('.status-cell')!;
      const chip = document.createElement('span');
      chip.className = 'status-chip status-unknown';
      chip.textContent = 'May be cancelled';
      cell.append(chip);
      const style = getComputedStyle(cell);
      const room =
        cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const width = chip.getBoundingClientRect().width;
      chip.remove();
      return { width, room };
    });
    expect(widest.width).toBeLessThanOrEqual(widest.room);
    await log.getByRole('button', { name: 'Close cancel log' }).click();

    // Closed for good: not back after a reload of the window.
    await strip.getByRole('button', { name: 'Close bulk cancel' }).click();
    await strip.waitFor({ state: 'detached' });
    await page.reload();
    await grid.getByRole('row').nth(1).waitFor();
    expect(await page.getByRole('region', { name: /^Bulk cancel/ }).count()).toBe(0);
    await search.fill('');
  });

  it('reviews from the cache when the service is gone, and shows the cache at once after a restart', async () => {
    const { page, sandbox } = app;
    await page.getByRole('grid', { name: 'Sandbox orders' }).getByRole('row').nth(1).waitFor();
    await sandbox.close();
    await page.getByRole('button', { name: 'Refresh' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toContain('Offline review.');
    expect(await alert.count()).toBe(1);
    const grid = page.getByRole('grid', { name: 'Sandbox orders' });
    const firstCancel = grid.getByRole('button', { name: /^Cancel order / }).first();
    expect(await firstCancel.getAttribute('aria-disabled')).toBe('true');
    await checkScreen(page, 'offline-review');

    await app.restart();
    await page.getByRole('grid', { name: 'Sandbox orders' }).getByRole('row').nth(1).waitFor();
    await expect.poll(() => page.getByText(/^Showing [\d,]+ of [\d,]+ orders/).count()).toBe(1);
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: 30_000 })
      .toContain('Sandbox cannot be reached');
    expect(app.cspViolations()).toEqual([]);
  });
});
