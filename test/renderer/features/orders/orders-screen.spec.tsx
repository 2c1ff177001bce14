// The orders screen on the real app: refresh, progress, cancel and its
// outcomes, and the way to Settings when the key is the problem.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startExtraSandbox, startTestApp } from '../../support/test-app.tsx';
import type { TestApp, TestOrderStatus } from '../../support/test-app-shapes.ts';

function firstOrderId(app: TestApp, status: TestOrderStatus): string {
  const id = app.sandbox.orderIds({ status, limit: 1 })[0];
  if (id === undefined) throw new Error(`the sandbox has no ${status} order`);
  return id;
}

async function refreshed(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Refresh' }));
  return screen.findByRole('table');
}

test('refresh shows the first 200 orders, the count and the time of the refresh', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  expect(await screen.findByText(/No orders loaded for Sandbox yet/)).toBeTruthy();

  const table = await refreshed(user);

  const rows = within(table).getAllByRole('row');
  expect(rows).toHaveLength(201); // the header row and 200 orders
  const ids = app.sandbox.orderIds();
  expect(ids).toHaveLength(1000);
  expect(within(rows[1]!).getByRole('rowheader').textContent).toBe(ids[0]);
  expect(within(rows[200]!).getByRole('rowheader').textContent).toBe(ids[199]);
  expect(screen.getByText('Showing 200 of 1,000 orders.')).toBeTruthy();
  expect(screen.getByText(/^1,000 orders, last refreshed at \d\d:\d\d:\d\d\.$/)).toBeTruthy();
  expect(screen.getByRole('status', { name: 'Order list status' }).textContent).toMatch(
    /^Refreshed: 1,000 Sandbox orders at \d\d:\d\d:\d\d\.$/,
  );
  // Column headers, and the ship date in local time with the ISO value as its title.
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent),
  ).toEqual(['Order ID', 'Pet ID', 'Quantity', 'Ship date', 'Complete', 'Action']);
  const time = rows[1]!.querySelector('time');
  expect(time?.getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(time?.textContent).not.toBe(time?.getAttribute('title'));
});

test('shows the download in progress with a labelled progress bar', async () => {
  // Every answer waits 400 ms, so the download is seen in progress.
  const app = await startTestApp({ sandbox: { faults: 'latency=400@1' } });
  const { user } = renderApp(app);

  await user.click(await screen.findByRole('button', { name: 'Refresh' }));

  const progress = await screen.findByRole('progressbar', { name: 'Downloading orders' });
  expect(progress.getAttribute('aria-valuetext')).toMatch(/received|of/);
  expect(screen.getByRole('status', { name: 'Order list status' }).textContent).toBe(
    'Downloading the Sandbox orders…',
  );
  expect(await screen.findByRole('table')).toBeTruthy();
  expect(screen.queryByRole('progressbar')).toBeNull();
  expect(
    app.received.some((entry) => (entry as { event?: string }).event === 'orders:progress'),
  ).toBe(true);
});

test('cancelling a pending order: the dialog names order and environment, then the outcome says cancelled', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const id = firstOrderId(app, 'pending');
  await refreshed(user);

  await user.click(screen.getByRole('button', { name: `Cancel order ${id}` }));

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
  await waitFor(() => expect(outcome.textContent).toBe(`Sandbox: Order ${id} was cancelled.`));
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(app.sandbox.orderStatus(id)).toBe('cancelled');
  // The row says so and offers no second cancel; the focus went to the outcome.
  const row = screen.getByRole('rowheader', { name: id }).closest('tr')!;
  expect(within(row).getByText('Cancelled')).toBeTruthy();
  expect(within(row).queryByRole('button')).toBeNull();
  expect(document.activeElement).toBe(outcome);
});

test('keeping the order (Escape) sends nothing and gives the focus back to its Cancel button', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const id = firstOrderId(app, 'pending');
  await refreshed(user);
  const cancel = screen.getByRole('button', { name: `Cancel order ${id}` });

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
  const id = firstOrderId(app, 'pending');
  await refreshed(user);
  await user.click(screen.getByRole('button', { name: `Cancel order ${id}` }));
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

test('cancelling a shipped order says it has already shipped, and the row is not marked cancelled', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const id = firstOrderId(app, 'shipped');
  await refreshed(user);

  await user.click(screen.getByRole('button', { name: `Cancel order ${id}` }));
  await user.click(
    within(screen.getByRole('dialog')).getByRole('button', { name: `Cancel order ${id}` }),
  );

  const outcome = screen.getByRole('status', { name: 'Cancel outcome' });
  await waitFor(() =>
    expect(outcome.textContent).toContain(
      `Order ${id} has already shipped and cannot be cancelled.`,
    ),
  );
  expect(outcome.textContent).not.toContain('was cancelled');
  expect(app.sandbox.orderStatus(id)).toBe('shipped');
  const row = screen.getByRole('rowheader', { name: id }).closest('tr')!;
  expect(within(row).queryByText('Cancelled')).toBeNull();
  expect(within(row).getByRole('button', { name: `Cancel order ${id}` })).toBeTruthy();
});

test('in production the dialog stands out: the environment is named in words', async () => {
  const app = await startTestApp();
  const production = await startExtraSandbox({ keys: [{ plan: 'business', key: 'prod-key-1' }] });
  await app.api.environments.setBaseUrl('production', production.baseUrl);
  await app.api.keys.set('production', 'prod-key-1');
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: /Production/ }));
  const id = production.orderIds({ status: 'pending', limit: 1 })[0]!;
  await refreshed(user);

  await user.click(screen.getByRole('button', { name: `Cancel order ${id}` }));

  const dialog = screen.getByRole('dialog', { name: `Cancel order ${id}?` });
  expect(within(dialog).getByText('PRODUCTION — live orders')).toBeTruthy();
  expect(dialog.textContent).toContain('Production (live)');
  expect(dialog.textContent).toContain('a real customer order');
  expect(dialog.className).toContain('dialog-danger');

  await user.click(within(dialog).getByRole('button', { name: `Cancel order ${id}` }));
  await waitFor(() =>
    expect(screen.getByRole('status', { name: 'Cancel outcome' }).textContent).toBe(
      `Production: Order ${id} was cancelled.`,
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

  await user.click(screen.getByRole('button', { name: 'Refresh' }));

  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('was not accepted (401)');
  expect(screen.queryByRole('table')).toBeNull();
  await user.click(within(alert).getByRole('button', { name: 'Open Staging settings' }));

  const heading = await screen.findByRole('heading', { name: 'Staging settings' });
  expect(document.activeElement).toBe(heading);
  expect(screen.getByLabelText('Staging API key')).toBeTruthy();
});

test('no key yet: the failure says so and offers the settings', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox();
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));

  await user.click(screen.getByRole('button', { name: 'Refresh' }));

  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('No API key is set for Staging');
  expect(within(alert).getByRole('button', { name: 'Open Staging settings' })).toBeTruthy();
  expect(staging.requestLog).toHaveLength(0);
});

test('an unreachable service shows a banner with the reason', async () => {
  const app = await startTestApp();
  const gone = await startExtraSandbox();
  await gone.close();
  await app.api.environments.setBaseUrl('staging', gone.baseUrl);
  await app.api.keys.set('staging', 'some-key');
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));

  await user.click(screen.getByRole('button', { name: 'Refresh' }));

  const banner = await screen.findByText('Staging cannot be reached.');
  expect(banner.closest('[role="alert"]')?.textContent).toContain('the connection was refused');
});
