// Whole flows of the orders screen in Chromium, against the real main
// process and the sandbox: the list, search, cancel a pending order and a
// shipped one, the service gone (review from the cache, cancel disabled),
// and a restart that shows the cache at once. Then the quota meter and a
// bulk cancel. Screenshots of the main screens go to docs/.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from './support/browser.ts';
import { SCREENSHOTS, startE2EApp, type E2EApp } from './support/app.ts';

let app: E2EApp;

describe.skipIf(!hasChromium)(
  'orders in Chromium (skipped when /usr/bin/chromium is missing)',
  () => {
    beforeAll(async () => {
      app = await startE2EApp({ sandbox: { orders: 2000 } });
    });
    afterAll(async () => {
      await app?.close();
    });

    it('lists, searches, and cancels a pending order and a shipped one', async () => {
      const { page, sandbox } = app;
      const grid = page.getByRole('grid', { name: 'Sandbox orders' });
      await grid.getByRole('row').nth(1).waitFor();
      await expect.poll(() => page.getByText(/^Showing [\d,]+ of 2,000 orders/).count()).toBe(1);
      await page.screenshot({ path: join(SCREENSHOTS, 'orders.png') });

      const pending = sandbox.orderIds({ status: 'pending' })[5]!;
      const shipped = sandbox.orderIds({ status: 'shipped' })[5]!;
      const search = page.getByRole('searchbox', { name: 'Search by order or pet ID' });
      await page.getByRole('combobox', { name: 'Look in' }).selectOption('Order ID only');
      await page.getByRole('combobox', { name: 'Match' }).selectOption('Start of the ID');
      await search.fill(pending);
      await expect
        .poll(() => page.getByText(/^Showing [\d,]+ of 2,000 orders/).textContent())
        .not.toContain('2,000 of');

      await grid.getByRole('button', { name: `Cancel order ${pending}`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Cancel order ${pending}?` });
      await expect.poll(() => dialog.textContent()).toContain('Sandbox (demo data)');
      await page.screenshot({ path: join(SCREENSHOTS, 'cancel-confirmation.png') });
      await dialog.getByRole('button', { name: `Cancel order ${pending}` }).click();
      const outcome = page.getByRole('status', { name: 'Cancel outcome' });
      await expect.poll(() => outcome.textContent()).toContain(`Order ${pending} was cancelled`);
      expect(sandbox.orderStatus(pending)).toBe('cancelled');

      await search.fill(shipped);
      await grid.getByRole('button', { name: `Cancel order ${shipped}`, exact: true }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: `Cancel order ${shipped}`, exact: true })
        .click();
      await expect.poll(() => outcome.textContent()).toContain('already shipped');
      expect(sandbox.orderStatus(shipped)).toBe('shipped');
      await search.fill('');
    });

    it('shows the quota meter, and runs a bulk cancel to the end', async () => {
      const { page, sandbox } = app;
      const meter = page.getByRole('meter');
      await expect.poll(() => meter.getAttribute('aria-valuetext')).toMatch(/of 300 requests left/);
      await page.getByRole('button', { name: 'Quota details' }).click();
      await page.screenshot({ path: join(SCREENSHOTS, 'quota-meter.png') });
      await page.keyboard.press('Escape');

      const grid = page.getByRole('grid', { name: 'Sandbox orders' });
      const search = page.getByRole('searchbox', { name: 'Search by order or pet ID' });
      await page.getByRole('combobox', { name: 'Match' }).selectOption('Start of the ID');
      await search.fill('3');
      await expect
        .poll(() => page.getByText(/^Showing [\d,]+ of 2,000 orders/).textContent())
        .not.toContain('2,000 of');
      await grid.getByRole('checkbox', { name: 'Select all shown' }).check();
      const ticked = Number(
        (await page.getByText(/orders ticked\.$/).textContent())!.replace(/\D/g, ''),
      );
      expect(ticked).toBeGreaterThan(100);
      await page.getByRole('button', { name: 'Cancel ticked orders…' }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /^Cancel [\d,]+ orders$/ })
        .click();
      const panel = page.getByRole('region', { name: /^Bulk cancel/ });
      await panel.waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'bulk-cancel.png') });
      await panel.getByText('Finished.').waitFor({ timeout: 60_000 });
      expect(sandbox.requestLog.filter((r) => r.status === 429)).toHaveLength(0);
      // Every pending order shown was cancelled; the shipped ones stay as they were.
      expect(
        sandbox.orderIds({ status: 'pending' }).filter((id) => id.startsWith('3')),
      ).toHaveLength(0);
      expect(await panel.getByText('Already shipped').count()).toBe(1);
      await search.fill('');
    });

    it('reviews from the cache when the service is gone, and shows the cache at once after a restart', async () => {
      const { page, sandbox } = app;
      await page.getByRole('searchbox', { name: 'Search by order or pet ID' }).fill('');
      await sandbox.close();
      await page.getByRole('button', { name: 'Refresh' }).click();
      const banner = page.getByRole('status', { name: 'Offline review' });
      await expect
        .poll(() => banner.textContent(), { timeout: 30_000 })
        .toContain('cannot be reached');
      const grid = page.getByRole('grid', { name: 'Sandbox orders' });
      const firstCancel = grid.getByRole('button', { name: /^Cancel order / }).first();
      expect(await firstCancel.getAttribute('aria-disabled')).toBe('true');
      await page.screenshot({ path: join(SCREENSHOTS, 'offline-review.png') });

      await app.restart();
      await page.getByRole('grid', { name: 'Sandbox orders' }).getByRole('row').nth(1).waitFor();
      await expect.poll(() => page.getByText(/^Showing [\d,]+ of [\d,]+ orders/).count()).toBe(1);
      await expect
        .poll(() => page.getByRole('status', { name: 'Offline review' }).textContent(), {
          timeout: 30_000,
        })
        .toMatch(/Saved copy|cannot be reached/);
    });
  },
);
