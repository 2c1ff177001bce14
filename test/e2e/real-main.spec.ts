// The app's real main bundle and preload (out/) as `electron .`, on Electron
// or its stand-in, with a second sandbox as Staging: the paths only Electron
// runs (index.ts, ipc/handle.ts's MessagePort streams, the preload's port
// forwarding, safeStorage, the menu, dialogs, the single-instance lock)
// driven as a clerk drives them. Needs `npm run build` first, as every e2e.
//
// In order, on one data folder: a Staging key saved through Settings is
// encrypted by safeStorage with the keyring; Staging's throttled list shows
// rows while it downloads, then whole; a refresh cut off keeps the whole
// list; one order is cancelled; Quit from the menu during a bulk cancel asks
// first, the test answers Quit, and the next start resumes the journal (the
// question is a native dialog: on the stand-in only); a second start focuses
// the first window and exits.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import { containsPlaintext } from '../support/electron-mock.ts';
import {
  appHome,
  canRunApp,
  itNeedsStandin,
  launchApp,
  runApp,
  type AppHome,
  type AppRun,
} from './support/electron-app.ts';
import { openSettingsOf, saveAddress, saveKey } from './support/settings-screen.ts';

const STAGING_KEY = 'stg-real-main-Key-7e21b4';
const ORDERS = 20_000;

let staging: Sandbox;
let home: AppHome;
let run: AppRun;
let page: Page;

const startApp = () => launchApp({ home });
const deletes = () => staging.requestLog.filter((r) => r.method === 'DELETE').length;
/** safeStorage's ciphertext with a keyring: Chromium's "v11" on Linux, "v10" on macOS and Windows. */
const KEYRING_PREFIX = process.platform === 'linux' ? 'v11' : 'v10';

