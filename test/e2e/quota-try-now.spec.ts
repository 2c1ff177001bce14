// A clerk can always end a hold by hand with one confirmed
// request. Staging points at a server whose first answer is a 429 asking for
// an hour's wait; "Try now" in the hold's notice sends exactly one request
// through the hold, and the service's answer lifts it. In Chromium, against
// the real main process.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { answer, scriptedServer, type ScriptedServer } from '../support/scripted-server.ts';
import { startE2EApp, type E2EApp, describeOnHarness } from './support/app.ts';
import { axeSummary, checkScreen } from './support/screens.ts';
import { openSettingsOf, saveKey } from './support/settings-screen.ts';

let app: E2EApp;
let staging: ScriptedServer;

describeOnHarness('"Try now" through a hold, in Chromium', () => {
  beforeAll(async () => {
    staging = await scriptedServer((_req, res, i) => {
      res.setHeader('x-ratelimit-limit', '300');
      res.setHeader('x-ratelimit-remaining', String(Math.max(0, 280 - i)));
      res.setHeader('x-ratelimit-reset', String(Math.ceil(Date.now() / 1000) + 60));
      if (i === 0) answer(res, 429, '', { 'retry-after': '3600' });
      else answer(res, 200, []);
    });
    app = await startE2EApp();
  });
  afterAll(async () => {
    console.log(axeSummary('quota-try-now'));
    await app?.close();
    await staging?.close();
  });

  it('asks first, sends one request, and the answer ends the hold', async () => {
    const { page } = app;
    await openSettingsOf(page, 'Staging');
    await page.getByLabel('Address', { exact: true }).fill(staging.baseUrl);
    await page.getByRole('button', { name: 'Save address' }).click();
    await saveKey(page, 'stg-try-now-key');
    await page.getByRole('radio', { name: 'Staging' }).check();
    await page.getByRole('button', { name: 'Orders' }).click();

    // The hold is said once, in the notice area, with its action.
    const notices = page.getByRole('region', { name: 'Notices' });
    const quota = page.getByRole('region', { name: 'Quota' });
    await expect.poll(() => notices.textContent()).toContain('Requests paused');
    expect(await page.getByRole('alert').count()).toBe(1);
    expect(staging.requests).toHaveLength(1);

    await notices.getByRole('button', { name: 'Try now…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send one request now?' });
    await expect
      .poll(() => dialog.textContent())
      // With its date when the hold ends tomorrow (the suite run just before midnight).
      .toMatch(
        /paused until (?:[A-Z][a-z]{2} \d{1,2}, (?:\d{4}, )?)?\d{1,2}:\d\d:\d\d(?:\s[AP]M)?/,
      );
    await checkScreen(page, 'try-now-confirmation');
    // Keeping the wait sends nothing.
    await dialog.getByRole('button', { name: 'Keep waiting' }).click();
    expect(staging.requests).toHaveLength(1);

    await notices.getByRole('button', { name: 'Try now…' }).click();
    await dialog.getByRole('button', { name: 'Send one request' }).click();
    await expect.poll(() => notices.textContent()).not.toContain('Requests paused');
    expect(staging.requests.length).toBeGreaterThanOrEqual(2);
    expect(await quota.textContent()).not.toContain('NaN');
    // What the try came to, said once where the notice was.
    await expect
      .poll(() => notices.getByRole('status', { name: 'Try now' }).textContent())
      .toContain('The service answered.');
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
