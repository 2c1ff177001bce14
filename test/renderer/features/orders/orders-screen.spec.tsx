// The orders screen on the real app: refresh with count and progress, the
// grid's semantics, cancel and its outcomes, and the way to Settings when the
// key is the problem.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startExtraSandbox, startTestApp } from '../../support/test-app.tsx';
import { bodyRows, findGrid, firstOrderId, rowOf, shownIds, text } from './orders-test-kit.tsx';

test('the list refreshes by itself on start, and Refresh shows the count and the time of the refresh', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);

  const grid = await findGrid();
  const ids = app.sandbox.orderIds();
  expect(ids).toHaveLength(1000);
  // The whole list is in the grid; only the rows in view are in the page.
  expect(grid.getAttribute('aria-rowcount')).toBe('1001');
  const rows = bodyRows(grid);
  expect(rows.length).toBeGreaterThan(10);
  expect(rows.length).toBeLessThan(60);
  expect(rows[0]!.getAttribute('aria-rowindex')).toBe('2');
  expect(shownIds(grid).slice(0, 3)).toEqual(ids.slice(0, 3));

  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await waitFor(() =>
    expect(screen.getByRole('status', { name: 'Order list status' }).textContent).toMatch(
      /^Refreshed: 1,000 Sandbox orders at \d\d:\d\d:\d\d\.$/,
    ),
  );
  expect(text(document.querySelector('.refresh-line'))).toMatch(
    // The next refresh, five minutes on, carries its day after midnight.
    /^Refreshed at \d\d:\d\d:\d\d \(just now\)\. Next automatic refresh at (\d+ \w+( \d{4})?, )?\d\d:\d\d:\d\d\.$/,
  );
  expect(screen.getByText('Showing 1,000 of 1,000 orders')).toBeTruthy();
  // Column headers, and the ship date in the desktop's form (en-GB here), as every date on screen.
  expect(
    within(grid)
      .getAllByRole('columnheader')
      .map((cell) => text(cell) || cell.querySelector('input')?.getAttribute('aria-label')),
  ).toEqual([
    'Select all shown',
    'Order ID',
    'Pet ID',
    'Quantity',
    'Ship date',
    'Complete',
    'Review',
    'Status',
  ]);
  const time = rows[0]!.querySelector('time');
  expect(time?.getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(time?.textContent).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d$/);
  // Ids in the same type as the rest, right-aligned like every number.
  const idCell = within(rows[0]!).getByRole('rowheader');
  expect(idCell.className).toContain('numeric');
  expect(idCell.className).not.toContain('mono');
  expect(app.sandbox.requestLog.filter((request) => request.method === 'GET')).toHaveLength(2);
});

test('shows the download in progress with a labelled progress bar', async () => {
  // Every answer waits 400 ms, so the download is seen in progress.
  const app = await startTestApp({ sandbox: { faults: 'latency=400@1' } });
  renderApp(app);

  const progress = await screen.findByRole('progressbar', { name: 'Downloading orders' });
  // Before the first byte, it says what it waits for; then bytes.
  expect(progress.getAttribute('aria-valuetext')).toMatch(
    /^(waiting for the service to answer|.* received|.* of .*)/,
  );
  expect(screen.getByRole('status', { name: 'Order list status' }).textContent).toBe(
    'Downloading the Sandbox orders…',
  );
  await findGrid();
  expect(screen.queryByRole('progressbar')).toBeNull();
  expect(
    app.received.some((entry) => (entry as { event?: string }).event === 'orders:progress'),
  ).toBe(true);
});

test('while a refresh downloads, the legend gives way to its progress; the refresh line stays', async () => {
  const app = await startTestApp({ sandbox: { faults: 'latency=400@1' } });
  const { user } = renderApp(app);
  await findGrid();
  const legend = () => document.querySelector('.review-legend');
  expect(legend()).not.toBeNull();
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await screen.findByRole('progressbar', { name: 'Downloading orders' });
  expect(legend()).toBeNull();
  expect(document.querySelector('.refresh-line')?.textContent).not.toBe('');
  await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
  expect(legend()).not.toBeNull();
});

test('once the list is whole and the page quiet, its sorts are built ahead, and a sort uses them', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const grid = await findGrid();
  const workspace = grid.closest('.orders-workspace')!;
  // Not while the list is just in: the page is given a quiet moment first.
  expect(workspace.getAttribute('data-sorts')).toBeNull();
  await waitFor(() => expect(workspace.getAttribute('data-sorts')).toBe('ready'), {
    timeout: 5000,
  });
  await user.click(within(grid).getByRole('button', { name: /^Pet ID/ }));
  const petIds = bodyRows(grid).map((row) =>
    Number(text(row.querySelectorAll('[role="gridcell"]')[1]!)),
  );
  expect(petIds.length).toBeGreaterThan(10);
  expect(petIds).toEqual([...petIds].sort((a, b) => a - b));
});

