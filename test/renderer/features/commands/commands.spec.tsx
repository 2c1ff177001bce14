// The window's commands on the real app: the keys a desktop clerk tries first
// (Ctrl+F and "/", F5 and Ctrl+R, Ctrl+1/2/3, Ctrl+K, Ctrl+/), the same
// commands from the application menu's event, the command palette, the
// shortcuts help, and the search field's own keys (Escape, Enter on a whole
// id). Nothing runs while a dialog is open.

import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import type { EventPayloads } from '../../../../src/shared/ipc-contract.ts';
import { App } from '../../../../src/renderer/src/App.tsx';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import type { TestApp } from '../../support/test-app-shapes.ts';
import { isTypingTarget } from '../../../../src/renderer/src/features/commands/shortcut-keys.ts';
import { findGrid, shownIds } from '../orders/orders-test-kit.tsx';

const search = () =>
  screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search by order or pet ID' });
const currentScreen = () =>
  screen.getByRole('navigation', { name: 'Screens' }).querySelector('[aria-current="page"]')
    ?.textContent;
const gets = (app: TestApp) =>
  app.sandbox.requestLog.filter((request) => request.method === 'GET').length;

/** The app with the menu's event under the test's hand. */
function renderWithMenu(app: TestApp) {
  const listeners = new Set<(payload: EventPayloads['app:command']) => void>();
  const api = {
    ...app.api,
    events: {
      ...app.api.events,
      onAppCommand: (listener: (payload: EventPayloads['app:command']) => void) => {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    },
  };
  window.storeAdmin = api;
  const user = userEvent.setup({ delay: null });
  render(<App api={api} orderStreams={app.orderStreams} />);
  const menu = (command: EventPayloads['app:command']['command']) => {
    for (const listener of listeners) listener({ command });
  };
  return { user, menu, listeners };
}

test('Ctrl+1/2/3 show the screens; Ctrl+F and "/" go to the search, from any screen', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  await findGrid();

  await user.keyboard('{Control>}2{/Control}');
  expect(currentScreen()).toBe('Domains');
  await user.keyboard('{Control>}3{/Control}');
  expect(currentScreen()).toBe('Settings');
  await user.keyboard('{Control>}1{/Control}');
  expect(currentScreen()).toBe('Orders');

  // From Settings, Ctrl+F opens the orders and puts the focus in the search, its text selected.
  await user.keyboard('{Control>}3{/Control}');
  await user.keyboard('{Control>}f{/Control}');
  await waitFor(() => expect(document.activeElement).toBe(search()));
  expect(currentScreen()).toBe('Orders');
  await user.keyboard('42');
  await user.keyboard('{Control>}f{/Control}');
  expect(search().selectionStart).toBe(0);
  expect(search().selectionEnd).toBe(2);

  // "/" from the list goes to the search; typed in a field, it is a "/".
  search().blur();
  await user.keyboard('/');
  expect(document.activeElement).toBe(search());
  expect(search().value).toBe('42');
  await user.keyboard('{Control>}3{/Control}');
  const address = await screen.findByRole('heading', { name: 'Sandbox settings' });
  expect(address).toBeTruthy();
});

test('F5 and Ctrl+R refresh the list; Escape clears the search', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const grid = await findGrid();
  const before = gets(app);

  await user.keyboard('{F5}');
  await waitFor(() => expect(gets(app)).toBe(before + 1));
  await waitFor(() =>
    expect(screen.getByRole('button', { name: 'Refresh' }).textContent).toBe('Refresh'),
  );
  await user.keyboard('{Control>}r{/Control}');
  await waitFor(() => expect(gets(app)).toBe(before + 2));

  await user.click(search());
  await user.keyboard('12');
  await waitFor(() => expect(Number(grid.getAttribute('aria-rowcount'))).toBeLessThan(1001));
  await user.keyboard('{Escape}');
  expect(search().value).toBe('');
  await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('1001'));
});

test('search puts the id typed in full first, and Enter on it opens its details', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const grid = await findGrid();
  // Sorted by order id, largest first, the ids that contain "12" (412, 312, 120…) come before 12 itself.
  const exact = '12';
  const sortById = within(grid).getByRole('button', { name: /^Order ID/ });
  await user.click(sortById);
  await user.click(sortById);
  await user.click(search());
  await user.keyboard(exact);
  await waitFor(() => expect(shownIds(grid)[0]).toBe(exact));
  expect(shownIds(grid).length).toBeGreaterThan(1);

  await user.keyboard('{Enter}');
  const heading = await screen.findByRole('heading', { name: `Order ${exact}` });
  await waitFor(() => expect(document.activeElement).toBe(heading));
});

