// Each environment keeps its own search, filters and sort: a bulk cancel's
// outcome shown in the Sandbox showed in Staging as "Filters 1" with every
// field at its default, and "Clear search and filters" on.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startExtraSandbox, startTestApp } from '../../support/test-app.tsx';
import { findGrid } from './orders-test-kit.tsx';

test('a search and a bulk cancel’s outcome filter set in the Sandbox stay there: Staging shows its orders unfiltered, and back in the Sandbox they are as left', async () => {
  const app = await startTestApp({ sandbox: { orders: 30 } });
  const staging = await startExtraSandbox({ keys: [{ plan: 'pro', key: 'stg-key' }], orders: 30 });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  await app.api.keys.set('staging', 'stg-key');
  const { user } = renderApp(app);
  const grid = await findGrid();

  // A bulk cancel of one order, and its outcome shown in the list.
  const id = app.sandbox.orderIds({ status: 'pending' })[0]!;
  await user.click(within(grid).getByRole('checkbox', { name: new RegExp(`\\b${id}$`) }));
  await user.click(screen.getByRole('button', { name: 'Cancel ticked orders…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Cancel 1 order?' });
  await user.click(within(dialog).getByRole('button', { name: 'Cancel 1 order' }));
  const strip = await screen.findByRole('region', { name: /^Bulk cancel/ });
  await within(strip).findByText('Finished.', {}, { timeout: 15_000 });
  await user.click(within(strip).getByRole('button', { name: 'Cancelled 1' }));
  await screen.findByRole('button', { name: 'Filters, 1 in use' });
  await user.type(screen.getByRole('searchbox'), id);

  await user.click(screen.getByRole('radio', { name: 'Staging' }));
  await findGrid('Staging');
  expect(screen.queryByRole('button', { name: /^Filters, \d+ in use$/ })).toBeNull();
  expect(screen.getByRole('button', { name: 'Filters' })).toBeTruthy();
  expect(screen.getByRole<HTMLInputElement>('searchbox').value).toBe('');
  expect(document.querySelector('.bulk-outcome-shown')).toBeNull();

  await user.click(screen.getByRole('radio', { name: 'Sandbox' }));
  await findGrid();
  await waitFor(() =>
    expect(screen.getByRole('button', { name: 'Filters, 1 in use' })).toBeTruthy(),
  );
  expect(screen.getByRole<HTMLInputElement>('searchbox').value).toBe(id);
});
