// Settings per environment: address, key, connection test, weak storage.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { startExtraSandbox, startTestApp } from '../../support/test-app.tsx';
import { openSettings, STAGING_KEY } from './settings-kit.tsx';

test('the sandbox needs nothing: it says it is built in, with demo data and a key of its own', async () => {
  const app = await startTestApp();
  await openSettings(app, 'Sandbox');

  expect(
    screen.getByText(/A copy of the store service on this computer, with demo data/),
  ).toBeTruthy();
  expect(screen.getByText(/built into Store Admin/)).toBeTruthy();
  expect(screen.getByText(/its own key, made anew each time Store Admin starts/)).toBeTruthy();
  // The shipped app holds no fixed sandbox key (test/packaging checks the bundles).
  expect(screen.queryByText(/demo-pro/)).toBeNull();
  expect(screen.queryByLabelText(/API key/)).toBeNull();
  expect(screen.queryByLabelText('Address')).toBeNull();
});

test('the base URL is checked as it is typed, with the shared rule and its message', async () => {
  const app = await startTestApp();
  const { user } = await openSettings(app, 'Staging');
  const field = screen.getByLabelText('Address');

  await user.type(field, 'http://api.example.com/v1');
  expect(screen.getByText(/Use https:\/\//)).toBeTruthy();
  expect(field.getAttribute('aria-invalid')).toBe('true');
  // The message is tied to the field.
  const describedBy = field.getAttribute('aria-describedby') ?? '';
  expect(
    describedBy
      .split(' ')
      .some((id) => document.getElementById(id)?.textContent?.includes('Use https://')),
  ).toBe(true);

  await user.clear(field);
  await user.type(field, 'https://api.example.com');
  expect(screen.getByText('The address must end with /v1, the API version.')).toBeTruthy();

  await user.type(field, '/v1');
  expect(screen.queryByText(/must end with/)).toBeNull();
  expect(field.getAttribute('aria-invalid')).toBeNull();

  // An invalid address is not sent.
  await user.clear(field);
  await user.type(field, 'not an address');
  await user.click(screen.getByRole('button', { name: 'Save address' }));
  expect(screen.getByText(/This is not a web address/)).toBeTruthy();
  expect(document.activeElement).toBe(field);
  const state = await app.api.app.getState();
  expect(
    state.ok && state.value.environments.find((view) => view.id === 'staging')?.baseUrl,
  ).toBeUndefined();
});

test('saving a base URL shows what the main process saved', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox({ keys: [{ plan: 'free', key: STAGING_KEY }] });
  const { user } = await openSettings(app, 'Staging');
  const field = screen.getByLabelText('Address');

  await user.type(field, `${staging.baseUrl}/`);
  await user.click(screen.getByRole('button', { name: 'Save address' }));

  expect(await screen.findByText('Saved.')).toBeTruthy();
  // Normalised by the main process (no trailing slash), and shown as saved.
  expect((field as HTMLInputElement).value).toBe(staging.baseUrl);
  const state = await app.api.app.getState();
  expect(state.ok && state.value.environments.find((view) => view.id === 'staging')?.baseUrl).toBe(
    staging.baseUrl,
  );
});

test('a saved key is never shown back: only where it is stored', async () => {
  const app = await startTestApp();
  const { user } = await openSettings(app, 'Staging');
  const field = screen.getByLabelText<HTMLInputElement>('API key');
  expect(field.type).toBe('password');
  expect(field.getAttribute('autocomplete')).toBe('off');
  expect(screen.getByText('No key set')).toBeTruthy();
  // Real protection here (macOS Keychain): no weak-storage choice to offer.
  expect(screen.queryByRole('checkbox')).toBeNull();

  await user.type(field, STAGING_KEY);
  await user.click(screen.getByRole('button', { name: 'Save key' }));

  expect(await screen.findByText('Key saved in the macOS Keychain')).toBeTruthy();
  expect(app.keys.status('staging').set).toBe(true);
  expect(field.value).toBe('');
  expect(document.body.innerHTML).not.toContain(STAGING_KEY);
  expect(document.body.innerHTML).not.toContain('Secret-7f3a');
  // Nor did anything the renderer side received carry it.
  expect(JSON.stringify(app.received)).not.toContain(STAGING_KEY);
});

test('a key the main process refuses is explained and not kept', async () => {
  const app = await startTestApp();
  const { user } = await openSettings(app, 'Production');

  await user.type(screen.getByLabelText('API key'), 'two words');
  await user.click(screen.getByRole('button', { name: 'Save key' }));

  expect(await screen.findByText(/must not contain spaces/)).toBeTruthy();
  expect(app.keys.status('production').set).toBe(false);
  expect(screen.getByText('No key set')).toBeTruthy();
});

test('removing a key asks first; Escape keeps it and gives the focus back', async () => {
  const app = await startTestApp();
  await app.api.keys.set('production', 'prod-key-123');
  const { user } = await openSettings(app, 'Production');
  expect(screen.getByText('Key saved in the macOS Keychain')).toBeTruthy();

  const remove = screen.getByRole('button', { name: 'Remove key…' });
  await user.click(remove);
  let dialog = screen.getByRole('dialog', { name: 'Remove the Production API key?' });
  expect(dialog.getAttribute('aria-modal')).toBe('true');
  expect(within(dialog).getByText('PRODUCTION — live orders')).toBeTruthy();
  expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep the key' }));

  await user.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(document.activeElement).toBe(remove);
  expect(app.keys.status('production').set).toBe(true);

  await user.click(remove);
  dialog = screen.getByRole('dialog', { name: 'Remove the Production API key?' });
  await user.click(within(dialog).getByRole('button', { name: 'Remove key' }));

  expect(await screen.findByText('No key set')).toBeTruthy();
  expect(screen.getByText('Key removed.')).toBeTruthy();
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Remove key…' })).toBeNull();
  expect(app.keys.status('production').set).toBe(false);
});

test('test connection sends one request and shows the answer, the quota and the plan', async () => {
  const app = await startTestApp();
  const { user } = await openSettings(app, 'Sandbox');

  await user.click(screen.getByRole('button', { name: 'Test connection' }));

  const result = await screen.findByRole('status', { name: 'Sandbox connection test' });
  await waitFor(() =>
    expect(result.textContent).toContain('Connected: the service accepted the key.'),
  );
  // A reset after midnight carries its day ("resets 29 Nov, 00:00:30").
  expect(result.textContent).toMatch(
    /Quota: 299 of 300 left, resets (\d+ \w+( \d{4})?, )?\d\d:\d\d:\d\d\./,
  );
  expect(result.textContent).toContain('Pro plan: 300 requests a minute, 10,000 a day.');
  expect(app.sandbox.requestLog.map(({ method, path }) => `${method} ${path}`)).toEqual([
    'GET /v1/store/orders',
  ]);
});

test('test connection on staging infers the Free plan from the limit the service reports', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox({ keys: [{ plan: 'free', key: STAGING_KEY }] });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  await app.api.keys.set('staging', STAGING_KEY);
  const { user } = await openSettings(app, 'Staging');

  await user.click(screen.getByRole('button', { name: 'Test connection' }));

  const result = screen.getByRole('status', { name: 'Staging connection test' });
  await waitFor(() =>
    expect(result.textContent).toContain('Free plan: 60 requests a minute, 1,000 a day.'),
  );
  expect(result.textContent).toMatch(/Quota: 59 of 60 left/);
});

