// A clerk's work in progress, in Chromium against real sandboxes: ticks and a
// half-typed search survive the automatic refresh (the page's clock moved on
// five minutes) and a manual one, and the ticked orders a refresh no longer
// finds are named once; a complete order reads as shipped and offers no
// cancel; the bulk confirmation says what it leaves out of the ticks and why,
// and in Production above 100 orders waits for the number to be typed; a bulk
// cancel that ends with failures offers "Retry failed", and each count shows
// its orders; a first list says "Changes show from the next refresh" beside
// the Changes filter, not in the toolbar. Each screen checked with axe-core
// and photographed in both themes.

import type { Locator, Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/main/sandbox/server.ts';
import { SANDBOX_DEMO_KEY } from '../../src/shared/environments.ts';
import { inPage } from './support/in-page-shapes.ts';
import { checkScreen } from './support/screens.ts';
import { describeOnHarness } from './support/app.ts';
import { gridShown, specApps } from './support/spec-apps.ts';

const apps = specApps('work-that-stays');

/** The order ids of the rows in the page, top to bottom. */
async function shownIds(grid: Locator): Promise<string[]> {
  return grid.getByRole('rowheader').allTextContents();
}

/** A cancel sent from elsewhere (another clerk): the order leaves the service's list. */
async function cancelElsewhere(sandbox: Sandbox, id: string): Promise<void> {
  const answer = await fetch(`${sandbox.baseUrl}/store/orders/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${SANDBOX_DEMO_KEY}` },
  });
  expect(answer.status).toBe(204);
}

/** Order ids as the service lists them, by number: "2, 3". */
const byId = (...ids: string[]) =>
  ids.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)).join(', ');

/** The status bar's count: "Showing 11 of 1,000 orders". */
const viewCount = (page: Page) => page.locator('.view-count').textContent();

const listRequests = (sandbox: Sandbox) =>
  sandbox.requestLog.filter((request) => request.method === 'GET').length;

