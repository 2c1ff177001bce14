// The Settings screen in Chromium, against the real main process through the
// harness: each field shows one outcome, the latest; where a key is kept is
// said in plain words; axe-core finds nothing serious on any environment's
// settings or the remove-key dialog, in both themes; a key kept from a new
// address is said once in Settings and once in the notice area.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import { seriousAxeFindings } from './support/axe.ts';
import { describedText } from './support/description.ts';
import { startE2EApp, type E2EApp, describeOnHarness } from './support/app.ts';
import { axeSummary, checkScreen } from './support/screens.ts';
import { saveKey } from './support/settings-screen.ts';

let app: E2EApp;
let moved: Sandbox;

/** The labelled field's description: its hint and its one message. */
function description(page: Page, label: string): Promise<string> {
  return describedText(page.getByLabel(label));
}

async function openSettings(page: Page, environment: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Screens' })
    .getByRole('button', { name: 'Settings' })
    .click();
  await page
    .getByRole('navigation', { name: 'Environment settings' })
    .getByRole('button', { name: environment })
    .click();
  await page.getByRole('heading', { name: `${environment} settings` }).waitFor();
}

describeOnHarness('settings in Chromium', () => {
  beforeAll(async () => {
    app = await startE2EApp();
    moved = await startSandbox({ port: 0, orders: 5 });
  });
  afterAll(async () => {
    console.log(axeSummary('settings'));
    await app?.close();
    await moved?.close();
  });

  it('the address field shows one outcome, the latest', async () => {
    const { page, sandbox } = app;
    await openSettings(page, 'Staging');
    const field = page.getByLabel('Address', { exact: true });
    await field.fill(sandbox.baseUrl);
    await page.getByRole('button', { name: 'Save address' }).click();
    await expect.poll(() => description(page, 'Address')).toContain('Saved.');

    await field.fill(`${sandbox.baseUrl}/orders`);
    await expect.poll(() => description(page, 'Address')).toContain('must end with /v1');
    expect(await description(page, 'Address')).not.toContain('Saved.');
    expect(await field.getAttribute('aria-invalid')).toBe('true');

    await field.fill(sandbox.baseUrl);
    await page.getByRole('button', { name: 'Save address' }).click();
    await expect.poll(() => description(page, 'Address')).toContain('Saved.');
    expect(await description(page, 'Address')).not.toContain('must end with');
  });

  it('says where a key is kept in plain words, never a storage backend’s name', async () => {
    const { page } = app;
    await openSettings(page, 'Production');
    const panel = page.getByRole('region', { name: 'Production settings' });
    // The harness has no secret store, as a Linux desktop without a keyring.
    await panel.getByText('This computer’s password store is not available.').waitFor();
    expect(await panel.textContent()).not.toMatch(
      /basic[ _]text|libsecret|kwallet|dpapi|backend|encryption is not available/i,
    );
    await checkScreen(page, 'settings-production');
  });

  it('axe-core finds nothing serious on each environment’s settings and the remove-key dialog', async () => {
    const { page } = app;
    // Photographed by the layout and the plain-words tests; checked here in both themes.
    for (const environment of ['Sandbox', 'Staging', 'Production']) {
      await openSettings(page, environment);
      await checkScreen(page, `${environment} settings`, { screenshot: false });
    }
    // A key for Staging, set through the window's own API, so Remove key is offered.
    const set = await page.evaluate(
      `window.storeAdmin.keys.set('staging', 'stg-e2e-key-1', { acceptWeakStorage: false })`,
    );
    expect(set).toMatchObject({ ok: true });
    await page.reload();
    await openSettings(page, 'Staging');
    await checkScreen(page, 'Staging settings with a key', { screenshot: false });
    await page.getByRole('button', { name: 'Remove key…' }).click();
    await page.getByRole('dialog', { name: 'Remove the Staging API key?' }).waitFor();
    await checkScreen(page, 'remove-key dialog', { screenshot: false });
    await page.getByRole('button', { name: 'Keep the key' }).click();

    // The check itself fires: a text field without a label is a finding.
    await page.evaluate(
      `document.querySelector('.settings-screen').append(Object.assign(document.createElement('input'), { type: 'text', className: 'axe-probe' }))`,
    );
    const probe = await seriousAxeFindings(page, ['.settings-screen']);
    expect(probe.map((finding) => finding.rule)).toContain('label');
    await page.evaluate(`document.querySelector('.axe-probe').remove()`);
  });

  it('a key kept from a new address: said beside the key with its button in Settings, and as one alert with Open Settings elsewhere', async () => {
    const { page, sandbox } = app;
    await openSettings(page, 'Staging');
    const address = page.getByLabel('Address', { exact: true });
    await address.fill(sandbox.baseUrl);
    await page.getByRole('button', { name: 'Save address' }).click();
    await expect.poll(() => describedText(address)).toContain('Saved.');
    const key = await saveKey(page, 'demo-pro');
    // The address moves to another service: the key stays behind until confirmed.
    await address.fill(moved.baseUrl);
    await page.getByRole('button', { name: 'Save address' }).click();
    const note = page.getByRole('note').filter({ hasText: 'The Staging key was entered for' });
    await note.waitFor();
    expect(await note.getByRole('button', { name: 'Confirm the new address…' }).count()).toBe(1);
    await page.getByRole('radio', { name: 'Staging' }).check();
    // On its own Settings the condition is said there, not again above.
    expect(await page.getByRole('alert').count()).toBe(0);
    await checkScreen(page, 'settings-key-other-address');

    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Orders' })
      .click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.textContent()).toMatch(/^Key not sent\. The Staging key was entered for /);
    expect(await alert.getByRole('button', { name: 'Open Staging settings' }).count()).toBe(1);
    await checkScreen(page, 'notice-key-other-address');
    // Nothing went to the new address with the key.
    expect(moved.requestLog).toEqual([]);

    // The harness has no window of main's own to ask in: the question is declined.
    await alert.getByRole('button', { name: 'Open Staging settings' }).click();
    await note.getByRole('button', { name: 'Confirm the new address…' }).click();
    await expect.poll(() => describedText(key)).toContain('Not confirmed.');
    expect(moved.requestLog).toEqual([]);
    await page.getByRole('radio', { name: 'Sandbox' }).check();
  });
});
