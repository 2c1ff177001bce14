// The narrowest window the app allows (1,100×700 screen pixels) at the zooms
// the View menu offers up to its last step, 150% and 200%, in Chromium: every
// control can be reached (Refresh whole, the quota's Details, the Status
// column and a row's Cancel, sideways or with columns hidden from the
// chooser), whatever folded into a "More" panel included. Then the keys a
// power user tries at 150%: the environment switcher's arrows move the focus
// only, Ctrl+K goes to an order by its id, Ctrl+/ shows the shortcuts, and a
// row's own menu opens with Shift+F10, the menu key or a right-click. axe
// finds no serious or critical problem at either zoom, in either theme.
//
// Zoom is what Chromium's page zoom is: the page laid out in a viewport that
// many times smaller and painted that many times larger (support/app.ts).

import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startE2EApp, type E2EApp, describeOnHarness } from './support/app.ts';
import { inPage } from './support/in-page-shapes.ts';
import { axeSummary, checkScreen } from './support/screens.ts';

const WINDOW = { width: 1100, height: 700 } as const;
const ZOOMS = [1.5, 2] as const;
type Zoom = (typeof ZOOMS)[number];

const apps = new Map<Zoom | 1, E2EApp>();
const appAt = (zoom: Zoom | 1) => apps.get(zoom)!;
const percent = (zoom: number) => `${Math.round(zoom * 100)}`;

/** The text that does not fit its box; the title gives way on purpose below 1,100 CSS px (the window's title bar says it). */
const cutText = async (page: Page) =>
  (await page.evaluate(inPage.cutOff)).cut.filter((text) => !text.startsWith('app-title:'));

/** The element's box lies wholly inside the window, and its own text is not cut. */
async function expectWhole(page: Page, locator: Locator, what: string) {
  const box = await locator.boundingBox();
  expect(box, what).not.toBeNull();
  const view = page.viewportSize()!;
  expect(box!.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.y, `${what}: top edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what}: right edge`).toBeLessThanOrEqual(view.width + 0.5);
  expect(box!.y + box!.height, `${what}: bottom edge`).toBeLessThanOrEqual(view.height + 0.5);
  const cut = await locator.evaluate((element) => element.scrollWidth > element.clientWidth + 1);
  expect(cut, `${what}: its text is cut`).toBe(false);
}

/**
 * A control in its bar, or in the bar's "More" panel when it folded there:
 * `more` is the panel's name. Returns the control, in view.
 */
async function reach(page: Page, control: Locator, more: string): Promise<Locator> {
  if (await control.isVisible()) return control;
  await page.getByRole('button', { name: more, exact: true }).click();
  await page.getByRole('group', { name: more, exact: true }).waitFor();
  await control.waitFor();
  return control;
}

const orderGets = (app: E2EApp) =>
  app.sandbox.requestLog.filter((entry) => entry.method === 'GET' && /\/order/.test(entry.path))
    .length;

