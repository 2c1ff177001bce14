// Settings' update server address: checked as typed with main's rule, saved
// in main, emptied to turn updates off; an address given when the app was
// built is shown and cannot be changed there.

import { screen, waitFor } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';

async function openSettings() {
  const app = await startTestApp();
  const view = renderApp(app);
  await view.user.click(await screen.findByRole('button', { name: 'Settings' }));
  await screen.findByRole('heading', { name: 'Updates' });
  return { app, ...view };
}

test('an update address is checked as typed, saved in main, and emptied to turn updates off', async () => {
  const { app, user } = await openSettings();
  const field = await screen.findByLabelText('Update server');
  expect((field as HTMLInputElement).value).toBe('');

  await user.type(field, 'http://updates.example.com/store-admin');
  expect(screen.getByText(/Use https:\/\//)).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Save update address' }));
  // Not sent: main still has none.
  expect(await app.api.updates.settings()).toMatchObject({ ok: true, value: { source: 'none' } });

  await user.clear(field);
  await user.type(field, 'https://updates.example.com/store-admin');
  await user.click(screen.getByRole('button', { name: 'Save update address' }));
  await screen.findByText(/Saved\. Store Admin looks for updates there/);
  // Saved as main normalised it: the folder, with its slash.
  expect((field as HTMLInputElement).value).toBe('https://updates.example.com/store-admin/');
  expect(await app.api.updates.settings()).toEqual({
    ok: true,
    value: {
      address: 'https://updates.example.com/store-admin/',
      source: 'settings',
      channel: 'latest',
    },
  });

  await user.clear(field);
  await user.click(screen.getByRole('button', { name: 'Save update address' }));
  await screen.findByText('Saved. Store Admin does not look for updates.');
  await waitFor(async () =>
    expect(await app.api.updates.settings()).toEqual({
      ok: true,
      value: { source: 'none', channel: 'latest' },
    }),
  );
});

test("an address from the app's build is the company's: shown, with no field to change it", async () => {
  const app = await startTestApp({
    buildUpdateFeed: {
      url: 'https://updates.petstore.example/store-admin/',
      channel: 'stable',
      source: 'build',
    },
  });
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('button', { name: 'Settings' }));
  await screen.findByText(
    'Updates come from https://updates.petstore.example/store-admin/ (stable channel), set by your company when Store Admin was built.',
  );
  expect(screen.queryByLabelText('Update server')).toBeNull();
  // Nor through the API.
  const refused = await app.api.updates.setAddress('https://elsewhere.example/');
  expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
});
