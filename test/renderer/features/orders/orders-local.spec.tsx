// What Store Admin keeps on this computer, on the real app and its data
// folder: review marks and notes (across a restart), the saved list for
// offline review (cancel off, the rest on), and the cancel log with its CSV.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { makeDataDir, renderApp, startTestApp } from '../../support/test-app.tsx';
import {
  captureDownloads,
  findGrid,
  firstOrderId,
  rowOf,
  showOrder,
  text,
} from './orders-test-kit.tsx';

test('a review mark and note are saved on this computer and are there after a restart', async () => {
  const dataDir = await makeDataDir();
  const first = await startTestApp({ dataDir });
  const view = renderApp(first);
  const { user } = view;
  const grid = await findGrid();
  const id = first.sandbox.orderIds()[3]!;
  await user.click(rowOf(grid, id));

  const form = screen.getByRole('form', { name: 'Review mark' });
  expect(text(form)).toContain('Only on this computer — not sent to the store service.');
  await user.click(within(form).getByRole('checkbox', { name: 'Reviewed' }));
  const note = 'Customer called, "urgent", ship, please';
  await user.type(within(form).getByRole('textbox', { name: 'Note' }), note);
  expect(within(form).getByText(`${note.length} of 500 characters`)).toBeTruthy();
  await user.click(within(form).getByRole('button', { name: 'Save review mark' }));

  await waitFor(() =>
    expect(within(form).getByRole('status').textContent).toMatch(/^Saved on this computer at /),
  );
  // The marks in the row have their words (and a legend in the status bar); the note is its title.
  const row = rowOf(grid, id);
  expect(within(row).getByRole('img', { name: 'Reviewed' })).toBeTruthy();
  expect(within(row).getByRole('img', { name: 'Has a note' }).getAttribute('title')).toBe(note);
  expect(text(document.querySelector('.review-legend'))).toMatch(
    /^✓ reviewed · ✎ has a note · times in \S/,
  );
  // Nothing about it went to the service.
  expect(first.sandbox.requestLog.every((request) => request.method === 'GET')).toBe(true);

  // Survives a refresh.
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await waitFor(() =>
    expect(screen.getByRole('status', { name: 'Order list status' }).textContent).toMatch(
      /^Refreshed/,
    ),
  );
  expect(within(rowOf(grid, id)).getByRole('img', { name: 'Reviewed' })).toBeTruthy();

  // A new app on the same data folder (a restart): the mark and the note are back.
  view.unmount();
  const second = await startTestApp({ dataDir });
  const again = renderApp(second);
  const grid2 = await findGrid();
  const row2 = rowOf(grid2, id);
  expect(within(row2).getByRole('img', { name: 'Reviewed' })).toBeTruthy();
  await again.user.click(row2);
  const form2 = screen.getByRole('form', { name: 'Review mark' });
  expect(within(form2).getByRole<HTMLInputElement>('checkbox', { name: 'Reviewed' }).checked).toBe(
    true,
  );
  expect(within(form2).getByRole<HTMLTextAreaElement>('textbox', { name: 'Note' }).value).toBe(
    note,
  );

  // A note is at most 500 characters.
  const box = within(form2).getByRole<HTMLTextAreaElement>('textbox', { name: 'Note' });
  expect(box.maxLength).toBe(500);
});

test('offline start: the saved list shows at once with one alert saying how old it is; cancel is off, the rest works', async () => {
  const dataDir = await makeDataDir();
  const online = await startTestApp({ dataDir });
  const firstView = renderApp(online);
  await findGrid();
  const id = firstOrderId(online.sandbox, 'pending');
  firstView.unmount();

  // Next start: the service is gone.
  const offline = await startTestApp({ dataDir });
  await offline.sandbox.close();
  const { user } = renderApp(offline);
  const grid = await findGrid();
  expect(grid.getAttribute('aria-rowcount')).toBe('1001');

  const alert = await screen.findByRole('alert');
  expect(screen.getAllByRole('alert')).toHaveLength(1);
  expect(text(alert.querySelector('.notice-text'))).toMatch(
    /^Offline review\. Sandbox cannot be reached, so the list shown is the last one saved\. Search, filters, review marks and exports work; cancelling waits until the service answers\.$/,
  );
  expect(text(document.querySelector('.refresh-line'))).toMatch(
    /^Saved copy from \d\d:\d\d:\d\d \(just now\)\. Automatic refresh paused\.$/,
  );
  // The figures of the last answer are not shown as today's: no "plenty" while offline.
  const meter = screen.getByRole('region', { name: 'Quota' });
  expect(text(meter)).not.toContain('plenty');

  // Cancel is off; the buttons say why to assistive technology, the alert says it on screen.
  const row = rowOf(grid, id);
  const cancel = within(row).getByRole('button', { name: `Cancel order ${id}` });
  expect(cancel.getAttribute('aria-disabled')).toBe('true');
  const reason = document.getElementById(cancel.getAttribute('aria-describedby')!);
  expect(reason?.textContent).toBe('Cancelling waits: Sandbox cannot be reached.');
  await user.click(cancel);
  expect(screen.queryByRole('dialog')).toBeNull();
  await user.click(row);
  await user.keyboard('{Delete}');
  expect(screen.queryByRole('dialog')).toBeNull();
  const details = screen.getByRole('complementary', { name: `Order ${id}` });
  expect(
    within(details)
      .getByRole('button', { name: `Cancel order ${id}…` })
      .getAttribute('aria-disabled'),
  ).toBe('true');

  // Search and review marks still work.
  await showOrder(user, grid, id);
  expect(screen.getByText(/^Showing [1-9]\d* of 1,000 orders$/)).toBeTruthy();
  const form = screen.getByRole('form', { name: 'Review mark' });
  await user.click(within(form).getByRole('checkbox', { name: 'Reviewed' }));
  await user.click(within(form).getByRole('button', { name: 'Save review mark' }));
  await waitFor(() =>
    expect(within(rowOf(grid, id)).getByRole('img', { name: 'Reviewed' })).toBeTruthy(),
  );
});

