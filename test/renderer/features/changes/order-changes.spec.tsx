// Changes since the last refresh on the orders screen, against the real app
// and a sandbox with churn: the summary line after a refresh, the New and
// Changed marks on the rows, the changed fields with their value before in
// the details, and the Changes filter, whose "Gone" lists the orders no
// longer in the service from the list before, cancelled here told apart
// from those that left by themselves.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import {
  bodyRows,
  findGrid,
  firstOrderId,
  openFilters,
  showOrder,
  text,
} from '../orders/orders-test-kit.tsx';

const STEP_MS = 60_000;

const summaryLine = () =>
  text(screen.getByRole('status', { name: 'Changes since the last refresh' }));

async function churnedApp() {
  // The sandbox's clock runs a churn step ahead each time the test moves it.
  let shift = 0;
  const app = await startTestApp({
    sandbox: { orders: 300, churnEveryMs: STEP_MS, now: () => Date.now() + shift },
  });
  const rendered = renderApp(app);
  const grid = await findGrid();
  // A first list has nothing to compare with: said where changes are looked for, not in the toolbar.
  await rendered.user.click(screen.getByRole('button', { name: 'Filters' }));
  const changesFilter = await screen.findByRole('combobox', { name: 'Changes' });
  await waitFor(() =>
    expect(
      document.getElementById(changesFilter.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toBe('Changes show from the next refresh: this is the first list of this service here.'),
  );
  expect(summaryLine()).toBe('');
  await rendered.user.keyboard('{Escape}');
  return { app, grid, ...rendered, step: () => (shift += STEP_MS) };
}

test('after a refresh: the summary line, New and Changed on the rows, and the value before in the details', async () => {
  const { app, grid, user, step } = await churnedApp();
  const mine = firstOrderId(app.sandbox, 'pending');
  expect((await app.api.orders.cancel('sandbox', mine)).ok).toBe(true);
  step();
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await waitFor(() => expect(summaryLine()).toMatch(/^\+\d+ new/));

  const [churn] = app.sandbox.churned;
  expect(churn).toBeDefined();
  const view = await app.api.changes.get('sandbox');
  if (!view.ok || view.value.kind !== 'compared') throw new Error('no changes compared');
  const compared = view.value;
  const { summary } = compared;
  // What main worked out is what the sandbox did: one cancel from here, the rest its churn.
  expect(summary.added).toBe(churn!.arrived.length);
  expect(summary.gone).toBe(churn!.cancelled.length + 1);
  expect(summary.cancelledHere).toBe(1);
  expect(summary.changed).toBeGreaterThan(0);
  expect(summaryLine()).toBe(
    `+${summary.added} new, ${summary.gone} gone, ${summary.changed} changed since ${new Date(
      summary.since,
    )
      .toTimeString()
      .slice(0, 5)}`,
  );

  // A new order says so on its row; an order not touched has no mark.
  const arrived = churn!.arrived[0]!;
  expect(text(within(await showOrder(user, grid, arrived)).getAllByRole('gridcell')[5]!)).toBe(
    'New',
  );
  const untouched = app.sandbox
    .orderIds({ status: 'pending' })
    .find(
      (id) =>
        !compared.changed.some((order) => order.id === id) &&
        !churn!.arrived.includes(id) &&
        id !== mine,
    )!;
  expect(text(within(await showOrder(user, grid, untouched)).getAllByRole('gridcell')[5]!)).toBe(
    '',
  );

  // A changed order: Changed on its row, and in its details each changed field with what it was.
  const changed = compared.changed[0]!;
  const row = await showOrder(user, grid, changed.id);
  expect(text(within(row).getAllByRole('gridcell')[5]!)).toBe('Changed');
  await user.click(row);
  const details = screen.getByRole('complementary', { name: `Order ${changed.id}` });
  expect(within(details).getByText(/^Changed since the last refresh/)).toBeTruthy();
  const highlighted = details.querySelectorAll('.changed-field');
  expect(highlighted).toHaveLength(changed.fields.length);
  for (const cell of highlighted) expect(text(cell)).toMatch(/ was .+$/);
  if (changed.fields.includes('complete')) {
    expect(text(details)).toContain(
      `Complete${changed.after.complete ? 'Yes' : 'No'} was ${changed.before.complete ? 'Yes' : 'No'}`,
    );
  }
});

test('the Changes filter: new and changed orders in the grid, gone ones from the list before, cancelled here or not', async () => {
  const { app, user, step } = await churnedApp();
  const mine = firstOrderId(app.sandbox, 'pending');
  expect((await app.api.orders.cancel('sandbox', mine)).ok).toBe(true);
  step();
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await waitFor(() => expect(summaryLine()).toMatch(/^\+\d+ new/));
  const [churn] = app.sandbox.churned;

  const filters = await openFilters(user);
  const changes = within(filters).getByRole('combobox', { name: 'Changes' });
  await user.selectOptions(changes, 'New since the last refresh');
  const grid = screen.getByRole('grid', { name: 'Sandbox orders' });
  await waitFor(() =>
    expect(grid.getAttribute('aria-rowcount')).toBe(String(churn!.arrived.length + 1)),
  );
  for (const row of bodyRows(grid)) expect(text(row)).toContain('New');
  expect(screen.getByRole('button', { name: 'Filters, 1 in use' })).toBeTruthy();

  await user.selectOptions(changes, 'Changed since the last refresh');
  await waitFor(() => expect(bodyRows(grid).length).toBeGreaterThan(0));
  for (const row of bodyRows(grid)) expect(text(row)).toContain('Changed');

  await user.selectOptions(changes, 'Gone since the last refresh');
  const gone = await screen.findByRole('table', {
    name: 'Sandbox orders gone since the last refresh',
  });
  expect(screen.queryByRole('grid')).toBeNull();
  expect(gone.getAttribute('aria-rowcount')).toBe(String(churn!.cancelled.length + 2));
  const goneRow = (id: string) =>
    within(gone).getByRole('rowheader', { name: id }).closest<HTMLElement>('[role="row"]')!;
  expect(text(goneRow(mine))).toMatch(/Cancelled here at \d\d:\d\d$/);
  expect(text(goneRow(churn!.cancelled[0]!))).toMatch(/Not cancelled here$/);
  expect(screen.getByText(`Showing ${churn!.cancelled.length + 1} gone orders`)).toBeTruthy();

  await user.selectOptions(changes, 'All orders');
  const all = await findGrid();
  expect(all.getAttribute('aria-rowcount')).toBe(
    String(300 + churn!.arrived.length - churn!.cancelled.length - 1 + 1),
  );
});
