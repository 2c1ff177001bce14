// Working through the whole list on the real app: search by order and pet
// id, sorting by every column (ids above 2^53 included), filters, keyboard
// navigation with the details panel, and exporting the view as CSV.

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { compareIntegerText, type Order } from '../../../../src/shared/order.ts';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import type { TestApp } from '../../support/test-app-shapes.ts';
import {
  bodyRows,
  captureDownloads,
  findGrid,
  openFilters,
  rowOf,
  shownIds,
  text,
  type User,
} from './orders-test-kit.tsx';

/** The list the app shows, as main saved it: the ground truth to compare the screen with. */
async function savedOrders(app: TestApp): Promise<Order[]> {
  const { result, orders } = await app.readList('orders:cached', 'sandbox');
  if (!result.ok || orders.length === 0) throw new Error('no saved list');
  return orders;
}

function viewCount(): string {
  return text(screen.getByText(/^Showing [\d,]+ of [\d,]+ orders/));
}

async function search(user: User, value: string) {
  const box = screen.getByRole('searchbox', { name: 'Search by order or pet ID' });
  await user.clear(box);
  if (value) await user.type(box, value);
}

function cells(row: HTMLElement) {
  // The first cell is the bulk-cancel tick box.
  const [, petId, quantity, shipDate, complete] = within(row).getAllByRole('gridcell');
  return {
    id: within(row).getByRole('rowheader').textContent ?? '',
    petId: petId!.textContent ?? '',
    quantity: quantity!.textContent ?? '',
    shipDate: shipDate!.querySelector('time')?.getAttribute('dateTime') ?? '',
    complete: complete!.textContent ?? '',
  };
}

test('search finds orders by order id and by pet id as you type', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const grid = await findGrid();
  const orders = await savedOrders(app);

  // Anywhere in either id (the default).
  await search(user, '12');
  const anyCount = orders.filter((o) => o.id!.includes('12') || o.petId!.includes('12')).length;
  await waitFor(() => expect(viewCount()).toBe(`Showing ${anyCount} of 1,000 orders`));
  for (const row of bodyRows(grid)) {
    const { id, petId } = cells(row);
    expect(id.includes('12') || petId.includes('12')).toBe(true);
  }

  // The start of the order id only.
  await openFilters(user);
  await user.selectOptions(screen.getByRole('combobox', { name: 'Look in' }), 'Order ID only');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Match' }), 'Start of the ID');
  const startsCount = orders.filter((o) => o.id!.startsWith('12')).length;
  await waitFor(() => expect(viewCount()).toBe(`Showing ${startsCount} of 1,000 orders`));
  expect(shownIds(grid)).toEqual(orders.filter((o) => o.id!.startsWith('12')).map((o) => o.id));

  // A pet id, anywhere in the pet id only.
  const petId = orders[7]!.petId!;
  await openFilters(user);
  await user.selectOptions(screen.getByRole('combobox', { name: 'Look in' }), 'Pet ID only');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Match' }), 'Anywhere in the ID');
  await search(user, petId);
  const petMatches = orders.filter((o) => o.petId!.includes(petId));
  await waitFor(() => expect(viewCount()).toBe(`Showing ${petMatches.length} of 1,000 orders`));
  expect(shownIds(grid)).toEqual(petMatches.map((o) => o.id));

  // Not a number: said plainly, nothing matches.
  await search(user, '12a');
  expect(screen.getByText('IDs are whole numbers: use digits only.')).toBeTruthy();
  await waitFor(() => expect(viewCount()).toBe('Showing 0 of 1,000 orders'));
  // The grid says so where the rows would be, with the way back.
  expect(text(document.querySelector('.orders-grid-empty p'))).toBe(
    'No orders match “12a” with the filters set.',
  );
  await user.click(screen.getByRole('button', { name: 'Clear search and filters' }));
  await waitFor(() => expect(viewCount()).toBe('Showing 1,000 of 1,000 orders'));
});