test('the command palette goes to an order by id, switches environment, and runs the commands', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  await findGrid();
  const id = app.sandbox.orderIds()[500]!;

  await user.keyboard('{Control>}k{/Control}');
  const palette = await screen.findByRole('dialog', { name: 'Command palette' });
  const field = within(palette).getByRole('combobox', { name: 'Command or order ID' });
  expect(document.activeElement).toBe(field);
  // Every command is listed, with its key.
  const options = () =>
    within(screen.getByRole('dialog', { name: 'Command palette' }))
      .getAllByRole('option')
      .map((option) => option.textContent);
  expect(options()).toEqual(
    expect.arrayContaining([
      'OrdersCtrl+1',
      'Refresh the listCtrl+R',
      'Cancel log',
      'Switch to Staging',
    ]),
  );
  await user.keyboard(id);
  expect(options()[0]).toBe(`Go to order ${id}in the Sandbox list`);
  await user.keyboard('{Enter}');
  expect(screen.queryByRole('dialog', { name: 'Command palette' })).toBeNull();
  const heading = await screen.findByRole('heading', { name: `Order ${id}` });
  await waitFor(() => expect(document.activeElement).toBe(heading));
  expect(search().value).toBe(id);

  // An id the list does not have cannot be gone to: the palette says so and stays.
  await user.keyboard('{Control>}k{/Control}');
  await user.keyboard('9999999');
  const again = screen.getByRole('dialog', { name: 'Command palette' });
  const missing = within(again).getAllByRole('option')[0]!;
  expect(missing.textContent).toBe('Go to order 9999999not in the Sandbox list');
  expect(missing.getAttribute('aria-disabled')).toBe('true');
  await user.keyboard('{Enter}');
  expect(screen.getByRole('dialog', { name: 'Command palette' })).toBeTruthy();

  // Words find commands; the arrow keys choose among them.
  await user.keyboard('{Control>}a{/Control}stag');
  expect(options()).toEqual(['Switch to Staging']);
  await user.keyboard('{Enter}');
  expect(await screen.findByText('STAGING — test service')).toBeTruthy();

  await user.keyboard('{Control>}k{/Control}');
  await user.keyboard('log');
  await user.keyboard('{Enter}');
  expect(await screen.findByRole('heading', { name: 'Cancel log — Staging' })).toBeTruthy();
});

test('the shortcuts help lists the keys the menu shows; nothing runs while a dialog is open', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  await findGrid();

  await user.keyboard('{Control>}/{/Control}');
  const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
  const row = (name: string) =>
    within(help).getByRole('rowheader', { name }).closest('tr')!.textContent;
  expect(row('Find an order')).toBe('Find an orderCtrl+F or /');
  expect(row('Refresh the list')).toBe('Refresh the listCtrl+R or F5');
  expect(row('Command palette…')).toBe('Command palette…Ctrl+K');
  expect(row('Clear the search')).toBe('Clear the searchEscape');

  // With the help open, Ctrl+2 is not a screen change behind it.
  await user.keyboard('{Control>}2{/Control}');
  expect(currentScreen()).toBe('Orders');
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).toBeNull();
  await user.keyboard('{Control>}2{/Control}');
  expect(currentScreen()).toBe('Domains');
});

test("the application menu's commands run in the page, once, and not behind a dialog", async () => {
  const app = await startTestApp();
  const { user, menu } = renderWithMenu(app);
  await findGrid();
  const before = gets(app);

  menu('refresh');
  await waitFor(() => expect(gets(app)).toBe(before + 1));
  menu('show-settings');
  await waitFor(() => expect(currentScreen()).toBe('Settings'));
  // Find from another screen opens the orders, then the search takes the focus.
  menu('find');
  await waitFor(() => expect(document.activeElement).toBe(search()));
  menu('shortcuts-help');
  await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
  menu('show-domains');
  expect(currentScreen()).toBe('Orders');
  await user.keyboard('{Escape}');
  menu('command-palette');
  expect(await screen.findByRole('dialog', { name: 'Command palette' })).toBeTruthy();
});

test('a key the page has already used is not taken again', async () => {
  const app = await startTestApp();
  renderApp(app);
  await findGrid();
  const grid = screen.getByRole('grid', { name: 'Sandbox orders' });
  grid.addEventListener('keydown', (event) => event.preventDefault());
  fireEvent.keyDown(grid, { key: '2', code: 'Digit2', ctrlKey: true });
  expect(currentScreen()).toBe('Orders');
  fireEvent.keyDown(document.body, { key: '2', code: 'Digit2', ctrlKey: true });
  expect(currentScreen()).toBe('Domains');
});

test('leaves a plain key to the field that has the focus', () => {
  const field = document.createElement('input');
  const box = document.createElement('input');
  box.type = 'checkbox';
  expect(isTypingTarget(field)).toBe(true);
  expect(isTypingTarget(document.createElement('textarea'))).toBe(true);
  expect(isTypingTarget(box)).toBe(false);
  expect(isTypingTarget(document.createElement('button'))).toBe(false);
  expect(isTypingTarget(null)).toBe(false);
});
