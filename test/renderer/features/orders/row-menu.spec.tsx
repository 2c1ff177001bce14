// An order's own menu in the grid: a right-click or the context-menu key
// (Shift+F10) on the focused row opens it; it copies the id or the row, opens
// the details, and offers Cancel only where the order can still be cancelled.
// Escape gives the focus back to the row.

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { findGrid, firstOrderId, rowOf, showOrder } from './orders-test-kit.tsx';

const items = (menu: HTMLElement) =>
  within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);

test('a right-click opens the order’s menu: copy its id, copy its row, open its details, cancel it', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const grid = await findGrid();
  const id = firstOrderId(app.sandbox, 'pending');
  const row = await showOrder(user, grid, id);

  fireEvent.contextMenu(within(row).getByRole('rowheader'), { clientX: 200, clientY: 300 });
  const menu = await screen.findByRole('menu', { name: `Order ${id}` });
  expect(items(menu)).toEqual(['Copy order ID', 'Copy row', 'Open details', `Cancel order ${id}…`]);
  // The row is selected, and the first item has the focus.
  expect(rowOf(grid, id).getAttribute('aria-selected')).toBe('true');
  expect(document.activeElement).toBe(
    within(menu).getByRole('menuitem', { name: 'Copy order ID' }),
  );

  await user.click(within(menu).getByRole('menuitem', { name: 'Copy order ID' }));
  expect(await navigator.clipboard.readText()).toBe(id);
  expect(await screen.findByText(`Copied order ID ${id}.`)).toBeTruthy();
  expect(screen.queryByRole('menu')).toBeNull();

  // Copy row: the fields, tab-separated, as a spreadsheet takes them.
  fireEvent.contextMenu(within(rowOf(grid, id)).getByRole('rowheader'));
  await user.click(await screen.findByRole('menuitem', { name: 'Copy row' }));
  const copied = (await navigator.clipboard.readText()).split('\t');
  expect(copied[0]).toBe(id);
  expect(copied).toHaveLength(5);
  expect(copied[4]).toMatch(/^(Yes|No|)$/);

  fireEvent.contextMenu(within(rowOf(grid, id)).getByRole('rowheader'));
  await user.click(await screen.findByRole('menuitem', { name: `Cancel order ${id}…` }));
  const dialog = await screen.findByRole('dialog', { name: `Cancel order ${id}?` });
  await user.click(within(dialog).getByRole('button', { name: `Cancel order ${id}` }));
  await waitFor(() => expect(app.sandbox.orderStatus(id)).toBe('cancelled'));

  // Cancelled: the menu has no Cancel any more.
  await waitFor(() => expect(rowOf(grid, id).className).toContain('row-cancelled'));
  fireEvent.contextMenu(within(rowOf(grid, id)).getByRole('rowheader'));
  const after = await screen.findByRole('menu', { name: `Order ${id}` });
  expect(items(after)).toEqual(['Copy order ID', 'Copy row', 'Open details']);
  await user.click(within(after).getByRole('menuitem', { name: 'Open details' }));
  expect(await screen.findByRole('heading', { name: `Order ${id}` })).toBeTruthy();
});

test('Shift+F10 or the menu key on the focused row opens it; the arrow keys move; Escape goes back to the row', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const grid = await findGrid();
  const first = within(grid).getAllByRole('row')[1]!;
  first.focus();
  await user.keyboard('{Shift>}{F10}{/Shift}');
  const menu = await screen.findByRole('menu');
  expect(document.activeElement?.textContent).toBe('Copy order ID');
  await user.keyboard('{ArrowDown}{ArrowDown}');
  expect(document.activeElement?.textContent).toBe('Open details');
  await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
  expect(document.activeElement?.textContent).toMatch(/^(Cancel order \d+…|Open details)$/);
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('menu')).toBeNull();
  expect(document.activeElement).toBe(within(grid).getAllByRole('row')[1]);
  expect(menu.isConnected).toBe(false);

  await user.keyboard('{ContextMenu}');
  expect(await screen.findByRole('menu')).toBeTruthy();
  // A click elsewhere closes it too.
  await user.click(screen.getByRole('searchbox', { name: 'Search by order or pet ID' }));
  expect(screen.queryByRole('menu')).toBeNull();
});

test('a complete order offers no cancel in its menu', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const grid = await findGrid();
  // The first complete order in the list.
  const complete = [...grid.querySelectorAll<HTMLElement>('[role="row"][aria-rowindex]')].find(
    (row) => row.textContent?.includes('Yes'),
  );
  if (!complete) throw new Error('no complete order in view');
  fireEvent.contextMenu(within(complete).getByRole('rowheader'));
  const menu = await screen.findByRole('menu');
  expect(items(menu)).toEqual(['Copy order ID', 'Copy row', 'Open details']);
  await user.keyboard('{Escape}');
});
