// A refused key is one notice that stands until the key changes: saving
// another key (keys:changed from main) takes it away, and the list is then
// fetched with the new key by itself.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startExtraSandbox, startTestApp } from '../../support/test-app.tsx';

test('the refused-key notice goes when a new key is saved, and the list comes with it', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox({
    keys: [{ plan: 'pro', key: 'the-right-key' }],
    orders: 20,
  });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  await app.api.keys.set('staging', 'a-wrong-key');
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));

  const alert = await screen.findByRole('alert');
  expect(within(alert).getByText(/did not accept the Staging API key/)).toBeTruthy();
  expect(screen.queryByRole('grid')).toBeNull();

  await app.api.keys.set('staging', 'the-right-key');

  await waitFor(() => expect(screen.queryAllByRole('alert')).toHaveLength(0));
  const grid = await screen.findByRole('grid', { name: 'Staging orders' });
  await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('21'));
});
