// What no other tool shows, in Chromium against the real main process: a
// refresh after the sandbox's churn (--churn) shows new, changed and gone
// orders (an order cancelled here told apart from those that left by
// themselves); a deprecated endpoint (--deprecate) gives one notice in plain
// words; a domain waiting on DNS turns ready by itself (the loopback DNS
// server, a short re-check schedule) and says so on another screen. Each
// state is checked with axe-core and photographed in both themes, at
// 1280×800 and (the busiest ones) at 1920×1080.

import type { Page } from 'playwright-core';
import { afterAll, afterEach, expect, it } from 'vitest';
import { startDnsTestServer, type TestRecord } from '../../tools/loopback/dns-test-server.ts';
import { startE2EApp, type E2EApp, type E2EAppOptions, describeOnHarness } from './support/app.ts';
import { inPage } from './support/in-page-shapes.ts';
import { axeSummary, checkScreen } from './support/screens.ts';

const STEP_MS = 60_000;
const TARGET = 'edge.petstore-platform.invalid';
const ZONE = 'pets-example.invalid';
const DOMAIN = `shop.${ZONE}`;

let app: E2EApp | undefined;

async function open(options: E2EAppOptions): Promise<E2EApp> {
  app = await startE2EApp(options);
  return app;
}

/** The same screen at 1920×1080 too, then back to 1280×800. */
async function checkWide(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await checkScreen(page, `${name}-1920`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

describeOnHarness('changes, deprecations and domains that check themselves in Chromium', () => {
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  afterAll(() => console.log(axeSummary('changes')));

  it('a refresh shows new, changed and gone orders', async () => {
    let shift = 0;
    const { page, sandbox } = await open({
      sandbox: { orders: 2000, churnEveryMs: STEP_MS, now: () => Date.now() + shift },
    });
    const grid = page.getByRole('grid', { name: 'Sandbox orders' });
    await grid.getByRole('row').nth(1).waitFor();
    const summary = page.getByRole('status', { name: 'Changes since the last refresh' });
    // A first list: nothing to compare with, so the toolbar's line says nothing yet (the
    // Changes filter says when changes will show).
    expect(await page.locator('.orders-toolbar').textContent()).not.toContain('Changes show');

    // One order cancelled from here, as a clerk does it.
    const mine = sandbox.orderIds({ status: 'pending' })[3]!;
    const search = page.getByRole('searchbox', { name: 'Search by order or pet ID' });
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByRole('combobox', { name: 'Look in' }).selectOption('Order ID only');
    await page.getByRole('combobox', { name: 'Match' }).selectOption('Start of the ID');
    // Filters closed again (Escape), as it would be when the clerk turns to the list.
    await page.keyboard.press('Escape');
    await search.fill(mine);
    await grid.getByRole('button', { name: `Cancel order ${mine}`, exact: true }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: `Cancel order ${mine}`, exact: true })
      .click();
    await expect
      .poll(() => page.getByRole('status', { name: 'Cancel outcome' }).textContent())
      .toContain(`Order ${mine} was cancelled`);
    await page.getByRole('button', { name: /^Filters/ }).click();
    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    await page.keyboard.press('Escape');

    shift += STEP_MS;
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect
      .poll(() => summary.textContent(), { timeout: 20_000 })
      .toMatch(/^\+\d+ new, \d+ gone, \d+ changed since \d{1,2}:\d\d(?:\s[AP]M)?$/);
    const [churn] = sandbox.churned;
    expect(await summary.textContent()).toMatch(
      new RegExp(`^\\+${churn!.arrived.length} new, ${churn!.cancelled.length + 1} gone, `),
    );
    // The Changes filter: the changed orders (spread through the list), with their marks.
    await page.getByRole('button', { name: 'Filters' }).click();
    const changes = page.getByRole('combobox', { name: 'Changes' });
    await changes.selectOption('Changed since the last refresh');
    await page.keyboard.press('Escape');
    const changedRows = grid.getByRole('row').filter({ hasText: 'Changed' });
    await expect.poll(() => changedRows.count()).toBeGreaterThan(0);
    // The summary and the marks fit beside everything else, from the narrowest window up.
    for (const width of [1100, 1920, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect((await page.evaluate(inPage.cutOff)).cut, `${width} px wide`).toEqual([]);
    }
    await checkScreen(page, 'orders-changes');

    // A changed order's details: each changed field with what it was.
    await changedRows.first().getByRole('rowheader').click();
    const details = page.getByRole('complementary', { name: /^Order \d+$/ });
    await details.getByText(/^Changed since the last refresh/).waitFor();
    expect(await details.locator('.changed-field').count()).toBeGreaterThan(0);
    await expect.poll(() => details.locator('.was-value').first().textContent()).toMatch(/was /);
    await checkScreen(page, 'orders-changes-details');

    // Only the new orders, then the gone ones from the list before.
    await page.getByRole('button', { name: /^Filters/ }).click();
    await changes.selectOption('New since the last refresh');
    await expect
      .poll(() => page.getByText(/^Showing [\d,]+ of [\d,]+ orders/).textContent())
      .toContain(`Showing ${churn!.arrived.length} of`);
    await changes.selectOption('Gone since the last refresh');
    await page.keyboard.press('Escape');
    const gone = page.getByRole('table', { name: 'Sandbox orders gone since the last refresh' });
    await gone.waitFor();
    const goneRow = (id: string) =>
      gone.getByRole('row').filter({ has: page.getByRole('rowheader', { name: id, exact: true }) });
    const mineRow = goneRow(mine);
    await expect
      .poll(() => mineRow.textContent())
      .toMatch(/Cancelled here at \d{1,2}:\d\d(?:\s[AP]M)?$/);
    const left = goneRow(churn!.cancelled[0]!);
    await expect.poll(() => left.textContent()).toMatch(/Not cancelled here$/);
    await checkScreen(page, 'orders-changes-gone');
    await checkWide(page, 'orders-changes-gone');
  });

  it('a deprecation notice', async () => {
    const { page } = await open({ sandbox: { deprecate: ['/store/orders=2027-06-30'] } });
    const notice = page.getByRole('region', { name: 'Notices' }).getByRole('alert');
    await expect
      .poll(() => notice.textContent())
      .toMatch(
        // The service's day in the desktop's own form (June 30, 2027; 30 June 2027).
        /Service change\. The store service will stop answering the order list on (June 30, 2027|30 June 2027)\./,
      );
    expect(await notice.count()).toBe(1);
    await notice.getByRole('button', { name: 'Read more' }).waitFor();
    await checkScreen(page, 'notice-deprecation');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => notice.count()).toBe(0);
  });

  it('a domain badge turning ready by itself', async () => {
    // The record is missing at first; the test creates it while the Orders screen is open.
    const records: TestRecord[] = [{ name: TARGET, type: 'A', data: '203.0.113.10' }];
    const dns = await startDnsTestServer({
      records,
      zones: [{ name: ZONE, soaTtl: 900, minimum: 300 }],
    });
    try {
      const { page } = await open({
        recheckSchedule: ({ since, checkedAt }) =>
          checkedAt === undefined || checkedAt < since ? since : checkedAt + 300,
      });
      const screens = page.getByRole('navigation', { name: 'Screens' });
      await screens.getByRole('button', { name: 'Domains' }).click();
      // The first visit asks which published project the domains are for.
      await page.getByLabel('Project name').fill('Pet Shop');
      await page.getByRole('button', { name: 'Add the project' }).click();
      await page.getByRole('button', { name: 'Add a domain' }).click();
      for (const box of [/paid plan/, /change the DNS settings/, /deployed successfully/]) {
        await page.getByRole('checkbox', { name: box }).check();
      }
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Domain or subdomain').fill(DOMAIN);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Platform target').fill(TARGET);
      await page.getByRole('button', { name: 'Save target' }).click();
      await page.getByRole('button', { name: 'I have created the record: continue' }).click();
      await page.getByText(/^How to check/).click();
      await page.getByLabel('DNS server').fill(dns.address);
      await page.getByRole('button', { name: 'Save how to check' }).click();
      await page.getByRole('button', { name: 'Back to all domains' }).click();
      const entry = page.getByRole('listitem').filter({ hasText: DOMAIN });
      await entry.getByText('Waiting for DNS').waitFor();
      await expect
        .poll(() => entry.textContent())
        .toMatch(
          /Waiting for DNS checked at \d{1,2}:\d\d(?:\s[AP]M)? · next check (?:in less than a minute|in about \d+ minutes?|at (?:[A-Z][a-z]{2} \d{1,2}, (?:\d{4}, )?)?\d{1,2}:\d\d(?:\s[AP]M)?)/,
        );
      await checkScreen(page, 'domains-badges');

      await screens.getByRole('button', { name: 'Orders' }).click();
      await page.getByRole('grid', { name: 'Sandbox orders' }).getByRole('row').nth(1).waitFor();
      records.push({ name: DOMAIN, type: 'CNAME', data: TARGET });
      const live = page.getByRole('status', { name: 'Domain checks' });
      await expect
        .poll(() => live.textContent(), { timeout: 20_000 })
        .toBe(
          `${DOMAIN} is ready: DNS is set up as the platform expects. Next: press Verify in the dashboard.`,
        );
      await checkScreen(page, 'domain-ready-announced');

      await screens.getByRole('button', { name: 'Domains' }).click();
      await expect
        .poll(() => entry.textContent())
        .toMatch(/Ready checked at \d{1,2}:\d\d(?:\s[AP]M)?/);
      await checkScreen(page, 'domains-badge-ready');
      await checkWide(page, 'domains-badge-ready');
    } finally {
      await dns.close();
    }
  });
});
