// The seams of the Settings screen: each field shows one outcome, the latest;
// where a key is kept is said in plain words, never by a storage backend's name.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { startExtraSandbox, startTestApp } from '../../support/test-app.tsx';
import type { TestStorageBackend } from '../../support/test-app-shapes.ts';
import { openSettings, STAGING_KEY } from './settings-kit.tsx';

/** The text that describes a field (its hint, its message), as a screen reader reads it. */
function description(field: HTMLElement): string {
  return (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

test('the address field shows one outcome, the latest: a new problem replaces "saved", and a save the problem', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox();
  const { user } = await openSettings(app);
  const field = screen.getByLabelText('Address');
  const form = field.closest('form') as HTMLElement;

  await user.type(field, staging.baseUrl);
  await user.click(screen.getByRole('button', { name: 'Save address' }));
  expect(await within(form).findByText(/^Saved/)).toBeTruthy();

  // Typing an address that is not valid: the problem, and no longer "Saved".
  await user.type(field, '/orders');
  expect(description(field)).toMatch(/must end with \/v1/);
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(within(form).queryByText(/^Saved/)).toBeNull();

  // Saving it again: "Saved", and the problem gone.
  await user.clear(field);
  await user.type(field, staging.baseUrl);
  await user.click(screen.getByRole('button', { name: 'Save address' }));
  expect(await within(form).findByText(/^Saved/)).toBeTruthy();
  expect(within(form).queryByText(/must end with/)).toBeNull();
  expect(field.getAttribute('aria-invalid')).toBeNull();
});

test('the key field shows one outcome, the latest: a refused key replaces "saved", and a saved key the refusal', async () => {
  const app = await startTestApp();
  const { user } = await openSettings(app);
  const field = screen.getByLabelText('API key');
  const form = field.closest('form') as HTMLElement;

  await user.type(field, STAGING_KEY);
  await user.click(screen.getByRole('button', { name: 'Save key' }));
  expect(await within(form).findByText(/^Key saved for Staging\./)).toBeTruthy();

  await user.type(field, 'two words');
  await user.click(screen.getByRole('button', { name: 'Save key' }));
  expect(await within(form).findByText(/must not contain spaces/)).toBeTruthy();
  expect(within(form).queryByText(/^Key saved for Staging\./)).toBeNull();
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(description(field)).toMatch(/must not contain spaces/);

  // Typing again takes the refusal away; saving shows "saved" alone.
  await user.type(field, 'x');
  expect(within(form).queryByText(/must not contain spaces/)).toBeNull();
  await user.clear(field);
  await user.type(field, STAGING_KEY);
  await user.click(screen.getByRole('button', { name: 'Save key' }));
  expect(await within(form).findByText(/^Key saved for Staging\./)).toBeTruthy();
  expect(within(form).queryByText(/must not contain spaces/)).toBeNull();
});

const BACKEND_WORDS =
  /basic[ _]text|libsecret|kwallet|dpapi|backend|unidentified|encryption is not available/i;

test.each<[TestStorageBackend, RegExp]>([
  ['basic_text', /This computer’s password store is not available\./],
  ['unavailable', /This computer’s password store is not available\./],
  ['gnome_libsecret', /No key/],
  ['kwallet6', /No key/],
  ['dpapi', /No key/],
])('with the %s store, where a key is kept is said in plain words', async (backend, expected) => {
  const app = await startTestApp({ backend });
  const { user } = await openSettings(app);
  const panel = screen.getByRole('region', { name: 'Staging settings' });
  expect(panel.textContent).toMatch(expected);
  expect(panel.textContent).not.toMatch(BACKEND_WORDS);

  await user.type(screen.getByLabelText('API key'), STAGING_KEY);
  await user.click(screen.getByRole('button', { name: 'Save key' }));
  expect(await within(panel).findByText(/^Key (saved|kept) for Staging/)).toBeTruthy();
  expect(panel.textContent).not.toMatch(BACKEND_WORDS);
});

test('a key moved to another address: its notice stands alone with its button, the address line asks only away from the key’s own address; a "no" is a note, a "yes" done', async () => {
  let yes = false;
  const app = await startTestApp({ backend: 'basic_text', confirmKeyForOrigin: async () => yes });
  const old = await startExtraSandbox();
  const moved = await startExtraSandbox();
  await app.api.environments.setBaseUrl('staging', old.baseUrl);
  await app.api.keys.set('staging', STAGING_KEY);
  await app.api.environments.setBaseUrl('staging', moved.baseUrl);
  const { user } = await openSettings(app);
  const key = screen.getByLabelText('API key');

  // What stops requests now is said alone, not after the password store's absence.
  const notice = screen.getByRole('note');
  expect(notice.textContent).toMatch(/^The Staging key was entered for /);
  expect(screen.queryByText(/password store is not available/)).toBeNull();
  const confirm = within(notice).getByRole('button', { name: 'Confirm the new address…' });

  // Typing the key's own address back: the key goes there without a question.
  const address = screen.getByLabelText('Address');
  await user.clear(address);
  await user.type(address, old.baseUrl);
  expect(description(address)).toContain('kept per address');
  expect(description(address)).not.toContain('The key is sent');
  await user.clear(address);
  await user.type(address, moved.baseUrl);

  await user.click(confirm);
  await waitFor(() => expect(description(key)).toContain('Not confirmed.'));
  expect(screen.getByText(/^Not confirmed\./).parentElement?.innerHTML).toContain(
    'aria-label="Note"',
  );
  expect(key.getAttribute('aria-invalid')).toBeNull();
  expect(screen.getByRole('button', { name: 'Save key' })).toBeTruthy();

  yes = true;
  await user.click(within(screen.getByRole('note')).getByRole('button', { name: /^Confirm/ }));
  await waitFor(() => expect(description(key)).toContain('Confirmed.'));
  expect(screen.getByText(/^Confirmed\./).parentElement?.innerHTML).toContain('aria-label="Done"');
  // Back to what the computer's missing password store means for the key.
  expect(screen.getByRole('note', { name: 'Weak key protection' }).textContent).toMatch(
    /password store is not available/,
  );
});

test('moving the address away from a key just saved: the key field no longer says it was saved, the notice says why nothing is sent', async () => {
  const app = await startTestApp();
  const old = await startExtraSandbox();
  const moved = await startExtraSandbox();
  const { user } = await openSettings(app);
  const address = screen.getByLabelText('Address');
  await user.type(address, old.baseUrl);
  await user.click(screen.getByRole('button', { name: 'Save address' }));
  await waitFor(() => expect(description(address)).toContain('Saved.'));
  const key = screen.getByLabelText('API key');
  await user.type(key, STAGING_KEY);
  await user.click(screen.getByRole('button', { name: 'Save key' }));
  await waitFor(() => expect(description(key)).toMatch(/Key saved for Staging\./));

  await user.clear(address);
  await user.type(address, moved.baseUrl);
  await user.click(screen.getByRole('button', { name: 'Save address' }));
  await waitFor(() => expect(description(address)).toContain('Saved.'));
  expect(screen.getByRole('note').textContent).toMatch(/^The Staging key was entered for /);
  expect(description(key)).not.toMatch(/Key saved for/);
});
