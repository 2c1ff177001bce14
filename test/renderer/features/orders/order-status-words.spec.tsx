// An order's status in its details, in a clerk's words: an order the list
// shows not complete is "Not complete (a cancel says if it has shipped)" (it
// read "As in the list (the service sends no status)"); the list has no
// status field, so it claims no more (a shipped order may be not complete).

import { screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { findGrid, rowOf, showOrder, text } from './orders-test-kit.tsx';

/** The Status line of the open details. */
function statusIn(details: HTMLElement): string {
  const term = within(details).getByText('Status', { selector: 'dt' });
  return text(term.nextElementSibling);
}

test('the details say what the list knows of an order’s status, and how to learn more', async () => {
  const app = await startTestApp({ sandbox: { orders: 40 } });
  const { user } = renderApp(app);
  const grid = await findGrid();
  const id = app.sandbox.orderIds({ status: 'pending' })[0]!;
  await showOrder(user, grid, id);
  await user.click(within(rowOf(grid, id)).getByRole('rowheader'));
  const details = await screen.findByRole('complementary', { name: `Order ${id}` });
  expect(
    within(details).getByText('Complete', { selector: 'dt' }).nextElementSibling!.textContent,
  ).toBe('No');
  expect(statusIn(details)).toBe('Not complete (a cancel says if it has shipped)');
});