test('cancelling a pending order: the dialog names order and environment, then the outcome says cancelled', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const id = firstOrderId(app.sandbox, 'pending');
  const grid = await findGrid();

  await user.click(within(rowOf(grid, id)).getByRole('button', { name: `Cancel order ${id}` }));

  const dialog = screen.getByRole('dialog', { name: `Cancel order ${id}?` });
  expect(dialog.getAttribute('aria-modal')).toBe('true');
  expect(dialog.textContent).toContain('Sandbox');
  expect(within(dialog).getByText('SANDBOX — demo data')).toBeTruthy();
  // The safe choice has the focus.
  expect(document.activeElement).toBe(
    within(dialog).getByRole('button', { name: 'Keep the order' }),
  );
  expect(app.sandbox.orderStatus(id)).toBe('pending');

  await user.click(within(dialog).getByRole('button', { name: `Cancel order ${id}` }));

  const outcome = screen.getByRole('status', { name: 'Cancel outcome' });
  await waitFor(() =>
    expect(outcome.textContent).toBe(
      `Sandbox: Order ${id} was cancelled. It leaves the list at the next refresh.`,
    ),
  );
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(app.sandbox.orderStatus(id)).toBe('cancelled');
  // The row says so and offers no second cancel; the focus went to the outcome.
  const row = rowOf(grid, id);
  expect(within(row).getByText('Cancelled')).toBeTruthy();
  expect(within(row).queryByRole('button')).toBeNull();
  expect(document.activeElement).toBe(outcome);

  // At the next refresh the order has left the list.
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('1000'));
  expect(within(grid).queryByRole('rowheader', { name: id })).toBeNull();
});

test("a row's Cancel opens the cancel dialog only, not the order's details; a click on the row itself opens them", async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const id = firstOrderId(app.sandbox, 'pending');
  const grid = await findGrid();
  const details = () => screen.queryByRole('complementary', { name: `Order ${id}` });

  await user.click(within(rowOf(grid, id)).getByRole('button', { name: `Cancel order ${id}` }));
  expect(screen.getByRole('dialog', { name: `Cancel order ${id}?` })).toBeTruthy();
  expect(details()).toBeNull();
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(details()).toBeNull();

  await user.click(within(rowOf(grid, id)).getByRole('rowheader'));
  expect(details()).not.toBeNull();
  expect(screen.queryByRole('dialog')).toBeNull();
});

test("a control in a row does its one thing: a double-click on the tick box or Cancel opens no details, nor does the right-click that opens the row's menu", async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const id = firstOrderId(app.sandbox, 'pending');
  const grid = await findGrid();
  const details = () => screen.queryByRole('complementary', { name: /^Order / });

  // The tick box, clicked twice in a row: ticked, then not; the details stay closed.
  const tick = within(rowOf(grid, id)).getByRole('checkbox');
  await user.dblClick(tick);
  expect((tick as HTMLInputElement).checked).toBe(false);
  expect(details()).toBeNull();

  // Cancel, clicked twice in a row: the cancel dialog, once, and no details under it.
  await user.dblClick(within(rowOf(grid, id)).getByRole('button', { name: `Cancel order ${id}` }));
  expect(screen.getByRole('dialog', { name: `Cancel order ${id}?` })).toBeTruthy();
  expect(details()).toBeNull();
  await user.keyboard('{Escape}');

  // A right-click selects the row for its menu; the menu offers the details, the click opens none.
  await user.pointer({
    keys: '[MouseRight]',
    target: within(rowOf(grid, id)).getByRole('rowheader'),
  });
  expect(await screen.findByRole('menu', { name: `Order ${id}` })).toBeTruthy();
  expect(rowOf(grid, id).getAttribute('aria-selected')).toBe('true');
  expect(details()).toBeNull();
  await user.keyboard('{Escape}');

  // A double-click on the row itself opens them.
  await user.dblClick(within(rowOf(grid, id)).getByRole('rowheader'));
  expect(details()).not.toBeNull();
});

