// What a stopped bulk cancel left is found like any outcome: "Not sent" is a
// button that shows those orders in the list, with "Cancel the N not sent…"
// beside it; an order whose cancel was sent and whose answer was lost is not
// among them ("May be cancelled", shown apart), since cancelling it again is
// not what "not sent" promises.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { findGrid, rowOf, shownIds, text } from '../orders/orders-test-kit.tsx';

/** Each count of an ended job's strip by its label, as a number. */
function counts(strip: HTMLElement): Record<string, number> {
  return Object.fromEntries(
    [...strip.querySelectorAll('.bulk-count')].map((node) => [
      node.querySelector('.bulk-count-label')!.textContent,
      Number(node.querySelector('strong')!.textContent.replace(/,/g, '')),
    ]),
  );
}

test('after Stop: "Not sent" shows its orders and offers to cancel them; a lost answer is "May be cancelled", not "Not sent"', async () => {
  const app = await startTestApp({ sandbox: { orders: 60 } });
  const { user } = renderApp(app);
  const grid = await findGrid();

  // Every cancel is done and its answer cut: the job meets lost answers until it is stopped.
  app.sandbox.setFaults('reset@1');
  await user.click(within(grid).getByRole('checkbox', { name: 'Select all shown' }));
  await user.click(screen.getByRole('button', { name: 'Cancel ticked orders…' }));
  const dialog = await screen.findByRole('dialog', { name: /^Cancel \d+ orders\?$/ });
  const total = Number(/\d+/.exec(dialog.getAttribute('aria-label') ?? text(dialog))![0]);
  await user.click(within(dialog).getByRole('button', { name: /^Cancel \d+ orders$/ }));
  const strip = await screen.findByRole('region', { name: /^Bulk cancel/ });
  await waitFor(
    () => expect(app.sandbox.requestLog.some((entry) => entry.method === 'DELETE')).toBe(true),
    { timeout: 10_000 },
  );
  await user.click(within(strip).getByRole('button', { name: 'Stop' }));
  await within(strip).findByText('Stopped. Orders not sent yet were left as they are.', undefined, {
    timeout: 20_000,
  });

  // The cancels that left were done (reset@1 cuts the answer after the work): none is "not sent".
  // Every cancel that left met a cut answer (the service did the work): none of them is "not sent".
  const sent = new Set(
    app.sandbox.requestLog
      .filter((entry) => entry.method === 'DELETE')
      .map((entry) => entry.path.split('/').at(-1)!),
  );
  expect(sent.size).toBeGreaterThan(0);
  const shown = counts(strip);
  expect(shown['May be cancelled']).toBe(sent.size);
  const notSent = shown['Not sent']!;
  expect(notSent).toBe(total - sent.size);

  // "Not sent" is a button like the outcomes: it shows exactly those orders.
  await user.click(within(strip).getByRole('button', { name: `Not sent ${notSent}` }));
  await waitFor(() =>
    expect(shownIds(grid)).toHaveLength(Math.min(notSent, shownIds(grid).length)),
  );
  await waitFor(() =>
    expect(text(document.querySelector('.bulk-outcome-shown'))).toContain(
      `Bulk cancel’s “Not sent” orders (${notSent})`,
    ),
  );
  const listed = shownIds(grid);
  expect(listed.length).toBeGreaterThan(0);
  for (const id of listed) expect(sent.has(id)).toBe(false);

  // "May be cancelled" is the word of those orders' rows too, and the cancel log has each
  // cancel that left, once: a cancel sent whose answer never came may have cancelled it.
  await user.click(within(strip).getByRole('button', { name: `May be cancelled ${sent.size}` }));
  await waitFor(() => expect(new Set(shownIds(grid))).toEqual(sent));
  await waitFor(() => {
    for (const id of sent)
      expect(text(rowOf(grid, id).querySelector('.status-cell'))).toBe('May be cancelled');
  });
  const log = await app.api.cancelLog.list('sandbox');
  if (!log.ok) throw new Error(log.error.message);
  const logged = log.value.filter((entry) => sent.has(entry.orderId));
  expect(logged.map((entry) => entry.orderId).sort()).toEqual([...sent].sort());
  expect(logged.every((entry) => entry.delivery === 'unknown')).toBe(true);

  // And offers to cancel those not sent, with the usual confirmation.
  await user.click(within(strip).getByRole('button', { name: `Not sent ${notSent}` }));
  // Three lost answers in a row (a loaded machine sends that many before Stop) make the service
  // "cannot be reached", and cancelling waits for it, saying so; the clerk's refresh is answered.
  app.sandbox.setFaults(undefined);
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  const cancelNotSent = within(strip).getByRole('button', {
    name: `Cancel the ${notSent} not sent…`,
  });
  await waitFor(() => expect(cancelNotSent.getAttribute('title')).toBeNull());
  await user.click(cancelNotSent);
  const again = await screen.findByRole('dialog', { name: `Cancel ${notSent} orders?` });
  await user.click(within(again).getByRole('button', { name: `Cancel ${notSent} orders` }));
  const next = await screen.findByRole('region', { name: /^Bulk cancel/ });
  await within(next).findByText('Finished.', {}, { timeout: 20_000 });
  // The last answer's own event follows "Finished." (it is counted as on its way until then).
  await waitFor(() => {
    const { Cancelled: cancelled = 0, 'Already shipped': shipped = 0, ...rest } = counts(next);
    expect(cancelled + shipped).toBe(notSent);
    expect(rest).toEqual({});
  });
});

test('"Cancel the N not sent…" and "Retry failed…" wait, saying why, while no cancel can be sent (the service cannot be reached)', async () => {
  const app = await startTestApp({ sandbox: { orders: 60 } });
  const { user } = renderApp(app);
  const grid = await findGrid();
  // Every cancel fails (503), slowly: the job has failures and orders not sent when it is stopped.
  app.sandbox.setFaults('latency=200@1,5xx@1');
  await user.click(within(grid).getByRole('checkbox', { name: 'Select all shown' }));
  await user.click(screen.getByRole('button', { name: 'Cancel ticked orders…' }));
  const dialog = await screen.findByRole('dialog', { name: /^Cancel \d+ orders\?$/ });
  await user.click(within(dialog).getByRole('button', { name: /^Cancel \d+ orders$/ }));
  const strip = await screen.findByRole('region', { name: /^Bulk cancel/ });
  await waitFor(() => expect(text(strip.querySelector('.bulk-failed dd'))).not.toBe('0'), {
    timeout: 20_000,
  });
  await user.click(within(strip).getByRole('button', { name: 'Stop' }));
  await within(strip).findByText('Stopped. Orders not sent yet were left as they are.', undefined, {
    timeout: 20_000,
  });
  const again = within(strip).getByRole('button', { name: /^Cancel the \d+ not sent…$/ });
  const retry = within(strip).getByRole('button', { name: 'Retry failed…' });
  for (const button of [again, retry]) expect(button.getAttribute('aria-disabled')).toBeNull();

  // The service goes away, and the window learns it from a refresh.
  await app.sandbox.close();
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await waitFor(() => expect(document.querySelector('[data-notice="unreachable"]')).not.toBeNull());
  for (const button of [again, retry]) {
    await waitFor(() => expect(button.getAttribute('aria-disabled')).toBe('true'));
    expect(button.getAttribute('title')).toBe('Cancelling waits: Sandbox cannot be reached.');
    await user.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
  }
});
