// The line that says the grid shows one outcome of the last bulk cancel
// counts as the status bar does: orders cancelled before the last refresh
// have left the list, and the line says how many are still in it and how many
// are not ("(5)" beside "Showing 2 of …" read as a mistake).

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { findGrid, shownIds, text } from '../orders/orders-test-kit.tsx';

test('an outcome some of whose orders left the list at a refresh: "2 in the list; 3 are no longer in it", as many as the grid shows', async () => {
  const held: (() => void)[] = [];
  const app = await startTestApp({
    sandbox: { orders: 40, sleep: () => new Promise<void>((resolve) => held.push(resolve)) },
  });
  const { user } = renderApp(app);
  const grid = await findGrid();
  const ids = app.sandbox.orderIds({ status: 'pending' }).slice(0, 5);
  for (const id of ids)
    await user.click(within(grid).getByRole('checkbox', { name: new RegExp(`\\b${id}$`) }));

  // Each answer waits until the test lets it go: three cancels, a pause, then a refresh.
  app.sandbox.setFaults('latency=1@1');
  await user.click(screen.getByRole('button', { name: 'Cancel ticked orders…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Cancel 5 orders?' });
  await user.click(within(dialog).getByRole('button', { name: 'Cancel 5 orders' }));
  const strip = await screen.findByRole('region', { name: /^Bulk cancel/ });
  await waitFor(() => expect(held).toHaveLength(1));
  held.shift()!();
  await waitFor(() => expect(held).toHaveLength(2));
  await user.click(within(strip).getByRole('button', { name: 'Pause' }));
  held.splice(0).forEach((answer) => answer());
  await within(strip).findByText('Paused. Nothing is sent until you resume.');
  app.sandbox.setFaults(undefined);
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await waitFor(() => expect(shownIds(grid)).not.toContain(ids[0]));
  await user.click(within(strip).getByRole('button', { name: 'Resume' }));
  await within(strip).findByText('Finished.', {}, { timeout: 15_000 });

  await user.click(within(strip).getByRole('button', { name: 'Cancelled 5' }));
  const line = await waitFor(() => document.querySelector<HTMLElement>('.bulk-outcome-shown')!);
  expect(text(line)).toBe(
    'Bulk cancel’s “Cancelled” orders: 2 in the list; 3 are no longer in it Show all',
  );
  await waitFor(() => expect(shownIds(grid)).toHaveLength(2));
  expect(text(document.querySelector('.orders-status'))).toMatch(/Showing 2 of /);
});