describeOnHarness('work that stays, in Chromium', () => {
  afterAll(() => apps.closeAll());

  it('ticks and a half-typed search survive the automatic refresh and a manual one; ticked orders gone from the list are named once', async () => {
    const app = await apps.open({ clock: true, sandbox: { orders: 400 } });
    const { page, sandbox } = app;
    const grid = await gridShown(page);
    const search = page.getByRole('searchbox', { name: 'Search by order or pet ID' });
    await search.fill('3');
    await expect.poll(() => viewCount(page)).not.toBe('Showing 400 of 400 orders');
    const pending = new Set(sandbox.orderIds({ status: 'pending' }));
    const ticked = (await shownIds(grid)).filter((id) => pending.has(id)).slice(0, 6);
    expect(ticked).toHaveLength(6);
    for (const id of ticked)
      await grid.getByRole('checkbox', { name: `Select order ${id}`, exact: true }).click();
    const tickedCount = page.getByRole('group', { name: 'Ticked orders' }).getByRole('status');
    expect(await tickedCount.textContent()).toBe('6 ticked');

    // Another clerk cancels two of them; the clerk is typing a longer search, the field focused.
    await cancelElsewhere(sandbox, ticked[0]!);
    await cancelElsewhere(sandbox, ticked[1]!);
    await search.focus();
    await search.press('End');
    await page.keyboard.type('3');
    await search.press('Backspace');
    // Five minutes on: the automatic refresh comes while the search is half-typed.
    const before = listRequests(sandbox);
    await page.clock.fastForward('05:05');
    await expect.poll(() => listRequests(sandbox), { timeout: 20_000 }).toBeGreaterThan(before);
    const lost = page.getByRole('status', { name: 'Ticked orders' });
    await expect
      .poll(() => lost.textContent(), { timeout: 20_000 })
      // Named in the list's order (the sandbox's: by id), not the order they were ticked in.
      .toBe(`2 ticked orders are no longer in the list: ${byId(ticked[0]!, ticked[1]!)}.`);
    expect(await tickedCount.textContent()).toBe('4 ticked');
    for (const id of ticked.slice(2))
      expect(
        await grid.getByRole('checkbox', { name: `Select order ${id}`, exact: true }).isChecked(),
      ).toBe(true);
    // The search as it was typed, still in the clerk's hands.
    expect(await search.inputValue()).toBe('3');
    expect(await search.evaluate((field) => field === document.activeElement)).toBe(true);
    await checkScreen(page, 'orders-ticks-kept');

    // A manual refresh with nothing more gone: the ticks stay, nothing is said again.
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => lost.textContent()).toBe('');
    const again = listRequests(sandbox);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => listRequests(sandbox)).toBeGreaterThan(again);
    await expect
      .poll(() => page.getByRole('button', { name: 'Refresh' }).textContent())
      .toBe('Refresh');
    expect(await tickedCount.textContent()).toBe('4 ticked');
    expect(await lost.textContent()).toBe('');
  });

  it('a complete order reads as shipped and offers no cancel: not in the row, not with Delete, not in its details', async () => {
    const app = await apps.open();
    const { page, sandbox } = app;
    const grid = await gridShown(page);
    const rows = grid.locator('.orders-grid-item');
    const count = await rows.count();
    let complete: Locator | undefined;
    for (let at = 0; at < count && !complete; at++) {
      const row = rows.nth(at);
      if ((await row.locator('[role="gridcell"]').nth(4).textContent()) === 'Yes') complete = row;
    }
    expect(complete).toBeDefined();
    const id = (await complete!.getByRole('rowheader').textContent())!;
    expect(await complete!.locator('.status-cell').textContent()).toBe('Shipped');
    expect(await complete!.getByRole('button').count()).toBe(0);
    // The service agrees: a cancel of it answers 409.
    const answer = await fetch(`${sandbox.baseUrl}/store/orders/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${SANDBOX_DEMO_KEY}` },
    });
    expect(answer.status).toBe(409);
    // Delete on the row asks nothing; its details offer no cancel.
    await complete!.click();
    await complete!.press('Delete');
    expect(await page.getByRole('dialog').count()).toBe(0);
    const details = page.getByRole('complementary', { name: `Order ${id}` });
    await details.waitFor();
    expect(await details.textContent()).toContain('Shipped — cannot be cancelled');
    expect(await details.getByRole('button', { name: /^Cancel order/ }).count()).toBe(0);
    await checkScreen(page, 'order-details-complete');
  });

  it('bulk: the confirmation names what it leaves out and why; failures end with Retry failed, confirmed; each count shows its orders', async () => {
    const app = await apps.open({ sandbox: { orders: 1000 } });
    const { page, sandbox } = app;
    const grid = await gridShown(page);
    const search = page.getByRole('searchbox', { name: 'Search by order or pet ID' });
    // Order ids only, from their start: "12" keeps 12, 120–129 and 1200–1299.
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByRole('combobox', { name: 'Look in' }).selectOption('Order ID only');
    await page.getByRole('combobox', { name: 'Match' }).selectOption('Start of the ID');
    await page.keyboard.press('Escape');
    await search.fill('12');
    await expect.poll(() => viewCount(page)).toBe('Showing 11 of 1,000 orders');
    await grid.getByRole('checkbox', { name: 'Select all shown' }).click();
    // One more ticked order that the search then hides.
    await search.fill('7');
    await expect.poll(() => viewCount(page)).toBe('Showing 111 of 1,000 orders');
    await grid.getByRole('checkbox', { name: 'Select order 7', exact: true }).click();
    await search.fill('12');
    await expect.poll(() => viewCount(page)).toBe('Showing 11 of 1,000 orders');
    const tickedText = await page
      .getByRole('group', { name: 'Ticked orders' })
      .getByRole('status')
      .textContent();
    const ticked = Number(tickedText!.replace(/\D/g, ''));
    await page.getByRole('button', { name: 'Cancel ticked orders…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Cancel \d+ orders\?$/ });
    await dialog.waitFor();
    const sent = Number((await dialog.getByRole('heading').textContent())!.replace(/\D/g, ''));
    expect(sent).toBeLessThan(ticked);
    const words = await dialog.textContent();
    expect(words).toMatch(
      new RegExp(
        `Of the ${ticked} orders ticked, \\d+ (has|have) already shipped and (is|are) left out\\.`,
      ),
    );
    expect(words).toContain(
      'One ticked order is not shown with the search and filters now; it is included.',
    );
    await checkScreen(page, 'bulk-cancel-left-out');

    // The service fails every cancel (503): the job ends with failures.
    sandbox.setFaults('5xx@1');
    await dialog.getByRole('button', { name: `Cancel ${sent} orders` }).click();
    const strip = page.getByRole('region', { name: /^Bulk cancel/ });
    await strip.getByText('Finished.').waitFor({ timeout: 60_000 });
    const failedCount = strip.getByRole('button', { name: /^Failed/ });
    expect(await failedCount.textContent()).toBe(`Failed ${sent}`);
    // The count shows its orders in the grid, and pressed again, all of them.
    await failedCount.click();
    await expect.poll(() => viewCount(page)).toBe(`Showing ${sent} of 1,000 orders`);
    expect(await failedCount.getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByText('Bulk cancel’s “Failed” orders').count()).toBe(1);
    await checkScreen(page, 'bulk-cancel-failed');

    // Retry failed asks first; keeping them sends nothing.
    const deletes = () =>
      sandbox.requestLog.filter((request) => request.method === 'DELETE').length;
    const sentBefore = deletes();
    await strip.getByRole('button', { name: 'Retry failed…' }).click();
    const retry = page.getByRole('dialog', { name: `Send ${sent} failed cancels again?` });
    await retry.waitFor();
    await checkScreen(page, 'bulk-cancel-retry-failed');
    await retry.getByRole('button', { name: 'Leave them' }).click();
    expect(deletes()).toBe(sentBefore);
    // The service answers again; sending them again cancels them.
    sandbox.setFaults(undefined);
    await strip.getByRole('button', { name: 'Retry failed…' }).click();
    await retry.getByRole('button', { name: `Send ${sent} again` }).click();
    await strip.getByText('Finished.').waitFor({ timeout: 60_000 });
    await expect
      .poll(() => strip.getByRole('button', { name: /^Cancelled/ }).textContent(), {
        timeout: 30_000,
      })
      .toMatch(/^Cancelled \d+$/);
    expect(await strip.getByRole('button', { name: /^Failed/ }).count()).toBe(0);
  });

  it('a bulk cancel of more than 100 orders in Production waits for the number to be typed', async () => {
    const production = await apps.sandbox({
      orders: 300,
      keys: [{ plan: 'pro', key: 'prod-key' }],
    });
    const app = await apps.open();
    const { page } = app;
    await gridShown(page);
    await page.evaluate(inPage.setUpEnvironment, {
      environment: 'production' as const,
      baseUrl: production.baseUrl,
      key: 'prod-key',
    });
    await page.getByRole('radio', { name: /^Production/ }).check();
    const grid = await gridShown(page, 'Production');
    await grid.getByRole('checkbox', { name: 'Select all shown' }).click();
    await page.getByRole('button', { name: 'Cancel ticked orders…' }).click();
    const dialog = page.getByRole('dialog', { name: /^Cancel \d+ orders\?$/ });
    await dialog.waitFor();
    const count = (await dialog.getByRole('heading').textContent())!.replace(/\D/g, '');
    expect(Number(count)).toBeGreaterThan(100);
    const confirm = dialog.getByRole('button', { name: `Cancel ${count} orders` });
    expect(await confirm.getAttribute('aria-disabled')).toBe('true');
    // Pressed all the same (it is only aria-disabled), it says what it waits for.
    await confirm.click({ force: true });
    expect(await dialog.textContent()).toContain(`Type ${count} to cancel these orders.`);
    const field = dialog.getByRole('textbox', { name: /type the number/ });
    await field.fill(String(Number(count) - 1));
    expect(await confirm.getAttribute('aria-disabled')).toBe('true');
    await field.fill(count);
    expect(await confirm.getAttribute('aria-disabled')).toBeNull();
    await checkScreen(page, 'bulk-cancel-production-typed');
    // Nothing was sent: the clerk keeps the orders.
    await dialog.getByRole('button', { name: 'Keep the orders' }).click();
    expect(production.requestLog.filter((request) => request.method === 'DELETE')).toHaveLength(0);
  });

  it('a first list: “Changes show from the next refresh” is said beside the Changes filter, not in the toolbar', async () => {
    const app = await apps.open();
    const { page } = app;
    await gridShown(page);
    const summary = page.locator('.orders-toolbar .changes-line');
    expect(await summary.textContent()).toBe('');
    expect(await page.locator('.orders-toolbar').textContent()).not.toContain('Changes show');
    await page.getByRole('button', { name: 'Filters' }).click();
    const changes = page.getByRole('combobox', { name: 'Changes' });
    await changes.waitFor();
    await expect.poll(() => changes.getAttribute('aria-describedby')).not.toBeNull();
    const hint = await changes.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${hint}"]`).textContent()).toBe(
      'Changes show from the next refresh: this is the first list of this service here.',
    );
    await checkScreen(page, 'orders-filters-first-list');
    await page.keyboard.press('Escape');
    // After the next refresh there is something to compare: the toolbar says what changed.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => summary.textContent(), { timeout: 20_000 }).toMatch(/since/);
  });
});
