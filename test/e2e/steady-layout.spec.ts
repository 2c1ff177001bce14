// What stays put while a clerk works, measured in Chromium: the header gives
// back what it folded into "More" once the window is wide again (its spare
// room measured from the bar's own width, whatever a stylesheet does to its
// spacer), and its tabs and environments stay where they are at a switch;
// Refresh keeps its width while it refreshes; the line that says the list
// shows a bulk cancel's outcome is never folded away; the command palette
// keeps its place while the clerk types.

import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnHarness, type E2EApp } from './support/app.ts';
import { gridShown, specApps } from './support/spec-apps.ts';

const apps = specApps('steady-layout');
let app: E2EApp;

/** Which of the header's items sit in the bar itself (not folded into "More"). */
function headerItems(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.header-bar > [data-fold]')].map(
      (item) => item.dataset['fold'] ?? '',
    ),
  );
}

/** The WCAG contrast ratio of an element's text colour on its background (both opaque). */
function contrastOf(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const style = getComputedStyle(node);
    const luminance = (color: string) => {
      const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
        const c = Number(part) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort(
      (a, b) => b - a,
    );
    return (light! + 0.05) / (dark! + 0.05);
  });
}

/** Resizes the window and waits two frames: the fold measures in a ResizeObserver's callback. */
async function resize(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.evaluate(
    () =>
      new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

describeOnHarness('what stays put as the clerk works', () => {
  beforeAll(async () => {
    app = await apps.open({ sandbox: { orders: 300 }, viewport: { width: 1920, height: 1080 } });
    await gridShown(app.page);
  });
  afterAll(() => apps.closeAll());

  it('the header folds the quota meter into More in a narrow window and gives it back when the window is wide again', async () => {
    const { page } = app;
    await expect.poll(() => headerItems(page)).toEqual(['screens', 'switcher', 'quota']);
    await resize(page, 800, 800);
    await expect.poll(() => headerItems(page)).not.toContain('quota');
    await expect(
      page.getByRole('button', { name: 'More of the header' }).isVisible(),
    ).resolves.toBe(true);
    for (const width of [1280, 1920, 2400]) {
      await resize(page, width, 800);
      await expect
        .poll(() => headerItems(page), { message: `at ${width} px` })
        .toEqual(['screens', 'switcher', 'quota']);
      expect(await page.getByRole('button', { name: 'More of the header' }).count()).toBe(0);
    }
    await resize(page, 1920, 1080);
  });

  it('the header stays put when the screen or the environment changes', async () => {
    const { page } = app;
    await resize(page, 1280, 800);
    /** Each of the header's screen tabs and environment options: where it starts and how wide it is. */
    const places = () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.screen-nav button, .switcher-option')].map(
          (item) => {
            const box = item.getBoundingClientRect();
            return `${item.textContent} ${box.left.toFixed(1)} ${box.width.toFixed(1)}`;
          },
        ),
      );
    const first = await places();
    const header = page.getByRole('banner');
    for (const [kind, name] of [
      ['button', 'Settings'],
      ['button', 'Domains'],
      ['button', 'Orders'],
      ['radio', 'Staging'],
      ['radio', 'Production — live'],
      ['radio', 'Sandbox'],
    ] as const) {
      await header.getByRole(kind, { name, exact: true }).click();
      await expect.poll(places, { message: `after ${name}` }).toEqual(first);
    }
  });

  it('the command palette stays where it opened while its list shortens with each letter typed', async () => {
    const { page } = app;
    await resize(page, 1280, 800);
    await page.getByRole('grid', { name: 'Sandbox orders' }).click();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor();
    const field = palette.getByRole('combobox', { name: 'Command or order ID' });
    const opened = (await field.boundingBox())!.y;
    for (const typed of ['s', 't', 'a']) {
      await page.keyboard.type(typed);
      expect((await field.boundingBox())!.y, `after “${typed}”`).toBeCloseTo(opened, 0);
    }
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'hidden' });
  });

  it('Refresh keeps its width while it refreshes: the buttons before it stay where they were', async () => {
    const { page } = app;
    await resize(page, 1280, 800);
    await page.getByText('Showing 300 of 300 orders').waitFor({ timeout: 60_000 });
    const refresh = page.getByRole('button', { name: /^Refresh/ });
    const log = page.getByRole('button', { name: /^Cancel log/ });
    const before = { refresh: await refresh.boundingBox(), log: await log.boundingBox() };
    app.sandbox.setFaults('latency=3000@1');
    await refresh.click();
    await expect.poll(() => refresh.innerText()).toBe('Refreshing…');
    const during = { refresh: await refresh.boundingBox(), log: await log.boundingBox() };
    // "Refreshing…" under the pointer that pressed it, in both themes: readable (it was grey on
    // the hover's dark blue).
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await contrastOf(refresh), colorScheme).toBeGreaterThanOrEqual(4.5);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    app.sandbox.setFaults(undefined);
    expect(during.refresh!.width).toBeCloseTo(before.refresh!.width, 0);
    expect(during.refresh!.x).toBeCloseTo(before.refresh!.x, 0);
    expect(during.log!.x).toBeCloseTo(before.log!.x, 0);
    await expect.poll(() => refresh.innerText(), { timeout: 30_000 }).toBe('Refresh');
  });

  it('the line that says the list shows a bulk cancel’s outcome stays in the toolbar when it folds', async () => {
    const { page } = app;
    await resize(page, 1280, 800);
    const grid = await gridShown(page);
    for (const index of [2, 3, 4])
      await grid.locator(`[role="row"][aria-rowindex="${index}"] input[type="checkbox"]`).click();
    await page.getByRole('button', { name: 'Cancel ticked orders…' }).click();
    await page.getByRole('button', { name: 'Cancel 3 orders', exact: true }).click();
    const strip = page.getByRole('region', { name: /^Bulk cancel/ });
    await strip.getByText('Finished.').waitFor({ timeout: 30_000 });
    await strip
      .getByRole('group', { name: 'Show in the list' })
      .getByRole('button')
      .first()
      .click();
    const line = page.locator('.orders-toolbar > [data-fold="changes"] .bulk-outcome-shown');
    await line.waitFor();
    for (const width of [1000, 900]) {
      await resize(page, width, 800);
      // Other items went into "More actions"; the line stays in view.
      await expect
        .poll(() => page.getByRole('button', { name: 'More actions' }).isVisible(), {
          message: `at ${width} px`,
        })
        .toBe(true);
      expect(await line.isVisible(), `at ${width} px`).toBe(true);
    }
    await resize(page, 1920, 1080);
  });
});