test('sorts by every column, both ways, with ids above 2^53 in exact order', async () => {
  const app = await startTestApp({ sandbox: { bigIds: true, orders: 300 } });
  const { user } = renderApp(app);
  const grid = await findGrid();
  const orders = await savedOrders(app);
  expect(Number.isSafeInteger(Number(orders[0]!.id))).toBe(false);
  expect(shownIds(grid)[0]).toBe(orders[0]!.id);

  const keys: Record<string, (o: Order) => number | string> = {
    'Order ID': (o) => o.id!,
    'Pet ID': (o) => o.petId!,
    Quantity: (o) => o.quantity!,
    'Ship date': (o) => Date.parse(o.shipDate!),
    Complete: (o) => Number(o.complete),
  };
  const compare = (a: number | string, b: number | string) =>
    typeof a === 'string' ? compareIntegerText(a, b as string) : a - (b as number);

  for (const [column, key] of Object.entries(keys)) {
    const header = within(grid)
      .getByRole('button', { name: column })
      .closest('[role="columnheader"]')!;
    // Stable both ways: ties keep the order the service sent.
    const ascending = [...orders].sort((a, b) => compare(key(a), key(b))).map((o) => o.id);
    const descending = [...orders].sort((a, b) => compare(key(b), key(a))).map((o) => o.id);

    await user.click(within(grid).getByRole('button', { name: column }));
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    const shown = shownIds(grid);
    expect(shown).toEqual(ascending.slice(0, shown.length));

    await user.click(within(grid).getByRole('button', { name: column }));
    expect(header.getAttribute('aria-sort')).toBe('descending');
    expect(shownIds(grid)).toEqual(descending.slice(0, shown.length));
    // Only the sorted column says so.
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .filter((cell) => cell.hasAttribute('aria-sort')),
    ).toHaveLength(1);
  }

  // A third click goes back to the order the service sent.
  await user.click(within(grid).getByRole('button', { name: 'Complete' }));
  expect(
    within(grid)
      .getAllByRole('columnheader')
      .some((cell) => cell.hasAttribute('aria-sort')),
  ).toBe(false);
  expect(shownIds(grid)[0]).toBe(orders[0]!.id);
});

