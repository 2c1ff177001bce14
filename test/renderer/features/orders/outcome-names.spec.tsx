// One outcome, one name: a cancel whose first try's answer was lost and whose
// retry met 404 is "Gone" in the order's row, in the bulk cancel's strip, in
// the cancel log and in both CSVs (it read "No longer exists", "Gone (answer
// lost)" and "Gone — may or may not have been cancelled"); the row is not
// drawn as cancelled. Each cancel log entry says one thing once: its result,
// and a sentence only where that sentence adds to it.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import type { TestSandbox } from '../../support/test-app-shapes.ts';
import { captureDownloads, findGrid, firstOrderId, rowOf, text } from './orders-test-kit.tsx';

test('a cancel that may or may not have removed its order is “Gone” in the row, the strip, the cancel log and the CSVs', async () => {
  // The first DELETE is done and its answer dropped; the faults end with it, so the retry
  // meets the 404 of an order that is no longer there.
  const held: { sandbox?: TestSandbox } = {};
  const app = await startTestApp({
    sandbox: { orders: 40, sleep: async () => held.sandbox?.setFaults(undefined) },
  });
  held.sandbox = app.sandbox;
  const { user } = renderApp(app);
  const grid = await findGrid();
  const id = firstOrderId(app.sandbox, 'pending');
  const downloads = await captureDownloads();

  app.sandbox.setFaults('latency=1@1,reset@1');
  await user.click(within(rowOf(grid, id)).getByRole('checkbox'));
  await user.click(screen.getByRole('button', { name: 'Cancel ticked orders…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Cancel 1 order?' });
  await user.click(within(dialog).getByRole('button', { name: 'Cancel 1 order' }));
  const strip = await screen.findByRole('region', { name: /^Bulk cancel/ });
  await within(strip).findByText('Finished.', {}, { timeout: 15_000 });

  // The strip's outcome, the row's chip: one word.
  const shown = within(strip).getByRole('button', { name: /^Gone/ });
  expect(text(shown)).toBe('Gone 1');
  const chip = await waitFor(() => within(rowOf(grid, id)).getByText('Gone'));
  expect(chip.getAttribute('title')).toBe('Gone — the service no longer has it');
  // Not drawn as cancelled: the row's own class says "gone", never "cancelled".
  expect(rowOf(grid, id).className).not.toMatch(/row-cancelled/);

  // The cancel log: the same word, then the one sentence that says why.
  await user.click(screen.getByRole('button', { name: /^Cancel log/ }));
  const log = await screen.findByRole('table', { name: /^Cancel log for Sandbox/ });
  const entry = within(log).getByRole('rowheader', { name: id }).closest('tr')!;
  expect(entry.querySelector('.log-result')!.textContent).toBe('Gone');
  expect(entry.querySelector('.log-message')!.textContent).toMatch(
    new RegExp(`^Order ${id} is gone: .*may or may not have removed it\\.$`),
  );

  // Both CSVs call it the same.
  await user.click(within(strip).getByRole('button', { name: 'Export results' }));
  await user.click(screen.getByRole('button', { name: 'Export cancel log as CSV' }));
  await waitFor(() => expect(downloads).toHaveLength(2));
  const [results, cancelLog] = await Promise.all(downloads.map((download) => download.text));
  expect(results!.split('\n')[1]).toContain(`"=""${id}""",Gone,`);
  expect(cancelLog!.split('\n')[1]).toContain(`,"=""${id}""",gone,`);
});

test('a cancel log entry says its result once: no sentence that only says it again', async () => {
  const app = await startTestApp({ sandbox: { orders: 40 } });
  const { user } = renderApp(app);
  const grid = await findGrid();
  const pending = firstOrderId(app.sandbox, 'pending');
  const shipped = firstOrderId(app.sandbox, 'shipped');
  for (const id of [pending, shipped]) {
    const result = await app.api.orders.cancel('sandbox', id);
    expect(result.ok).toBe(true);
  }
  await user.click(screen.getByRole('button', { name: /^Cancel log/ }));
  const log = await screen.findByRole('table', { name: /^Cancel log for Sandbox/ });
  const entryOf = (id: string) => within(log).getByRole('rowheader', { name: id }).closest('tr')!;
  await waitFor(() => expect(entryOf(shipped)).toBeTruthy());
  for (const [id, result] of [
    [pending, 'Cancelled'],
    [shipped, 'Already shipped'],
  ] as const) {
    expect(text(entryOf(id).querySelector('.log-result'))).toBe(result);
    // Its time beside it, and no "Order … was cancelled." under it.
    expect(entryOf(id).querySelector('time')).toBeTruthy();
    expect(entryOf(id).querySelector('.log-message')).toBeNull();
    expect(text(entryOf(id))).not.toContain(`Order ${id}`);
  }
  expect(grid).toBeTruthy();
});
