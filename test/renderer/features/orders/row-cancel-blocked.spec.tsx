// A row's Cancel is off, saying why, whenever a cancel could not be sent from
// it: while a bulk cancel is under way in the environment (it may hold that
// very order) and while the environment has no API key. It was on, and its
// dialog's cancel then failed or raced the bulk cancel.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startExtraSandbox, startTestApp } from '../../support/test-app.tsx';
import { findGrid, rowOf } from './orders-test-kit.tsx';

function cancelButton(grid: HTMLElement, id: string): HTMLElement {
  return within(rowOf(grid, id)).getByRole('button', { name: `Cancel order ${id}` });
}

test('while a bulk cancel is under way, every row’s Cancel is off and says why; after it, on again', async () => {
  const app = await startTestApp({ sandbox: { orders: 60 } });
  const { user } = renderApp(app);
  const grid = await findGrid();
  const [ticked, other] = app.sandbox.orderIds({ status: 'pending' });
  expect(cancelButton(grid, other!).getAttribute('aria-disabled')).toBeNull();

  // Slow answers: the job is under way while the row is looked at.
  app.sandbox.setFaults('latency=300@1');
  await user.click(within(rowOf(grid, ticked!)).getByRole('checkbox'));
  await user.click(screen.getByRole('button', { name: 'Cancel ticked orders…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Cancel 1 order?' });
  await user.click(within(dialog).getByRole('button', { name: 'Cancel 1 order' }));
  const strip = await screen.findByRole('region', { name: /^Bulk cancel/ });

  await waitFor(() =>
    expect(cancelButton(grid, other!).getAttribute('aria-disabled')).toBe('true'),
  );
  const why =
    'Cancelling waits: a bulk cancel is under way in Sandbox. Stop it or let it finish first.';
  expect(cancelButton(grid, other!).getAttribute('title')).toBe(why);
  expect(
    document.getElementById(cancelButton(grid, other!).getAttribute('aria-describedby')!)!
      .textContent,
  ).toBe(why);
  // Pressed anyway: nothing is asked, nothing is sent.
  await user.click(cancelButton(grid, other!));
  expect(screen.queryByRole('dialog')).toBeNull();

  app.sandbox.setFaults(undefined);
  await within(strip).findByText('Finished.', {}, { timeout: 15_000 });
  await waitFor(() => expect(cancelButton(grid, other!).getAttribute('aria-disabled')).toBeNull());
  expect(cancelButton(grid, other!).getAttribute('title')).toBeNull();
});

test('an environment whose key was removed: its rows’ Cancel is off and says it is not set up', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox({ keys: [{ plan: 'pro', key: 'stg-key' }], orders: 30 });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  await app.api.keys.set('staging', 'stg-key');
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));
  const grid = await findGrid('Staging');
  const id = staging.orderIds({ status: 'pending' })[0]!;
  expect(cancelButton(grid, id).getAttribute('aria-disabled')).toBeNull();

  await app.api.keys.remove('staging');
  await waitFor(() => expect(cancelButton(grid, id).getAttribute('aria-disabled')).toBe('true'));
  expect(cancelButton(grid, id).getAttribute('title')).toBe(
    'Cancelling waits: Staging is not set up yet (no API key).',
  );
  await user.click(cancelButton(grid, id));
  expect(screen.queryByRole('dialog')).toBeNull();
});
