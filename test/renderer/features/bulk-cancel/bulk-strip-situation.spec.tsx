// The bulk cancel's strip in the whole window, beside the notice area: one
// truth, said once. What the strip says of a paused job, and whether it
// offers Resume, follow what the window knows now (the environment set up,
// the service reachable, the hold on its requests), not only why the job
// paused when it did; Refresh says why it is off while a hold would stop it.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startExtraSandbox, startTestApp } from '../../support/test-app.tsx';
import { farWindowMs } from '../../../support/far-window.ts';
import { findGrid, text, type User } from '../orders/orders-test-kit.tsx';
import { FREE_KEY, freeStaging, rawRequestsUntil } from '../quota/quota-kit.tsx';

/** Ticks every order shown and starts a bulk cancel of them; its strip. */
async function cancelAllShown(user: User, grid: HTMLElement): Promise<HTMLElement> {
  await user.click(within(grid).getByRole('checkbox', { name: 'Select all shown' }));
  await user.click(screen.getByRole('button', { name: 'Cancel ticked orders…' }));
  const dialog = await screen.findByRole('dialog', { name: /^Cancel \d+ orders\?$/ });
  await user.click(within(dialog).getByRole('button', { name: /^Cancel \d+ orders$/ }));
  return screen.findByRole('region', { name: /^Bulk cancel/ });
}

const buttonsOf = (strip: HTMLElement) =>
  within(strip)
    .getAllByRole('button')
    .map((button) => button.textContent);

test('Staging without a key: the strip says the job waits for Staging to be set up, as the notice does, and offers no Resume', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox({
    keys: [{ plan: 'enterprise', key: 'stg-key' }],
    orders: 60,
  });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  await app.api.keys.set('staging', 'stg-key');
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));
  const grid = await findGrid('Staging');
  // Slow answers: the job is still sending when the key goes.
  staging.setFaults('latency=40@1');
  const strip = await cancelAllShown(user, grid);
  await within(strip).findByText('Cancelling at the pace the quota allows.');

  // The key is removed (on another screen, or it was kept for the session only and the app
  // restarted): the next cancel has no key to send.
  await app.api.keys.remove('staging');
  const notice = await screen.findByText('Staging is not set up yet.');
  await waitFor(() =>
    expect(text(strip.querySelector('.bulk-status'))).toBe(
      'Paused until Staging is set up. Resume once it is.',
    ),
  );
  // Nothing says the key was refused: there is none.
  expect(document.body.textContent).not.toMatch(/refused/);
  expect(text(notice.closest('[data-notice]'))).toContain('Enter its API key in Settings');
  expect(buttonsOf(strip)).not.toContain('Resume');
  expect(buttonsOf(strip)).toContain('Stop');

  // With a key again, Resume is there and the job goes on.
  await app.api.keys.set('staging', 'stg-key');
  staging.setFaults(undefined);
  await user.click(await within(strip).findByRole('button', { name: 'Resume' }));
  await within(strip).findByText('Finished.', {}, { timeout: 20_000 });
});

test('a job the clerk paused offers no Resume while the service cannot be reached, and offers it again once it answers', async () => {
  const app = await startTestApp();
  const keys = [{ plan: 'enterprise' as const, key: 'stg-key' }];
  const staging = await startExtraSandbox({ keys, orders: 60 });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  await app.api.keys.set('staging', 'stg-key');
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));
  const grid = await findGrid('Staging');
  staging.setFaults('latency=40@1');
  const strip = await cancelAllShown(user, grid);
  await user.click(within(strip).getByRole('button', { name: 'Pause' }));
  await within(strip).findByText('Paused. Nothing is sent until you resume.');

  // The service goes away, and the window learns it (a refresh meets a refused connection).
  await staging.close();
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await waitFor(() => expect(document.querySelector('[data-notice="unreachable"]')).not.toBeNull());
  expect(text(strip.querySelector('.bulk-status'))).toBe(
    'Paused. You can resume once the service answers again.',
  );
  expect(buttonsOf(strip)).not.toContain('Resume');
  expect(buttonsOf(strip)).toContain('Stop');

  // It answers again (where it was), once the refresh has given up: Retry, then Resume is back,
  // and the job finishes.
  await waitFor(() => expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy(), {
    timeout: 30_000,
  });
  await startExtraSandbox({ keys, orders: 60, port: Number(new URL(staging.baseUrl).port) });
  const notice = document.querySelector<HTMLElement>('[data-notice="unreachable"]')!;
  await user.click(
    await within(notice).findByRole('button', { name: 'Retry' }, { timeout: 15_000 }),
  );
  await user.click(
    await within(strip).findByRole('button', { name: 'Resume' }, { timeout: 15_000 }),
  );
  await within(strip).findByText('Finished.', {}, { timeout: 20_000 });
});