test('filters by complete and by a range of ship dates (local days, both ends included)', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const grid = await findGrid();
  const orders = await savedOrders(app);

  await openFilters(user);
  expect(text(screen.getByRole('button', { name: /^Filters/ }))).toBe('Filters');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Complete' }), 'Complete');
  // The button counts the filters in use.
  expect(screen.getByRole('button', { name: 'Filters, 1 in use' })).toBeTruthy();
  const complete = orders.filter((o) => o.complete === true);
  await waitFor(() => expect(viewCount()).toBe(`Showing ${complete.length} of 1,000 orders`));
  expect(bodyRows(grid).every((row) => cells(row).complete === 'Yes')).toBe(true);

  await user.selectOptions(screen.getByRole('combobox', { name: 'Complete' }), 'Not complete');
  const notComplete = orders.filter((o) => o.complete === false);
  await waitFor(() => expect(viewCount()).toBe(`Showing ${notComplete.length} of 1,000 orders`));
  expect(bodyRows(grid).every((row) => cells(row).complete === 'No')).toBe(true);

  // Ten local days starting with the first order's ship day.
  const first = new Date(Date.parse(orders[0]!.shipDate!));
  const from = new Date(first.getFullYear(), first.getMonth(), first.getDate());
  const to = new Date(from.getFullYear(), from.getMonth(), from.getDate() + 9);
  const day = (d: Date) =>
    `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  const end = new Date(to.getFullYear(), to.getMonth(), to.getDate() + 1).getTime();
  fireEvent.change(screen.getByLabelText('From'), { target: { value: day(from) } });
  fireEvent.change(screen.getByLabelText('To'), { target: { value: day(to) } });
  const inRange = notComplete.filter((o) => {
    const time = Date.parse(o.shipDate!);
    return time >= from.getTime() && time < end;
  });
  expect(inRange.length).toBeGreaterThan(0);
  await waitFor(() => expect(viewCount()).toBe(`Showing ${inRange.length} of 1,000 orders`));
  expect(shownIds(grid)).toEqual(inRange.slice(0, shownIds(grid).length).map((o) => o.id));

  // The wrong way round: said, and nothing matches.
  fireEvent.change(screen.getByLabelText('To'), {
    target: { value: day(new Date(from.getTime() - 86_400_000)) },
  });
  expect(
    screen.getByText('The “to” day is before the “from” day, so no order matches.'),
  ).toBeTruthy();
  await waitFor(() => expect(viewCount()).toBe('Showing 0 of 1,000 orders'));

  // Clear is in the filters and in the empty grid; the one in the filters here.
  await user.click(
    within(screen.getByRole('group', { name: 'Filters' })).getByRole('button', {
      name: 'Clear search and filters',
    }),
  );
  await waitFor(() => expect(viewCount()).toBe('Showing 1,000 of 1,000 orders'));
  expect(screen.getByLabelText<HTMLInputElement>('From').value).toBe('');
});

test('the keyboard moves through the list, keeps the selection in the page, and opens the details', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const grid = await findGrid();
  const ids = app.sandbox.orderIds();

  // One tab stop in the grid: the first row until one is selected.
  const tabStops = bodyRows(grid).filter((row) => row.tabIndex === 0);
  expect(tabStops).toHaveLength(1);
  act(() => tabStops[0]!.focus());
  expect(tabStops[0]!.getAttribute('aria-selected')).toBe('true');
  // The grid keeps the window's width until the details are asked for.
  expect(screen.queryByRole('complementary')).toBeNull();

  const focusedRow = () => {
    const row = document.activeElement as HTMLElement;
    expect(row.getAttribute('role')).toBe('row');
    expect(row.getAttribute('aria-selected')).toBe('true');
    return {
      index: Number(row.getAttribute('aria-rowindex')),
      id: within(row).getByRole('rowheader').textContent,
    };
  };

  await user.keyboard('{ArrowDown}');
  expect(focusedRow()).toEqual({ index: 3, id: ids[1] });
  await user.keyboard('{PageDown}');
  const page = focusedRow().index - 3;
  expect(page).toBeGreaterThan(5);
  expect(focusedRow().id).toBe(ids[1 + page]);
  await user.keyboard('{PageUp}{ArrowUp}');
  expect(focusedRow()).toEqual({ index: 2, id: ids[0] });
  await user.keyboard('{ArrowUp}');
  expect(focusedRow()).toEqual({ index: 2, id: ids[0] });

  // End: the last of 1,000 orders is rendered, selected and focused.
  await user.keyboard('{End}');
  expect(focusedRow()).toEqual({ index: 1001, id: ids[999] });
  await user.keyboard('{Home}');
  expect(focusedRow()).toEqual({ index: 2, id: ids[0] });

  // Enter opens the details (the focus moves there); Escape comes back.
  await user.keyboard('{ArrowDown}{Enter}');
  const heading = screen.getByRole('heading', { name: `Order ${ids[1]}` });
  expect(document.activeElement).toBe(heading);
  const details = screen.getByRole('complementary', { name: `Order ${ids[1]}` });
  expect(within(details).getByText('Pet ID')).toBeTruthy();
  expect(within(details).getByRole('checkbox', { name: 'Reviewed' })).toBeTruthy();
  await user.keyboard('{Escape}');
  expect(focusedRow()).toEqual({ index: 3, id: ids[1] });
  // Open, the details follow the selection.
  await user.keyboard('{End}');
  expect(screen.getByRole('heading', { name: `Order ${ids[999]}` })).toBeTruthy();
  await user.keyboard('{Home}{ArrowDown}');

  // Delete asks to cancel the selected order.
  await user.keyboard('{Delete}');
  expect(screen.getByRole('dialog', { name: `Cancel order ${ids[1]}?` })).toBeTruthy();
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).toBeNull();

  // A click selects too; the details follow.
  await user.click(rowOf(grid, ids[4]!));
  expect(screen.getByRole('heading', { name: `Order ${ids[4]}` })).toBeTruthy();
});

test('exports the view as CSV: the filtered rows in their sorted order, ids as exact text', async () => {
  const app = await startTestApp({ sandbox: { bigIds: true, orders: 200 } });
  const { user } = renderApp(app);
  const grid = await findGrid();
  const orders = await savedOrders(app);
  await openFilters(user);
  await user.selectOptions(screen.getByRole('combobox', { name: 'Complete' }), 'Complete');
  await user.click(within(grid).getByRole('button', { name: 'Pet ID' }));
  await user.click(within(grid).getByRole('button', { name: 'Pet ID' }));
  const expected = orders
    .filter((o) => o.complete === true)
    .sort((a, b) => compareIntegerText(b.petId!, a.petId!));
  await waitFor(() => expect(viewCount()).toBe(`Showing ${expected.length} of 200 orders`));

  const downloads = await captureDownloads();
  await user.click(screen.getByRole('button', { name: 'Export CSV' }));

  expect(downloads).toHaveLength(1);
  expect(downloads[0]!.name).toMatch(/^orders-sandbox-\d{4}-\d\d-\d\d-\d{4}\.csv$/);
  expect(
    screen.getByText(`Exported ${expected.length} orders to ${downloads[0]!.name}.`),
  ).toBeTruthy();
  const csv = await downloads[0]!.text;
  const lines = csv.split('\r\n');
  expect(lines[0]).toBe('\uFEFFOrder ID,Pet ID,Quantity,Ship date,Complete,Reviewed,Note,Status');
  expect(lines.slice(1, -1)).toEqual(
    expected.map((o) => `"=""${o.id}""","=""${o.petId}""",${o.quantity},${o.shipDate},yes,no,,`),
  );
  expect(lines.at(-1)).toBe('');
});