test('keeping the order (Escape) sends nothing and gives the focus back to its Cancel button', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const id = firstOrderId(app.sandbox, 'pending');
  const grid = await findGrid();
  const cancel = within(rowOf(grid, id)).getByRole('button', { name: `Cancel order ${id}` });

  await user.click(cancel);
  await user.keyboard('{Escape}');

  expect(screen.queryByRole('dialog')).toBeNull();
  expect(document.activeElement).toBe(cancel);
  expect(app.sandbox.orderStatus(id)).toBe('pending');
  expect(app.sandbox.requestLog.filter((request) => request.method === 'DELETE')).toHaveLength(0);
  expect(screen.getByRole('status', { name: 'Cancel outcome' }).textContent).toBe('');
});

test('the dialog keeps the focus inside while it is open', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const id = firstOrderId(app.sandbox, 'pending');
  const grid = await findGrid();
  await user.click(within(rowOf(grid, id)).getByRole('button', { name: `Cancel order ${id}` }));
  const dialog = screen.getByRole('dialog');

  await user.tab();
  expect(document.activeElement).toBe(
    within(dialog).getByRole('button', { name: `Cancel order ${id}` }),
  );
  await user.tab();
  expect(document.activeElement).toBe(
    within(dialog).getByRole('button', { name: 'Keep the order' }),
  );
  await user.tab({ shift: true });
  expect(dialog.contains(document.activeElement)).toBe(true);
});

test('cancelling a shipped order says it cannot be reversed, and the row shows it shipped from then on', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const id = firstOrderId(app.sandbox, 'shipped');
  const grid = await findGrid();

  await user.click(within(rowOf(grid, id)).getByRole('button', { name: `Cancel order ${id}` }));
  await user.click(
    within(screen.getByRole('dialog')).getByRole('button', { name: `Cancel order ${id}` }),
  );

  const outcome = screen.getByRole('status', { name: 'Cancel outcome' });
  await waitFor(() =>
    expect(outcome.textContent).toContain(
      `Order ${id} has already shipped and cannot be cancelled.`,
    ),
  );
  expect(outcome.textContent).toContain('cannot be reversed');
  expect(outcome.textContent).not.toContain('was cancelled');
  expect(app.sandbox.orderStatus(id)).toBe('shipped');
  const row = rowOf(grid, id);
  expect(within(row).getByText('Shipped').getAttribute('title')).toBe(
    'Shipped — cannot be cancelled',
  );
  expect(within(row).queryByText('Cancelled')).toBeNull();
  expect(within(row).queryByRole('button')).toBeNull();

  // Still shipped after a refresh: the 409 is in the cancel log.
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await waitFor(() =>
    expect(screen.getByRole('status', { name: 'Order list status' }).textContent).toMatch(
      /^Refreshed/,
    ),
  );
  expect(within(rowOf(grid, id)).getByText('Shipped')).toBeTruthy();
  await user.click(rowOf(grid, id));
  const details = screen.getByRole('complementary', { name: `Order ${id}` });
  expect(within(details).getByText('Shipped — cannot be cancelled')).toBeTruthy();
  expect(within(details).queryByRole('button', { name: /^Cancel order/ })).toBeNull();
});

test('in production the dialog stands out: the environment is named in words', async () => {
  const app = await startTestApp();
  const production = await startExtraSandbox({ keys: [{ plan: 'business', key: 'prod-key-1' }] });
  await app.api.environments.setBaseUrl('production', production.baseUrl);
  await app.api.keys.set('production', 'prod-key-1');
  const { user } = renderApp(app);
  await findGrid();
  await user.click(screen.getByRole('radio', { name: /Production/ }));
  const id = firstOrderId(production, 'pending');
  const grid = await findGrid('Production');

  await user.click(within(rowOf(grid, id)).getByRole('button', { name: `Cancel order ${id}` }));

  const dialog = screen.getByRole('dialog', { name: `Cancel order ${id}?` });
  expect(within(dialog).getByText('PRODUCTION — live orders')).toBeTruthy();
  expect(dialog.textContent).toContain('Production (live)');
  expect(dialog.textContent).toContain('a real customer order');
  expect(dialog.className).toContain('dialog-danger');

  await user.click(within(dialog).getByRole('button', { name: `Cancel order ${id}` }));
  await waitFor(() =>
    expect(screen.getByRole('status', { name: 'Cancel outcome' }).textContent).toBe(
      `Production: Order ${id} was cancelled. It leaves the list at the next refresh.`,
    ),
  );
  expect(production.orderStatus(id)).toBe('cancelled');
  expect(app.sandbox.orderStatus(id)).not.toBe('cancelled');
});

