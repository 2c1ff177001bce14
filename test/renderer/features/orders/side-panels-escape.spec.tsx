// Escape does the same in both side panels: the focus goes back to the list
// and the panel stays open (its Close closes it). In the order's details it
// went back to the list; in the cancel log it closed the log.

import { screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { findGrid, text } from './orders-test-kit.tsx';

test('Escape in the cancel log goes back to the list and leaves the log open, as in the order’s details', async () => {
  const app = await startTestApp({ sandbox: { orders: 30 } });
  const { user } = renderApp(app);
  const grid = await findGrid();

  // The order's details: Escape goes back to its row.
  const firstRow = within(grid).getAllByRole('row')[1]!;
  await user.click(within(firstRow).getByRole('rowheader'));
  await user.keyboard('{Enter}');
  const details = screen.getByRole('complementary', { name: /^Order / });
  await user.keyboard('{Escape}');
  expect(document.activeElement?.getAttribute('role')).toBe('row');
  expect(details.isConnected).toBe(true);

  // The cancel log: the same. Empty, it says so once (it also said "0 cancels sent…" above).
  await user.click(screen.getByRole('button', { name: /^Cancel log/ }));
  const log = screen.getByRole('complementary', { name: 'Cancel log — Sandbox' });
  expect(text(log)).toContain('No cancels have been sent to Sandbox from this computer.');
  expect(text(log)).not.toContain('0 cancels');
  expect(document.activeElement).toBe(within(log).getByRole('heading'));
  await user.keyboard('{Escape}');
  expect(document.activeElement?.getAttribute('role')).toBe('row');
  expect(screen.getByRole('complementary', { name: 'Cancel log — Sandbox' })).toBe(log);
  // Its Close closes it.
  await user.click(within(log).getByRole('button', { name: /^Close/ }));
  expect(screen.queryByRole('complementary', { name: 'Cancel log — Sandbox' })).toBeNull();
});