test('test connection with a refused key shows the failure in plain words', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox({ keys: [{ plan: 'free', key: STAGING_KEY }] });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  await app.api.keys.set('staging', 'not-the-right-key');
  const { user } = await openSettings(app, 'Staging');

  await user.click(screen.getByRole('button', { name: 'Test connection' }));

  const result = screen.getByRole('status', { name: 'Staging connection test' });
  await waitFor(() =>
    expect(result.textContent).toContain('The service did not accept the Staging API key.'),
  );
  expect(result.textContent).not.toContain('Connected');
});

test('weak storage is explained in plain words, and saving anyway needs the explicit checkbox', async () => {
  const app = await startTestApp({ backend: 'basic_text' });
  const { user } = await openSettings(app, 'Staging');

  const warning = screen.getByRole('note', { name: 'Weak key protection' });
  expect(warning.textContent).toContain('This computer’s password store is not available.');
  expect(warning.textContent).toContain('a Staging key you enter is kept until you quit');
  const accept = screen.getByRole<HTMLInputElement>('checkbox', {
    name: 'Save it anyway, without protection',
  });
  expect(accept.checked).toBe(false);

  // Without the checkbox the key is kept for the session only.
  await user.type(screen.getByLabelText('API key'), STAGING_KEY);
  await user.click(screen.getByRole('button', { name: 'Save key' }));
  expect(await screen.findByText('Key kept until you quit, not saved')).toBeTruthy();
  expect(app.keys.status('staging').storage).toBe('session-only');

  // With it, the key is saved without protection, and the warning says what that means.
  await user.click(accept);
  await user.type(screen.getByLabelText('API key'), STAGING_KEY);
  await user.click(screen.getByRole('button', { name: 'Save key' }));
  expect(await screen.findByText('Key saved without protection, as you chose')).toBeTruthy();
  expect(app.keys.status('staging').storage).toBe('weak-accepted');
  expect(screen.getByRole('note', { name: 'Weak key protection' }).textContent).toContain(
    'Anyone who can read your files can read the Staging key.',
  );
  expect(document.body.innerHTML).not.toContain(STAGING_KEY);
});

