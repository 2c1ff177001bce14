// Linux without a password store (safeStorage's basic_text backend, asked
// for with Electron's --password-store=basic), with the real main bundle:
// Settings offers to save the Staging key anyway; chosen, the key is saved as
// Chromium's "v10" ciphertext under its built-in password (safeStorage agreed
// to encrypt in plain text only because the app asked it to), and the next
// start has it. macOS and Windows always have their secret store.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import { containsPlaintext } from '../support/electron-mock.ts';
import {
  appHome,
  canRunApp,
  launchApp,
  type AppHome,
  type AppRun,
} from './support/electron-app.ts';
import { openSettingsOf, saveAddress } from './support/settings-screen.ts';

const STAGING_KEY = 'stg-basic-text-Key-93c1';

let staging: Sandbox;
let home: AppHome;
let run: AppRun;

const startApp = () => launchApp({ home, passwordStore: 'basic' });

describe.skipIf(!canRunApp || process.platform !== 'linux')(
  'saving a key anyway on Linux without a password store (basic_text)',
  () => {
    beforeAll(async () => {
      staging = await startSandbox({
        port: 0,
        orders: 30,
        keys: [{ plan: 'pro', key: STAGING_KEY }],
      });
      home = appHome();
      run = await startApp();
    });
    afterAll(async () => {
      await run?.stop();
      await staging?.close();
      home?.remove();
    });

    it('offers to save anyway, saves v10 ciphertext when chosen, and the next start has the key', async () => {
      const page = await run.page();
      await openSettingsOf(page, 'Staging');
      await saveAddress(page, staging.baseUrl);
      await page.getByLabel('API key', { exact: true }).fill(STAGING_KEY);
      await page.getByRole('checkbox', { name: 'Save it anyway, without protection' }).check();
      await page.getByRole('button', { name: 'Save key' }).click();
      await expect
        .poll(() =>
          readFileSync(join(home.userData, 'api-keys.json'), 'utf8').includes('ciphertext'),
        )
        .toBe(true);

      const file = readFileSync(join(home.userData, 'api-keys.json'), 'utf8');
      const record = (
        JSON.parse(file) as { staging: { ciphertext: string; weakStorageAccepted: boolean } }
      ).staging;
      expect(record.weakStorageAccepted).toBe(true);
      expect(Buffer.from(record.ciphertext, 'base64').subarray(0, 3).toString('latin1')).toBe(
        'v10',
      );
      expect(containsPlaintext(file, STAGING_KEY)).toBe(false);
      // The app told safeStorage, as Electron requires before its synchronous check says yes.
      expect(
        await run.electronApp.evaluate(({ safeStorage }) => ({
          selected: safeStorage.getSelectedStorageBackend(),
          available: safeStorage.isEncryptionAvailable(),
        })),
      ).toEqual({ selected: 'basic_text', available: true });

      await run.quitFromMenu();
      expect(await run.exited).toBe(0);
      // Ended by itself: what its window threw or broke is checked all the same.
      await run.stop();
      run = await startApp();
      const next = await run.page();
      await next.getByRole('radio', { name: 'Staging' }).check();
      await next
        .getByRole('grid', { name: 'Staging orders' })
        .locator('[role="row"][aria-rowindex="2"]')
        .waitFor({ timeout: 30_000 });
      expect(
        staging.requestLog.some((r) => r.path.endsWith('/store/orders') && r.status === 200),
      ).toBe(true);
    });
  },
);