test('the cancel log, in a side panel, lists every cancel, newest first, and exports as CSV', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const grid = await findGrid();
  const pending = firstOrderId(app.sandbox, 'pending');
  const shipped = firstOrderId(app.sandbox, 'shipped');
  for (const id of [pending, shipped]) {
    await user.click(within(rowOf(grid, id)).getByRole('button', { name: `Cancel order ${id}` }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: `Cancel order ${id}` }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  }

  const toggle = await screen.findByRole('button', { name: /^Cancel log/ });
  expect(text(toggle)).toBe('Cancel log 2');
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  await user.click(toggle);
  expect(toggle.getAttribute('aria-expanded')).toBe('true');
  const panel = screen.getByRole('complementary', { name: 'Cancel log — Sandbox' });
  expect(document.activeElement).toBe(within(panel).getByRole('heading'));
  // The grid stays in view beside it.
  expect(screen.getByRole('grid', { name: 'Sandbox orders' })).toBeTruthy();
  const table = within(panel).getByRole('table', { name: 'Cancel log for Sandbox, newest first' });
  const rows = within(table).getAllByRole('row').slice(1);
  // The order, then its result with the time beside it (one cell, so a narrow panel wraps it).
  expect(rows.map((row) => within(row).getAllByRole('cell').length)).toEqual([1, 1]);
  expect(within(rows[0]!).getByRole('rowheader').textContent).toBe(shipped);
  expect(text(rows[0]!)).toContain('Already shipped');
  expect(within(rows[1]!).getByRole('rowheader').textContent).toBe(pending);
  expect(text(rows[1]!)).toContain('Cancelled');
  expect(rows[1]!.querySelector('time')!.textContent).toMatch(/^\d\d:\d\d:\d\d$/);

  const downloads = await captureDownloads();
  await user.click(screen.getByRole('button', { name: 'Export cancel log as CSV' }));
  expect(downloads).toHaveLength(1);
  expect(text(screen.getByRole('status', { name: 'Export' }))).toMatch(
    /^Exported 2 cancel log entries to cancel-log-sandbox-/,
  );
  expect(downloads[0]!.name).toMatch(/^cancel-log-sandbox-\d{4}-\d\d-\d\d-\d{4}\.csv$/);
  const lines = (await downloads[0]!.text).split('\r\n');
  expect(lines[0]).toBe('\uFEFFTime,Environment,Order ID,Result,Delivery,Message');
  expect(lines[1]).toMatch(
    new RegExp(
      `^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z,sandbox,"=""${pending}""",cancelled,,Order ${pending} was cancelled\\.$`,
    ),
  );
  expect(lines[2]).toMatch(
    new RegExp(`,sandbox,"=""${shipped}""",already shipped,,Order ${shipped} has already shipped`),
  );
  expect(lines).toHaveLength(4);
});

test('on start, a saved copy younger than the refresh interval is shown, not downloaded again; one check says the service answers', async () => {
  const dataDir = await makeDataDir();
  const first = await startTestApp({ dataDir });
  const firstView = renderApp(first);
  await findGrid();
  firstView.unmount();

  const second = await startTestApp({ dataDir });
  const { user } = renderApp(second);
  const grid = await findGrid();
  expect(grid.getAttribute('aria-rowcount')).toBe('1001');
  const connected = (entry: unknown) =>
    (entry as { value?: { message?: string } }).value?.message ===
    'Connected: the service accepted the key.';
  await waitFor(() => expect(second.received.some(connected)).toBe(true));
  // A download reports its progress; the check reads no list.
  const downloading = () =>
    second.received.some((entry) => (entry as { event?: string }).event === 'orders:progress');
  expect(downloading()).toBe(false);
  expect(second.sandbox.requestLog.map((request) => request.method)).toEqual(['GET']);
  // A saved copy is not a problem: the status bar says where the list is from; no alert.
  expect(screen.queryAllByRole('alert')).toHaveLength(0);
  expect(text(document.querySelector('.refresh-line'))).toMatch(
    // The next refresh, five minutes on, carries its day after midnight.
    /^Saved copy from \d\d:\d\d:\d\d \(just now\)\. Next automatic refresh at (\d+ \w+( \d{4})?, )?\d\d:\d\d:\d\d\.$/,
  );

  // Refresh is always there by hand.
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  await waitFor(() => expect(downloading()).toBe(true));
  await waitFor(() =>
    expect(text(document.querySelector('.refresh-line'))).toMatch(/^Refreshed at /),
  );
});