describe.skipIf(!canRunApp)('the real main process', () => {
  beforeAll(async () => {
    staging = await startSandbox({
      port: 0,
      orders: ORDERS,
      seed: 21,
      // A few seconds of download: rows show before the last byte.
      bytesPerSecond: 400_000,
      // The Free plan paces a bulk cancel at 60 a minute: still running when Quit is chosen.
      keys: [{ plan: 'free', key: STAGING_KEY }],
    });
    home = appHome();
    run = await startApp();
    page = await run.page();
  });
  afterAll(async () => {
    await run?.stop();
    await staging?.close();
    home?.remove();
  });

  it('opens one window, and the Sandbox list arrives over its port', async () => {
    await page
      .getByRole('grid', { name: 'Sandbox orders' })
      .locator('[role="row"][aria-rowindex="2"]')
      .waitFor({ timeout: 30_000 });
    await expect
      .poll(() => page.locator('.view-count').textContent(), { timeout: 30_000 })
      .toBe('Showing 1,000 of 1,000 orders');
    expect(await run.windows()).toHaveLength(1);
    // Crash dumps stay on this computer.
    expect(
      await run.electronApp.evaluate(({ crashReporter }) => crashReporter.getUploadToServer()),
    ).toBe(false);
  });

  itNeedsStandin(
    'sets permission handlers and starts the crash reporter compressed',
    'Electron does not tell which handlers a session has, nor how its crash reporter was started',
    async () => {
      const state = await run.standin().state();
      expect(state.session.permissionRequestHandler).toBe(true);
      expect(state.session.permissionCheckHandler).toBe(true);
      expect(state.crashReporter).toEqual([{ uploadToServer: false, compress: true }]);
    },
  );

  it("saves a Staging key through Settings, encrypted by safeStorage with the keyring's password", async () => {
    await openSettingsOf(page, 'Staging');
    await saveAddress(page, staging.baseUrl);
    await saveKey(page, STAGING_KEY, /Key saved for \w+\./);
    expect(await page.content()).not.toContain(STAGING_KEY);

    // In the file: Chromium's ciphertext under the keyring's password, never the key.
    const file = readFileSync(join(home.userData, 'api-keys.json'), 'utf8');
    const saved = (JSON.parse(file) as { staging: { ciphertext: string } }).staging.ciphertext;
    expect(Buffer.from(saved, 'base64').subarray(0, 3).toString('latin1')).toBe(KEYRING_PREFIX);
    expect(containsPlaintext(file, STAGING_KEY)).toBe(false);
    // Main's safeStorage reads the key back (with what it is bound to).
    expect(
      await run.electronApp.evaluate(
        ({ safeStorage }, ciphertext) =>
          safeStorage.decryptString(Buffer.from(ciphertext, 'base64')),
        saved,
      ),
    ).toContain(STAGING_KEY);
    if (process.platform === 'linux')
      expect(
        await run.electronApp.evaluate(({ safeStorage }) =>
          safeStorage.getSelectedStorageBackend(),
        ),
      ).toBe('gnome_libsecret');
  });

  it("shows Staging's rows while the list downloads, then the whole list", async () => {
    await page.getByRole('radio', { name: 'Staging' }).check();
    await page.getByRole('button', { name: 'Orders' }).click();
    const grid = page.getByRole('grid', { name: 'Staging orders' });
    await grid.locator('[role="row"][aria-rowindex="2"]').waitFor({ timeout: 30_000 });
    const status = page.locator('.view-count');
    expect(await grid.getAttribute('aria-busy')).toBe('true');
    expect(await status.textContent()).toMatch(/so far; the rest are on their way/);
    await expect
      .poll(() => status.textContent(), { timeout: 60_000 })
      .toBe(`Showing 20,000 of 20,000 orders`);
    expect(await grid.getAttribute('aria-busy')).not.toBe('true');
  });

  it('keeps the whole list when a refresh is cut off, and says so once', async () => {
    staging.setFaults('malformed@1');
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expect
      .poll(() => page.getByText('Not refreshed.', { exact: true }).count(), { timeout: 30_000 })
      .toBe(1);
    expect(await page.locator('.view-count').textContent()).toBe('Showing 20,000 of 20,000 orders');
    staging.setFaults(undefined);
  });

  it('cancels one order', async () => {
    const pending = staging.orderIds({ status: 'pending' }).find((id) => id.length === 4)!;
    const search = page.getByRole('searchbox', { name: 'Search by order or pet ID' });
    await search.fill(pending);
    const grid = page.getByRole('grid', { name: 'Staging orders' });
    await grid.getByRole('button', { name: `Cancel order ${pending}`, exact: true }).click();
    await page
      .getByRole('dialog', { name: `Cancel order ${pending}?` })
      .getByRole('button', { name: `Cancel order ${pending}` })
      .click();
    await expect
      .poll(() => page.getByRole('status', { name: 'Cancel outcome' }).textContent())
      .toContain(`Order ${pending} was cancelled`);
    expect(staging.orderStatus(pending)).toBe('cancelled');
    await search.fill('');
  });

  itNeedsStandin(
    'asks before Quit from the menu ends a bulk cancel, and quits when told to',
    'the question is a native dialog on Electron, answered here through the stand-in',
    async () => {
      const grid = page.getByRole('grid', { name: 'Staging orders' });
      const search = page.getByRole('searchbox', { name: 'Search by order or pet ID' });
      await page.getByRole('button', { name: /^Filters/ }).click();
      await page.getByRole('combobox', { name: 'Look in' }).selectOption('Order ID only');
      await page.getByRole('combobox', { name: 'Match' }).selectOption('Start of the ID');
      await page.keyboard.press('Escape');
      await search.fill('199');
      await expect
        .poll(() => page.locator('.view-count').textContent())
        .toMatch(/^Showing 111 of 20,000 orders/);
      await grid.getByRole('checkbox', { name: 'Select all shown' }).check();
      await page
        .getByRole('group', { name: 'Ticked orders' })
        .getByRole('button', { name: 'Cancel ticked orders…' })
        .click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /^Cancel [\d,]+ orders$/ })
        .click();
      await page.getByRole('region', { name: /^Bulk cancel/ }).waitFor();
      await expect.poll(() => deletes(), { timeout: 30_000 }).toBeGreaterThan(1);

      await run.quitFromMenu();
      const question = await run.standin().nextDialog();
      expect(question.kind).toBe('message-box');
      expect(question.options['message']).toMatch(/^[\d,]+ orders still to cancel: quit anyway\?$/);
      expect(question.options['buttons']).toEqual(['Quit', 'Keep working']);
      // Until it is answered, the app is still there.
      expect(await run.windows()).toHaveLength(1);
      await run.standin().answerDialog(question.id, 0);
      expect(await run.exited).toBe(0);
      // Ended by itself: what its window threw or broke is checked all the same.
      await run.stop();
    },
  );

  itNeedsStandin(
    'resumes the bulk cancel at the next start',
    'it follows the quit above, whose question only the stand-in answers',
    async () => {
      const before = deletes();
      run = await startApp();
      page = await run.page();
      await page.getByRole('region', { name: /^Bulk cancel/ }).waitFor({ timeout: 30_000 });
      await expect.poll(() => deletes(), { timeout: 60_000 }).toBeGreaterThan(before);
    },
  );

  it('focuses the first window when started again, and the second start exits', async () => {
    // Main's side, watched: the first instance is told, and brings its window forward.
    await run.electronApp.evaluate(({ app, BrowserWindow }) => {
      const seen = globalThis as unknown as { secondInstances: number; focusCalls: number };
      seen.secondInstances = 0;
      seen.focusCalls = 0;
      app.on('second-instance', () => (seen.secondInstances += 1));
      const [window] = BrowserWindow.getAllWindows();
      const focus = window!.focus.bind(window);
      window!.focus = () => {
        seen.focusCalls += 1;
        focus();
      };
    });
    const second = await runApp({ home });
    expect(second.code, second.output).toBe(0);
    const seen = () =>
      run.electronApp.evaluate(() => {
        const { secondInstances, focusCalls } = globalThis as unknown as {
          secondInstances: number;
          focusCalls: number;
        };
        return { secondInstances, focusCalls };
      });
    await expect.poll(seen).toEqual({ secondInstances: 1, focusCalls: 1 });
    expect(await run.windows()).toHaveLength(1);
  });
});
