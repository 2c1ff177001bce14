// A key kept back from a new address is a condition of the
// window like a missing key: one alert on the orders screen with Open
// Settings; in Settings it is said once, beside the key with its Confirm
// button; confirmed, the alert goes and the list comes from the new address.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startExtraSandbox, startTestApp } from '../../support/test-app.tsx';

test('one alert with Open Settings; said once in Settings; confirmed, the list comes from the new address', async () => {
  const app = await startTestApp({ confirmKeyForOrigin: async () => true });
  const old = await startExtraSandbox({ keys: [{ plan: 'pro', key: 'stg-key' }] });
  const moved = await startExtraSandbox({ keys: [{ plan: 'pro', key: 'stg-key' }], orders: 7 });
  await app.api.environments.setBaseUrl('staging', old.baseUrl);
  await app.api.keys.set('staging', 'stg-key');
  await app.api.environments.setBaseUrl('staging', moved.baseUrl);
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));

  const alert = await screen.findByRole('alert');
  expect(screen.getAllByRole('alert')).toHaveLength(1);
  expect(alert.textContent).toMatch(/^Key not sent\. The Staging key was entered for /);
  expect(alert.textContent).not.toMatch(/No API key/);
  expect(screen.getByRole('region', { name: 'Quota' }).textContent).toContain(
    'Quota unknown: no key is sent',
  );
  // Nothing went to the new address with the key.
  expect(moved.requestLog).toHaveLength(0);

  await user.click(within(alert).getByRole('button', { name: 'Open Staging settings' }));
  await screen.findByRole('heading', { name: 'Staging settings' });
  // Said once: beside the key, with its button; not again in the notice area.
  expect(screen.queryAllByRole('alert')).toHaveLength(0);
  const note = screen.getByRole('note');
  expect(note.textContent).toMatch(/^The Staging key was entered for /);
  await user.click(within(note).getByRole('button', { name: 'Confirm the new address…' }));
  await screen.findByText(/^Confirmed\./);

  await user.click(screen.getByRole('button', { name: 'Orders' }));
  const grid = await screen.findByRole('grid', { name: 'Staging orders' });
  await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('8'));
  expect(screen.queryAllByRole('alert')).toHaveLength(0);
  expect(moved.requestLog.length).toBeGreaterThan(0);
});