test('a job waiting for its quota while the service cannot be reached says it waits, as the notice does, and promises no time', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox({
    keys: [{ plan: 'free', key: 'stg-free' }],
    orders: 100,
    // A window that ends far from now: the job waits at the gate for the rest of it.
    minuteMs: farWindowMs(),
  });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  await app.api.keys.set('staging', 'stg-free');
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));
  const grid = await findGrid('Staging');
  const strip = await cancelAllShown(user, grid);
  // The Free plan's 60 a minute: the list, then DELETEs until only the clerk's reserve is left.
  const deletes = () => staging.requestLog.filter((entry) => entry.method === 'DELETE').length;
  await waitFor(() => expect(deletes()).toBe(60 - 1 - 2), { timeout: 20_000 });
  await waitFor(() =>
    expect(text(strip.querySelector('.bulk-progress'))).toMatch(
      // The far window's end may be an hour or more away: "about 1 h 0 min left".
      /^57 of \d+ done, about (\d+ h )?\d+ min left$/,
    ),
  );
  expect(text(strip.querySelector('.bulk-status'))).toBe(
    'Cancelling at the pace the quota allows.',
  );

  // The service goes away; the window learns it from its refresh (the reserve is the clerk's).
  await staging.close();
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await waitFor(() => expect(document.querySelector('[data-notice="unreachable"]')).not.toBeNull());
  expect(text(strip.querySelector('.bulk-status'))).toBe(
    'Waiting while the service cannot be reached; it carries on by itself once it answers.',
  );
  expect(text(strip.querySelector('.bulk-progress'))).toMatch(/^57 of \d+ done$/);
  expect(document.body.textContent).not.toContain('Cancelling at the pace');
});

/** The toolbar's Refresh, and whether it is off (and why). */
function refreshButton(): { off: boolean; why: string | null } {
  const button = screen.getByRole('button', { name: /^Refresh/ });
  return {
    off: button.getAttribute('aria-disabled') === 'true',
    why: button.getAttribute('title'),
  };
}

test('a ban: the strip says the job waits for it as the notice does, with no Resume and Refresh off saying why; a new key ends it and Resume is back', async () => {
  const app = await startTestApp();
  const staging = await freeStaging(app, {
    keys: [
      { plan: 'free', key: FREE_KEY },
      { plan: 'enterprise', key: 'stg-other-key' },
    ],
    orders: 30,
    banAfter: 2,
    banMs: 30 * 60_000,
  });
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));
  const grid = await findGrid('Staging');
  // Another client gets the key banned; the job's first cancel meets the ban.
  await rawRequestsUntil(staging, (answer) => answer.code === 'api_key_banned');
  const strip = await cancelAllShown(user, grid);

  await screen.findByText('Key banned.');
  await waitFor(() =>
    expect(text(strip.querySelector('.bulk-status'))).toBe(
      'Paused while the API key is banned. Resume once the ban ends.',
    ),
  );
  expect(buttonsOf(strip)).not.toContain('Resume');
  expect(buttonsOf(strip)).toContain('Stop');
  // Refresh would meet the ban at once: it is off, and its description says until when.
  expect(refreshButton()).toEqual({
    off: true,
    why: expect.stringMatching(/^Refresh waits until .+: the API key is banned\.$/),
  });

  // A new key: no ban holds any more, as the notice area shows; the strip says so too.
  expect((await app.api.keys.set('staging', 'stg-other-key')).ok).toBe(true);
  await waitFor(() => expect(screen.queryByText('Key banned.')).toBeNull());
  await waitFor(() =>
    expect(text(strip.querySelector('.bulk-status'))).toBe(
      'Paused by a ban that has ended. Resume to carry on.',
    ),
  );
  expect(refreshButton()).toEqual({ off: false, why: null });
  await user.click(within(strip).getByRole('button', { name: 'Resume' }));
  await within(strip).findByText('Finished.', {}, { timeout: 20_000 });
});

test('a job held by a 429 says it waits while requests are paused, as the notice does, not that it is cancelling', async () => {
  const app = await startTestApp();
  // A window that ends far from now: the hold lasts the test.
  const staging = await freeStaging(app, { orders: 30 });
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));
  const grid = await findGrid('Staging');
  // Another client uses up the window; the job's first cancel meets the 429.
  await rawRequestsUntil(staging, (answer) => answer.status === 429);
  const strip = await cancelAllShown(user, grid);

  await screen.findByText('Requests paused.');
  await waitFor(() =>
    expect(text(strip.querySelector('.bulk-status'))).toBe(
      'Waiting while requests are paused; it carries on by itself.',
    ),
  );
  expect(document.body.textContent).not.toContain('Cancelling at the pace');
  // No time left from a quota that waits for its reset.
  expect(text(strip.querySelector('.bulk-progress'))).toMatch(/^0 of \d+ done$/);
  expect(refreshButton()).toEqual({
    off: true,
    why: expect.stringMatching(/^Refresh waits until .+: requests to Staging are paused\.$/),
  });
});