describeOnHarness('at 150% and 200% zoom in a 1,100×700 window', () => {
  beforeAll(async () => {
    const started = await Promise.all(
      ([1, ...ZOOMS] as const).map(async (zoom) => {
        const app = await startE2EApp({ sandbox: { orders: 2000 }, viewport: WINDOW, zoom });
        await app.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
        return [zoom, app] as const;
      }),
    );
    for (const [zoom, app] of started) apps.set(zoom, app);
  });
  afterAll(async () => {
    console.log(axeSummary('zoom-and-keys'));
    await Promise.all([...apps.values()].map((app) => app.close()));
  });

  for (const zoom of ZOOMS) {
    it(`at ${percent(zoom)}%: nothing is cut off and every control can be reached: Refresh, the quota's Details, Status and Cancel (sideways, or by hiding columns)`, async () => {
      const app = appAt(zoom);
      const { page } = app;
      const grid = page.getByRole('grid', { name: 'Sandbox orders' });
      await grid.getByRole('row').nth(1).waitFor();
      await expect.poll(() => page.getByText(/^Showing 2,000 of 2,000 orders/).count()).toBe(1);
      expect(page.viewportSize()).toEqual({
        width: Math.floor(WINDOW.width / zoom),
        height: Math.floor(WINDOW.height / zoom),
      });
      expect(await page.evaluate(() => window.devicePixelRatio)).toBe(zoom);

      // The window holds: the page never scrolls, the header is one line, no text is cut.
      expect(await page.evaluate(inPage.frameOf)).toMatchObject({
        pageScrollsDown: false,
        pageScrollsAcross: false,
        headerLines: 1,
      });
      expect(await cutText(page)).toEqual([]);
      await checkScreen(page, `orders-zoom-${percent(zoom)}`);

      // Refresh, whole, and it refreshes.
      const refresh = await reach(
        page,
        page.getByRole('button', { name: 'Refresh', exact: true }),
        'More actions',
      );
      await expectWhole(page, refresh, 'Refresh');
      expect(await refresh.textContent()).toBe('Refresh');
      const before = orderGets(app);
      await refresh.click();
      await expect.poll(() => orderGets(app)).toBeGreaterThan(before);
      await expect.poll(() => page.getByText(/^Showing 2,000 of 2,000 orders/).count()).toBe(1);

      // The quota's Details, from the header or its More panel; the panel it opens in view.
      const details = await reach(
        page,
        page.getByRole('button', { name: 'Quota details', exact: true }),
        'More of the header',
      );
      await expectWhole(page, details, 'quota Details');
      await details.click();
      const quota = page.getByRole('group', { name: 'Quota details' });
      await quota.waitFor();
      await expectWhole(page, quota, 'the quota details');
      await page.keyboard.press('Escape');
      if (await quota.isVisible()) await page.keyboard.press('Escape');
      await quota.waitFor({ state: 'hidden' });

      // Sideways: the Status column and a row's Cancel come into view, the header following.
      const status = grid.getByRole('columnheader', { name: 'Status' });
      const scroller = page.locator('.orders-grid-scroll');
      const inScroller = async (locator: Locator) => {
        const [box, area] = await Promise.all([locator.boundingBox(), scroller.boundingBox()]);
        return box !== null && area !== null && box.x + box.width <= area.x + area.width + 0.5;
      };
      expect((await page.evaluate(inPage.cutOff)).sideways).toBe(true);
      await page.evaluate(inPage.scrollGrid, { top: 0, left: -1 });
      await expect.poll(() => inScroller(status)).toBe(true);
      await expect
        .poll(async () => {
          const { left, headLeft } = await page.evaluate(inPage.gridScroll);
          return left > 0 && headLeft === left;
        })
        .toBe(true);
      // The header's Status over the rows' Status, and a row (its line, its highlight) as wide.
      const row = grid.locator('.orders-grid-item:not([hidden])').first();
      const [headBox, cellBox, rowBox] = await Promise.all([
        status.boundingBox(),
        row.locator('> :last-child').boundingBox(),
        row.boundingBox(),
      ]);
      expect(Math.abs(headBox!.x - cellBox!.x)).toBeLessThan(1);
      expect(rowBox!.x + rowBox!.width).toBeGreaterThanOrEqual(cellBox!.x + cellBox!.width - 0.5);
      // Focus going back to a header control out of view on the left (as Shift+Tab to the
      // select-all box does): the rows and the header scroll to it together.
      const rightmost = (await page.evaluate(inPage.gridScroll)).left;
      const headArea = (await page.locator('.orders-grid-head').boundingBox())!;
      const selectAll = grid.getByRole('checkbox', { name: 'Select all shown' });
      await selectAll.focus();
      await expect
        .poll(async () => {
          const { left, headLeft } = await page.evaluate(inPage.gridScroll);
          const shown = await selectAll.boundingBox();
          return left < rightmost && headLeft === left && shown!.x >= headArea.x;
        })
        .toBe(true);
      await page.evaluate(inPage.scrollGrid, { top: 0, left: -1 });
      const cancel = grid.getByRole('button', { name: /^Cancel order \d+$/ }).first();
      await expect.poll(() => inScroller(cancel)).toBe(true);
      await expectWhole(page, cancel, 'a row’s Cancel');
      const cancelName = (await cancel.getAttribute('aria-label'))!;
      await cancel.click();
      const dialog = page.getByRole('dialog', { name: `${cancelName}?` });
      await dialog.waitFor();
      await expectWhole(page, dialog.getByRole('button', { name: cancelName }), 'the confirm');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // The Cancel asked about its order only: no details opened beside the grid under the dialog.
      expect(await page.getByRole('button', { name: 'Close order details' }).count()).toBe(0);
      await page.evaluate(inPage.scrollGrid, { top: 0, left: 0 });

      // Or the chooser: with four columns hidden, Status fits without scrolling sideways.
      const columns = await reach(
        page,
        page.getByRole('button', { name: /^Columns/ }),
        'More actions',
      );
      await columns.click();
      const chooser = page.getByRole('group', { name: 'Columns', exact: true });
      await chooser.waitFor();
      for (const name of ['Pet ID', 'Quantity', 'Ship date', 'Review'])
        await chooser.getByRole('checkbox', { name: new RegExp(`^${name}`) }).uncheck();
      // The chooser ends inside the window; what is below its fold scrolls into view.
      await expectWhole(page, chooser, 'the chooser');
      const showAll = chooser.getByRole('button', { name: 'Show all, at their own widths' });
      await showAll.scrollIntoViewIfNeeded();
      await expectWhole(page, showAll, 'the chooser’s Show all');
      if (zoom === 1.5) await checkScreen(page, 'column-chooser-zoom-150');
      await page.keyboard.press('Escape');
      await chooser.waitFor({ state: 'hidden' });
      expect(await grid.getAttribute('aria-colcount')).toBe('4');
      await expect.poll(async () => (await page.evaluate(inPage.cutOff)).sideways).toBe(false);
      await expectWhole(page, status, 'the Status column');
      await expectWhole(page, cancel, 'a row’s Cancel, columns hidden');
      expect(await cutText(page)).toEqual([]);

      // All back, from the button that now says how many are hidden.
      await (
        await reach(page, page.getByRole('button', { name: 'Columns, 4 hidden' }), 'More actions')
      ).click();
      await chooser.getByRole('button', { name: 'Show all, at their own widths' }).click();
      await page.keyboard.press('Escape');
      expect(await grid.getAttribute('aria-colcount')).toBe('8');
    });
  }

  it('at 150%: the switcher’s arrows move the focus only and Enter or Space switches; Ctrl+K goes to an order; Ctrl+/ shows the shortcuts', async () => {
    const app = appAt(1.5);
    const { page } = app;
    const grid = page.getByRole('grid', { name: 'Sandbox orders' });
    await grid.getByRole('row').nth(1).waitFor();

    const radio = (name: string | RegExp) => page.getByRole('radio', { name });
    const sandbox = await reach(page, radio('Sandbox'), 'More of the header');
    await sandbox.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    // Two presses from Sandbox: the focus is on Production, and Sandbox is still the one in use.
    expect(
      await radio(/^Production/).evaluate((element) => element === document.activeElement),
    ).toBe(true);
    expect(await sandbox.isChecked()).toBe(true);
    expect(await grid.isVisible()).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await page.getByText('STAGING — test service', { exact: true }).first().waitFor();
    expect(await radio('Staging').isChecked()).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Space');
    await grid.getByRole('row').nth(1).waitFor();
    expect(await sandbox.isChecked()).toBe(true);

    // Ctrl+K, an order's id, Enter: its details, in view.
    const id = app.sandbox.orderIds({ status: 'pending' })[40]!;
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    await page.keyboard.type(id);
    // The whole palette in the window, nothing in it wider than it (it would scroll sideways).
    await expectWhole(page, palette, 'the palette');
    await expectWhole(page, palette.getByRole('option').first(), 'the palette’s first choice');
    await checkScreen(page, 'command-palette-zoom-150');
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'detached' });
    const details = page.getByRole('complementary', { name: `Order ${id}` });
    await details.waitFor();
    await expectWhole(page, details.getByRole('heading', { name: `Order ${id}` }), 'the details');
    await page.getByRole('button', { name: 'Close order details' }).click();

    // Ctrl+/: the shortcuts, in a dialog that fits the window (its content scrolls).
    await page.locator('body').press('Control+/');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await expectWhole(page, help.getByRole('heading', { name: 'Keyboard shortcuts' }), 'help');
    await expectWhole(page, help.getByRole('button', { name: 'Close' }), 'help’s Close');
    expect(await help.textContent()).toContain('Ctrl+K');
    await checkScreen(page, 'shortcuts-help-zoom-150');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });

  it('at 150%: a row’s menu opens with Shift+F10, the menu key and a right-click, inside the window; it copies the id', async () => {
    const app = appAt(1.5);
    const { page } = app;
    const grid = page.getByRole('grid', { name: 'Sandbox orders' });
    const first = grid.locator('[role="row"][aria-rowindex="2"]:not([hidden])');
    await first.waitFor();
    const id = (await first.getByRole('rowheader').textContent())!;

    await first.focus();
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: `Order ${id}` });
    await menu.waitFor();
    await expectWhole(page, menu, 'the row’s menu');
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(
      expect.arrayContaining(['Copy order ID', 'Copy row', 'Open details']),
    );
    await checkScreen(page, 'row-menu-zoom-150');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Copy row');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await first.evaluate((row) => row === document.activeElement)).toBe(true);

    await page.keyboard.press('ContextMenu');
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    // A right-click near the window's corner: the menu stays inside it.
    const row = grid.locator('[role="row"][aria-rowindex="4"]:not([hidden])');
    const rowId = (await row.getByRole('rowheader').textContent())!;
    const box = (await row.getByRole('rowheader').boundingBox())!;
    await page.mouse.click(box.x + 4, box.y + box.height / 2, { button: 'right' });
    const rowMenu = page.getByRole('menu', { name: `Order ${rowId}` });
    await rowMenu.waitFor();
    await expectWhole(page, rowMenu, 'the row’s menu at the pointer');
    await rowMenu.getByRole('menuitem', { name: 'Copy order ID' }).click();
    await page.getByText(`Copied order ID ${rowId}.`).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(rowId);
  });

  it('Domains at 150%; the orders screen, the chooser, the palette and the shortcuts at 1,280 and 1,920 px; a column dragged wider keeps its width', async () => {
    const { page } = appAt(1.5);
    const domains = await reach(
      page,
      page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Domains' }),
      'More of the header',
    );
    await domains.click();
    await page.getByRole('heading', { name: 'Custom domains' }).waitFor();
    await checkScreen(page, 'domains-zoom-150');

    const plain = appAt(1);
    const grid = plain.page.getByRole('grid', { name: 'Sandbox orders' });
    await grid.getByRole('row').nth(1).waitFor();
    await plain.page.setViewportSize({ width: 1920, height: 1080 });
    expect(await cutText(plain.page)).toEqual([]);
    await checkScreen(plain.page, 'orders-1920');
    await plain.page.setViewportSize({ width: 1280, height: 800 });
    await plain.page.getByRole('button', { name: 'Columns' }).click();
    await checkScreen(plain.page, 'column-chooser');
    await plain.page.keyboard.press('Escape');
    await plain.page.keyboard.press('Control+k');
    const palette = plain.page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    await expectWhole(plain.page, palette, 'the palette at 1,280 px');
    await checkScreen(plain.page, 'command-palette');
    await plain.page.keyboard.press('Escape');
    await plain.page.locator('body').press('Control+/');
    await plain.page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await checkScreen(plain.page, 'shortcuts-help');
    await plain.page.keyboard.press('Escape');

    // A column's edge dragged with the pointer: the column follows, and keeps its width when
    // the window opens again (a UI preference in the page's storage).
    const quantity = grid.getByRole('columnheader', { name: /^Quantity/ });
    const width = async () => (await quantity.boundingBox())!.width;
    const before = await width();
    const edge = grid.getByRole('separator', { name: 'Width of Quantity' });
    const at = (await edge.boundingBox())!;
    await plain.page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
    await plain.page.mouse.down();
    await plain.page.mouse.move(at.x + at.width / 2 + 30, at.y + at.height / 2, { steps: 3 });
    await plain.page.mouse.move(at.x + at.width / 2 + 60, at.y + at.height / 2, { steps: 3 });
    await plain.page.mouse.up();
    await expect.poll(width).toBeCloseTo(before + 60, 0);
    await plain.page.reload();
    await grid.getByRole('row').nth(1).waitFor();
    await expect.poll(width).toBeCloseTo(before + 60, 0);
    expect(await edge.getAttribute('aria-valuenow')).toBe(String(Math.round(before + 60)));
  });
});
