// System notifications through the app's real main bundle in the Electron
// stand-in, which records each notification and lets the test act as the
// person at the desktop: turn to another app, click a notification (on a
// real Electron both are the desktop's, so this file needs the stand-in). A
// bulk cancel that finishes while the window is behind others is a
// notification; clicking it brings the window forward on the orders it was
// about. Needs `npm run build` first.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  appHome,
  describeNeedsStandin,
  launchApp,
  type AppHome,
  type AppRun,
} from './support/electron-app.ts';
import { waitFor } from './support/standin.ts';

let home: AppHome;
let run: AppRun;
let page: Page;

/** Ticks the orders whose id starts with `prefix` and cancels them in bulk. */
async function bulkCancel(prefix: string): Promise<void> {
  const grid = page.getByRole('grid', { name: 'Sandbox orders' });
  const search = page.getByRole('searchbox', { name: 'Search by order or pet ID' });
  await search.fill(prefix);
  await expect.poll(() => page.locator('.view-count').textContent()).toMatch(/^Showing \d+ of/);
  await grid.getByRole('checkbox', { name: 'Select all shown' }).check();
  await page
    .getByRole('group', { name: 'Ticked orders' })
    .getByRole('button', { name: 'Cancel ticked orders…' })
    .click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /^Cancel [\d,]+ orders?$/ })
    .click();
  await search.fill('');
}

describeNeedsStandin(
  'notifications from the desktop',
  'the person at the desktop turns away and clicks a notification through it',
  () => {
    beforeAll(async () => {
      home = appHome();
      run = await launchApp({ home });
      page = await run.page();
      await waitFor('the Sandbox list', async () =>
        (await page.locator('.view-count').textContent()) === 'Showing 1,000 of 1,000 orders'
          ? true
          : undefined,
      );
    });
    afterAll(async () => {
      await run?.stop();
      home?.remove();
    });

    it('tells of a bulk cancel that finishes while the window is behind others, and a click shows its orders', async () => {
      await run.standin().blur();
      expect((await run.windows())[0]!.focused).toBe(false);
      await bulkCancel('99');
      // The clerk looks elsewhere in the app meanwhile.
      await page.getByRole('button', { name: 'Domains' }).click();
      const shown = await waitFor(
        'the notification',
        async () =>
          (await run.standin().state()).notifications.find(
            (n) => n.title === 'Bulk cancel finished',
          ),
        60_000,
      );
      expect(shown.body).toMatch(/^Sandbox: \d+ cancelled(, \d+ already shipped)?\.$/);
      expect(shown.open).toBe(true);

      await run.standin().notification(shown.id, 'click');
      const [window] = await run.windows();
      expect(window!.focused).toBe(true);
      await page.getByRole('grid', { name: 'Sandbox orders' }).waitFor();
    });

    it('says nothing while the window is in front: the window shows it', async () => {
      const before = (await run.standin().state()).notifications.length;
      await bulkCancel('98');
      await page.getByRole('region', { name: /^Bulk cancel/ }).waitFor();
      await expect
        .poll(() => page.getByRole('region', { name: /^Bulk cancel/ }).textContent(), {
          timeout: 60_000,
        })
        .toContain('Finished.');
      // The window was in front throughout: what it shows is enough.
      expect((await run.standin().state()).notifications).toHaveLength(before);
    });
  },
);