test('before a new address is saved, Settings says what moves with it', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox({ keys: [{ plan: 'free', key: STAGING_KEY }] });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  const { user } = await openSettings(app, 'Staging');
  const field = screen.getByLabelText('Address');
  const line = /kept per address: a new address starts empty/;

  // The saved address again (however written) changes nothing: nothing to say.
  await user.type(field, '/');
  expect(screen.queryByText(line)).toBeNull();
  // Another path on the same host: the data line only.
  await user.clear(field);
  await user.type(field, `${staging.baseUrl.replace(/\/v1$/, '')}/eu/v1`);
  const said = screen.getByText(line);
  expect(said.textContent).not.toContain('key');
  expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(said.id);

  // Another host while a key is set: the key line too.
  await app.api.keys.set('staging', STAGING_KEY);
  await user.clear(field);
  await user.type(field, 'https://api.example.com/v1');
  expect(screen.getByText(line).textContent).toContain(
    'The key is sent to the new address only after you confirm it.',
  );
});

test('a key entered for another address is not sent until the clerk confirms in main’s dialog', async () => {
  const asked: { from: string; to: string }[] = [];
  let yes = false;
  const app = await startTestApp({
    confirmKeyForOrigin: async (question) => {
      asked.push(question);
      return yes;
    },
  });
  const old = await startExtraSandbox({ keys: [{ plan: 'free', key: STAGING_KEY }] });
  const moved = await startExtraSandbox({ keys: [{ plan: 'free', key: STAGING_KEY }] });
  await app.api.environments.setBaseUrl('staging', old.baseUrl);
  await app.api.keys.set('staging', STAGING_KEY);
  const { user } = await openSettings(app, 'Staging');

  const field = screen.getByLabelText('Address');
  await user.clear(field);
  await user.type(field, moved.baseUrl);
  await user.click(screen.getByRole('button', { name: 'Save address' }));
  const host = (url: string) => new URL(url).host;
  const notice = await screen.findByText(
    `The Staging key was entered for ${host(old.baseUrl)}, so it is not sent to ${host(moved.baseUrl)} until you confirm the new address or enter the key again.`,
  );
  expect(notice).toBeTruthy();

  await user.click(screen.getByRole('button', { name: 'Test connection' }));
  const result = screen.getByRole('status', { name: 'Staging connection test' });
  await waitFor(() => expect(result.textContent).toContain('until you confirm the new address'));
  expect(moved.requestLog).toEqual([]);

  // Declined in main's dialog: nothing changes.
  await user.click(screen.getByRole('button', { name: 'Confirm the new address…' }));
  expect(
    await screen.findByText('Not confirmed. The key stays with its old address.'),
  ).toBeTruthy();
  expect(asked).toHaveLength(1);
  expect(screen.getByRole('button', { name: 'Confirm the new address…' })).toBeTruthy();

  yes = true;
  await user.click(screen.getByRole('button', { name: 'Confirm the new address…' }));
  expect(await screen.findByText('Confirmed. The key is now used for this address.')).toBeTruthy();
  expect(screen.queryByText(/until you confirm the new address/)).toBeNull();
  expect(screen.queryByRole('button', { name: 'Confirm the new address…' })).toBeNull();
  await user.click(screen.getByRole('button', { name: 'Test connection' }));
  await waitFor(() =>
    expect(screen.getByRole('status', { name: 'Staging connection test' }).textContent).toContain(
      'Connected',
    ),
  );
  expect(moved.requestLog).toHaveLength(1);
});
