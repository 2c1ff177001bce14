// What stays put while a clerk works, measured in Chromium: the header gives
// back what it folded into "More" once the window is wide again (its spare
// room measured from the bar's own width, whatever a stylesheet does to its
// spacer).

import type { Page } from 'playwright-core';
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
});
