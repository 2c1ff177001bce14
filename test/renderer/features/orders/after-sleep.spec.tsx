// After a sleep: the machine's timers slept (the automatic refresh's among
// them) while the wall clock went on. When the network comes back (the
// page's `online`) or main says the machine woke (`app:awake`), the list is
// refreshed at once if a refresh is due by the wall clock (whether one is
// due is auto-refresh.ts's, tested there).

import { screen, waitFor } from '@testing-library/react';
import { expect, onTestFinished, test, vi } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { findGrid } from './orders-test-kit.tsx';

test('the network back after a sleep refreshes the list at once when a refresh is due by the wall clock', async () => {
  // Only Date is the test's: timers run as usual, so the one set for the next refresh does not
  // fire when the wall clock jumps, as on a machine that slept.
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  onTestFinished(() => void vi.useRealTimers());
  const app = await startTestApp();
  renderApp(app);
  await findGrid();
  const lists = () =>
    app.sandbox.requestLog.filter((r) => r.method === 'GET' && r.path.endsWith('/store/orders'))
      .length;
  await waitFor(() => expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy());
  const before = lists();

  // Six minutes of sleep (the automatic refresh is every five): due, and fetched at once.
  vi.setSystemTime(Date.now() + 6 * 60_000);
  window.dispatchEvent(new Event('online'));
  await waitFor(() => expect(lists()).toBe(before + 1));
  await waitFor(() =>
    expect(screen.getByRole('status', { name: 'Order list status' }).textContent).toMatch(
      /^Refreshed: 1,000 Sandbox orders at /,
    ),
  );
});
