// The gone orders' labels follow the cancel log as it changes: an order a
// bulk cancel sent without an answer, gone at the next refresh, reads "Not
// cancelled here" while the log knows nothing of it, and "Maybe cancelled
// here" once the job, resumed, has logged what became of it (a 404 after a
// lost answer), without a reload of the window. A cancel from here that met
// a 404 for an order the list held ("no longer exists … perhaps by this very
// cancel") reads "Maybe cancelled here" too, never "Not cancelled here".

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { findGrid, firstOrderId, openFilters, rowOf, text } from '../orders/orders-test-kit.tsx';

test('a gone order’s label follows the cancel log as a paused bulk cancel goes on and finishes', async () => {
  // The service holds requests while the test says so (a latency fault's wait is the test's).
  const held: (() => void)[] = [];
  let holding = false;
  const sleep = () =>
    holding ? new Promise<void>((release) => held.push(release)) : Promise.resolve();
  const app = await startTestApp({ sandbox: { orders: 40, sleep } });
  const { user } = renderApp(app);
  const grid = await findGrid();
  const id = firstOrderId(app.sandbox, 'pending');

  // The DELETE reaches the service, which cancels the order, and its answer is lost; the
  // client's next try waits at the service.
  app.sandbox.setFaults('latency=1@1,reset@1');
  await user.click(within(rowOf(grid, id)).getByRole('checkbox'));
  await user.click(screen.getByRole('button', { name: 'Cancel ticked orders…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Cancel 1 order?' });
  await user.click(within(dialog).getByRole('button', { name: 'Cancel 1 order' }));
  await waitFor(() => expect(app.sandbox.orderStatus(id)).toBe('cancelled'));
  holding = true;
  await waitFor(() => expect(held.length).toBe(1), { timeout: 10_000 });
  const strip = screen.getByRole('region', { name: /^Bulk cancel/ });
  await user.click(within(strip).getByRole('button', { name: 'Pause' }));

  // A refresh finds the order gone; the cancel log knows nothing of it yet.
  app.sandbox.setFaults(undefined);
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy());
  await openFilters(user);
  await user.selectOptions(screen.getByRole('combobox', { name: 'Changes' }), 'gone');
  const gone = await screen.findByRole('table', {
    name: 'Sandbox orders gone since the last refresh',
  });
  const label = () =>
    text(
      within(gone).getByRole('rowheader', { name: id }).closest('[role="row"]')!.lastElementChild,
    );
  await waitFor(() => expect(label()).toBe('Not cancelled here'));
  expect(await app.api.cancelLog.list('sandbox')).toEqual({ ok: true, value: [] });

  // The clerk resumes: the job goes on with the order it sent without an answer (the try that
  // waited at the service went with the pause), meets a 404 after a lost answer and logs it as
  // such. The label follows once the job has finished, the window as it is.
  holding = false;
  held.splice(0).forEach((release) => release());
  await user.click(within(strip).getByRole('button', { name: 'Resume' }));
  await waitFor(
    async () => {
      const log = await app.api.cancelLog.list('sandbox');
      expect(log.ok && log.value.map((entry) => [entry.orderId, entry.result])).toEqual([
        [id, 'gone'],
      ]);
    },
    { timeout: 15_000 },
  );
  await within(strip).findByText('Finished.');
  await waitFor(() => expect(label()).toBe('Maybe cancelled here'));
});

test('an order whose cancel met “no longer exists” reads “Maybe cancelled here” among the gone, as the cancel’s own words say', async () => {
  const app = await startTestApp({ sandbox: { orders: 40 } });
  const { user } = renderApp(app);
  const grid = await findGrid();
  const id = firstOrderId(app.sandbox, 'pending');
  // Gone since the list: by another computer, or by a first copy of this very DELETE that
  // something in between sent twice.
  app.sandbox.setOrderStatus(id, 'cancelled');
  await user.click(within(rowOf(grid, id)).getByRole('button', { name: `Cancel order ${id}` }));
  await user.click(
    within(screen.getByRole('dialog')).getByRole('button', { name: `Cancel order ${id}` }),
  );
  const outcome = screen.getByRole('status', { name: 'Cancel outcome' });
  await waitFor(() =>
    expect(outcome.textContent).toContain(
      'perhaps by this very cancel, if the network sent it twice',
    ),
  );

  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await openFilters(user);
  await user.selectOptions(screen.getByRole('combobox', { name: 'Changes' }), 'gone');
  const gone = await screen.findByRole('table', {
    name: 'Sandbox orders gone since the last refresh',
  });
  const chip = await waitFor(() => {
    const cell = within(gone)
      .getByRole('rowheader', { name: id })
      .closest('[role="row"]')!.lastElementChild!;
    expect(text(cell)).toBe('Maybe cancelled here');
    return cell.querySelector('.status-chip')!;
  });
  expect(chip.getAttribute('title')).toBe(
    'A cancel sent from this computer found it no longer there, though the list before held it: it may have been this one, if the network sent it twice',
  );
});
