// A key saved through the Settings screen in the harness reaches
// main (the bridge used to turn the left-out options argument into null,
// which the contract refused for every key), and lists orders with it.
// In Chromium, against the real main process and a second sandbox as Staging.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import { describedText } from './support/description.ts';
import { startE2EApp, type E2EApp, describeOnHarness } from './support/app.ts';
import { openSettingsOf, saveAddress, saveKey } from './support/settings-screen.ts';

const STAGING_KEY = 'stg-e2e-Key-5d1c9a';

let app: E2EApp;
let staging: Sandbox;

describeOnHarness('a key saved in Settings, in Chromium', () => {
  beforeAll(async () => {
    staging = await startSandbox({
      port: 0,
      orders: 40,
      seed: 9,
      keys: [{ plan: 'free', key: STAGING_KEY }],
    });
    app = await startE2EApp();
  });
  afterAll(async () => {
    await app?.close();
    await staging?.close();
  });

  it('saves a key for Staging through the Settings screen and lists orders with it', async () => {
    const { page } = app;
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') refused.push(message.text());
    });
    await openSettingsOf(page, 'Staging');
    const address = await saveAddress(page, staging.baseUrl);
    expect(await address.inputValue()).toBe(staging.baseUrl);

    // The key field's one message says how saving went.
    const key = await saveKey(page, STAGING_KEY);
    expect(await describedText(key)).not.toContain('cannot accept');
    // The key itself never reaches the page.
    expect(await page.content()).not.toContain(STAGING_KEY);

    await page.getByRole('radio', { name: 'Staging' }).check();
    await page.getByRole('button', { name: 'Orders' }).click();
    const grid = page.getByRole('grid', { name: 'Staging orders' });
    await grid.getByRole('row').nth(1).waitFor();
    await expect.poll(() => page.getByText(/^Showing [\d,]+ of 40 orders/).count()).toBe(1);
    // The list came from the staging sandbox, with the key saved above.
    expect(
      staging.requestLog.some(
        (entry) => entry.path.endsWith('/store/orders') && entry.status === 200,
      ),
    ).toBe(true);
    expect(staging.requestLog.every((entry) => entry.status !== 401)).toBe(true);
    expect(refused).toEqual([]);
  });
});
