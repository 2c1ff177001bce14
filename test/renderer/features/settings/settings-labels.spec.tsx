// Settings names each field once: the tab and the heading say whose settings
// these are, so a field is "Address", not "Address" beside "Staging base URL".
// Where updates come from is Store Admin's, not an environment's: its own
// section, outside the environment's tabs.

import { screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { startTestApp } from '../../support/test-app.tsx';
import { openSettings } from './settings-kit.tsx';

async function openStaging() {
  const app = await startTestApp();
  return { app, ...(await openSettings(app)) };
}

test('each field is named once; the environment is named by its tab and heading', async () => {
  await openStaging();
  const panel = screen.getByRole('region', { name: 'Staging settings' });

  expect(within(panel).getByLabelText('Address').tagName).toBe('INPUT');
  expect(within(panel).getByLabelText('API key').tagName).toBe('INPUT');
  expect(within(panel).getAllByText('Address')).toHaveLength(1);
  expect(within(panel).getAllByText('API key')).toHaveLength(1);
  expect(within(panel).queryByText(/base URL|Staging API key/)).toBeNull();
});

test("the update server is Store Admin's: its own section, outside the environment's tabs, named once", async () => {
  const { user } = await openStaging();
  const updates = await screen.findByRole('region', { name: 'Updates' });
  const tabs = screen.getByRole('region', { name: 'Environments' });

  expect(tabs.contains(updates)).toBe(false);
  expect(tabs.contains(screen.getByRole('navigation', { name: 'Environment settings' }))).toBe(
    true,
  );
  expect(within(updates).getByText(/every environment/)).toBeTruthy();
  expect(within(updates).getByLabelText('Update server').tagName).toBe('INPUT');
  expect(within(updates).getAllByText(/Update server/)).toHaveLength(1);

  await user.click(
    within(screen.getByRole('navigation', { name: 'Environment settings' })).getByRole('button', {
      name: 'Production',
    }),
  );
  await screen.findByRole('heading', { name: 'Production settings' });
  expect(screen.getByRole('region', { name: 'Environments' }).contains(updates)).toBe(false);
});
