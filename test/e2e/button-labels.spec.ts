// Every button's label sits in the middle of its box, at the zooms the
// View menu offers, in Chromium: its capitals centred between the button's
// borders, within a device pixel. Centred by its line box, a label sat high
// (the box allots room below the baseline for descenders): at 150% every
// label of the orders screen sat 2.5 device pixels high, and a row's
// "Cancel…" 3 px above its capitals and 8 below before it was fixed alone.
// Read from the layout and the font's own measures (canvas measureText), on
// the orders screen with its notice, Settings and Domains.

import type { Locator, Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { describeOnHarness } from './support/app.ts';
import { gridShown, specApps } from './support/spec-apps.ts';

const apps = specApps('button-labels');

interface Label {
  readonly text: string;
  /** Device px from the button's middle (inside its borders) to its label's capitals' middle; negative is high. */
  readonly off: number;
}

/** Page code: each visible button's label and how far from the middle its capitals are. */
function labelsOffCentre(): Label[] {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return [];
  const labels: Label[] = [];
  for (const button of document.querySelectorAll<HTMLElement>('button, .switcher-text')) {
    const box = button.getBoundingClientRect();
    if (box.width === 0 || box.bottom <= 0 || box.top >= innerHeight) continue;
    // A button drawn without a box (a link in a sentence, a column's name) keeps the line of the
    // text beside it: only a label in a box is centred in it.
    const drawn = getComputedStyle(button);
    const boxed =
      button.classList.contains('switcher-text') ||
      parseFloat(drawn.borderTopWidth) > 0 ||
      !/^rgba\(.*, 0\)$|^transparent$/.test(drawn.backgroundColor);
    if (!boxed) continue;
    let top = Number.POSITIVE_INFINITY;
    let bottom = Number.NEGATIVE_INFINITY;
    const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement!;
      if (!node.textContent!.trim() || parent.closest('.visually-hidden')) continue;
      context.font = getComputedStyle(parent).font;
      const font = context.measureText(node.textContent!);
      const capitals = context.measureText('H').actualBoundingBoxAscent;
      const range = document.createRange();
      range.selectNodeContents(node);
      const line = range.getBoundingClientRect();
      if (line.height === 0) continue;
      // The text's box is the font's ascent and descent, its baseline the ascent down.
      const area = font.fontBoundingBoxAscent + font.fontBoundingBoxDescent;
      const baseline = line.top + (line.height - area) / 2 + font.fontBoundingBoxAscent;
      top = Math.min(top, baseline - capitals);
      bottom = Math.max(bottom, baseline);
    }
    if (!Number.isFinite(top)) continue;
    const style = getComputedStyle(button);
    const inside = {
      top: box.top + parseFloat(style.borderTopWidth),
      bottom: box.bottom - parseFloat(style.borderBottomWidth),
    };
    const off = ((top + bottom) / 2 - (inside.top + inside.bottom) / 2) * devicePixelRatio;
    labels.push({ text: button.textContent.trim(), off: Math.round(off * 10) / 10 });
  }
  return labels;
}

async function offCentre(page: Page, where: string): Promise<string[]> {
  // Not over a button: a hover fills a borderless one.
  await page.mouse.move(0, 0);
  const labels = await page.evaluate(labelsOffCentre);
  expect(labels.length, `${where}: buttons measured`).toBeGreaterThan(3);
  return labels
    .filter((label) => Math.abs(label.off) > 1)
    .map((label) => `${where}: “${label.text}” ${label.off} device px`);
}

/** Presses a button of a bar, from the bar's "More" panel (`more`) where it folded there. */
async function press(page: Page, scope: Locator, name: string, more: string): Promise<void> {
  const button = scope.getByRole('button', { name, exact: true });
  if (!(await button.isVisible())) {
    await page.getByRole('button', { name: more, exact: true }).click();
    await page
      .getByRole('group', { name: more, exact: true })
      .getByRole('button', { name, exact: true })
      .click();
    return;
  }
  await button.click();
}

describeOnHarness('button labels in the middle, in Chromium', () => {
  afterAll(() => apps.closeAll());

  for (const zoom of [1, 1.5, 2]) {
    it(`at ${zoom * 100}%: every button's label is centred on its capitals, within a device pixel`, async () => {
      const app = await apps.open({ sandbox: { orders: 300 }, zoom });
      const { page } = app;
      await gridShown(page);
      // The first download over (Refresh says "Refreshing…" until then).
      await page.getByText('Showing 300 of 300 orders').waitFor({ timeout: 60_000 });
      const off = await offCentre(page, 'orders');
      // A notice with its action, the service gone.
      await app.sandbox.close();
      await press(page, page.locator('body'), 'Refresh', 'More actions');
      await page.locator('[data-notice="unreachable"]').waitFor({ timeout: 20_000 });
      off.push(...(await offCentre(page, 'orders offline')));
      for (const screen of ['Settings', 'Domains']) {
        await press(
          page,
          page.getByRole('navigation', { name: 'Screens' }),
          screen,
          'More of the header',
        );
        await page.getByRole('heading', { level: 2 }).first().waitFor();
        off.push(...(await offCentre(page, screen)));
      }
      expect(off).toEqual([]);
    });
  }
});