test('a 401 offers the way to that environment’s settings', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox({ keys: [{ plan: 'free', key: 'the-right-key' }] });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  await app.api.keys.set('staging', 'a-wrong-key');
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));

  // The automatic refresh on opening the environment is refused: one alert says so, the code behind Details.
  const alert = await screen.findByRole('alert');
  expect(screen.getAllByRole('alert')).toHaveLength(1);
  expect(within(alert).getByText(/did not accept the Staging API key/)).toBeTruthy();
  expect(alert.querySelector('details')?.textContent).toContain('HTTP 401');
  expect(screen.queryByRole('grid')).toBeNull();
  expect(text(document.querySelector('.refresh-line'))).toBe('Automatic refresh paused.');
  // No plan is read from the refused answer's headers.
  expect(text(screen.getByRole('region', { name: 'Quota' }))).toContain(
    'Quota unknown: the key was refused',
  );
  await user.click(within(alert).getByRole('button', { name: 'Open Staging settings' }));

  const heading = await screen.findByRole('heading', { name: 'Staging settings' });
  expect(document.activeElement).toBe(heading);
  expect(screen.getByLabelText('API key')).toBeTruthy();
});

test('no key yet: a setup prompt, not an error, with one way to Settings; nothing is asked of the service', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox();
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));

  // Said where the orders would be; the notice area leaves it to this screen (said once).
  const prompt = (await screen.findByText('Staging is not set up yet.')).closest<HTMLElement>(
    '.orders-placeholder',
  )!;
  expect(prompt.getAttribute('role')).toBe('status');
  expect(text(prompt)).toBe(
    'Staging is not set up yet. Enter its API key in Settings to work with its orders.Set up Staging',
  );
  expect(within(prompt).getAllByRole('button')).toHaveLength(1);
  expect(document.querySelector('[data-notice="set-up"]')).toBeNull();
  expect(screen.queryByRole('alert')).toBeNull();
  expect(staging.requestLog).toHaveLength(0);
  // Nothing ran, so nothing is said to be paused.
  expect(text(document.querySelector('.refresh-line'))).toBe('');
  expect(screen.getByRole('button', { name: 'Refresh' }).getAttribute('aria-disabled')).toBe(
    'true',
  );

  // Its Settings are where it is done: the prompt is not said there a second time.
  await user.click(within(prompt).getByRole('button', { name: 'Set up Staging' }));
  await screen.findByRole('heading', { name: 'Staging settings' });
  expect(document.querySelector('[data-notice="set-up"]')).toBeNull();
});

test('an unreachable service shows a banner with the reason', async () => {
  const app = await startTestApp();
  const gone = await startExtraSandbox();
  await gone.close();
  await app.api.environments.setBaseUrl('staging', gone.baseUrl);
  await app.api.keys.set('staging', 'some-key');
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));

  const banner = await screen.findByText('Staging cannot be reached.');
  const alert = banner.closest<HTMLElement>('[role="alert"]')!;
  expect(screen.getAllByRole('alert')).toEqual([alert]);
  // The reason in the service's terms is behind Details; the action is Retry.
  expect(alert.querySelector('details')?.textContent).toContain('the connection was refused');
  // While the refresh is still trying, the button says so; then it offers Retry.
  await waitFor(() => expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy());
  expect(text(document.querySelector('.refresh-line'))).toBe('Automatic refresh paused.');
});

test('pointing an environment at another service drops the old service’s list', async () => {
  // The clerk lets the key go to the new address when main asks.
  const app = await startTestApp({ confirmKeyForOrigin: async () => true });
  const first = await startExtraSandbox({
    keys: [{ plan: 'pro', key: 'staging-key' }],
    orders: 30,
    seed: 1,
  });
  const second = await startExtraSandbox({
    keys: [{ plan: 'pro', key: 'staging-key' }],
    orders: 20,
    seed: 2,
  });
  await app.api.environments.setBaseUrl('staging', first.baseUrl);
  await app.api.keys.set('staging', 'staging-key');
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));
  expect((await findGrid('Staging')).getAttribute('aria-rowcount')).toBe('31');

  await user.click(screen.getByRole('button', { name: 'Settings' }));
  const field = await screen.findByLabelText('Address');
  await user.clear(field);
  await user.type(field, second.baseUrl);
  await user.click(screen.getByRole('button', { name: 'Save address' }));
  await screen.findByText('Saved.');
  await user.click(screen.getByRole('button', { name: 'Confirm the new address…' }));
  await screen.findByText('Confirmed. The key is now used for this address.');
  await user.click(screen.getByRole('button', { name: 'Orders' }));

  const grid = await findGrid('Staging');
  await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('21'));
  expect(second.requestLog.filter((request) => request.method === 'GET')).toHaveLength(1);
});
