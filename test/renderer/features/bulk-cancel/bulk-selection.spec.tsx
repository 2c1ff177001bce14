// Ticking orders in the grid for a bulk cancel, on the real app: one by one,
// a Shift range, "select all shown" under a search, then the cancel to the
// end, after which each row shows what happened to it. The bulk-cancel
// actions are in the toolbar only while orders are ticked.

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RowSelection } from '../../../../src/renderer/src/features/bulk-cancel/row-selection.ts';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { bodyRows, findGrid, openFilters, shownIds, text } from '../orders/orders-test-kit.tsx';

const tick = (grid: HTMLElement, id: string) =>
  within(grid).getByRole('checkbox', { name: `Select order ${id}` });

/** The toolbar's ticked-orders group, when there is one. */
const tickedActions = () => screen.queryByRole('group', { name: 'Ticked orders' });

describe('RowSelection', () => {
  it('toggles, ranges from the anchor in view order, and selects all shown', () => {
    const view = Uint32Array.from([5, 3, 9, 1, 7]);
    let selection = RowSelection.empty(10).toggle(3);
    selection = selection.range(view, 3); // from row 3 (position 1) to row 1 (position 3)
    expect(selection.rows()).toEqual([1, 3, 9]);
    expect(selection.stateOf(view)).toBe('some');
    selection = selection.toggleAll(view);
    expect(selection.rows()).toEqual([1, 3, 5, 7, 9]);
    expect(selection.stateOf(view)).toBe('all');
    expect(selection.toggleAll(view).size).toBe(0);
  });
});

describe('bulk cancel from the orders grid', () => {
  it('ticks rows, a Shift range and all shown, then cancels them and marks each row', async () => {
    const app = await startTestApp();
    const { user } = renderApp(app);
    const grid = await findGrid();
    const ids = shownIds(grid);
    expect(tickedActions()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel ticked orders…' })).toBeNull();
    await user.click(tick(grid, ids[0]!));
    expect(text(tickedActions())).toContain('1 ticked');
    fireEvent.click(tick(grid, ids[3]!), { shiftKey: true });
    expect(text(tickedActions())).toContain('4 ticked');
    expect(ids.slice(0, 4).every((id) => (tick(grid, id) as HTMLInputElement).checked)).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Clear ticks' }));
    expect(tickedActions()).toBeNull();

    // Narrow to ids starting with 12 and tick every order shown.
    const search = screen.getByRole('searchbox', { name: 'Search by order or pet ID' });
    await openFilters(user);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Look in' }), 'Order ID only');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Match' }), 'Start of the ID');
    await user.type(search, '12');
    await waitFor(() => expect(shownIds(grid).every((id) => id.startsWith('12'))).toBe(true));
    const shown = shownIds(grid);
    await user.click(within(grid).getByRole('checkbox', { name: 'Select all shown' }));
    expect(text(tickedActions())).toContain(`${shown.length} ticked`);

    await user.click(screen.getByRole('button', { name: 'Cancel ticked orders…' }));
    const pending = shown.filter((id) => app.sandbox.orderStatus(id) === 'pending');
    // Complete orders have shipped: they are left out, and the dialog says so and why.
    const complete = bodyRows(grid)
      .filter((row) => text(row.querySelectorAll('[role="gridcell"]')[4] ?? null) === 'Yes')
      .map((row) => text(within(row).getByRole('rowheader')));
    expect(complete.length).toBeGreaterThan(0);
    const sent = shown.length - complete.length;
    const dialog = await screen.findByRole('dialog', { name: `Cancel ${sent} orders?` });
    expect(text(dialog)).toContain(
      `Of the ${shown.length} orders ticked, ${complete.length} ${complete.length === 1 ? 'has' : 'have'} already shipped and ${complete.length === 1 ? 'is' : 'are'} left out.`,
    );
    await user.click(within(dialog).getByRole('button', { name: `Cancel ${sent} orders` }));
    const panel = await screen.findByRole('region', { name: /^Bulk cancel/ });
    // The ticked orders are the job's now: the grid starts again with none ticked.
    expect(tickedActions()).toBeNull();
    expect(
      within(grid)
        .getAllByRole('checkbox')
        .some((box) => (box as HTMLInputElement).checked),
    ).toBe(false);
    await within(panel).findByText('Finished.', {}, { timeout: 20_000 });
    expect(pending.every((id) => app.sandbox.orderStatus(id) === 'cancelled')).toBe(true);
    // The rows learn their outcome from the cancel log.
    await waitFor(() => {
      const statuses = bodyRows(grid).map((row) => text(row.lastElementChild));
      expect(statuses.every((status) => /Cancelled|Shipped/.test(status))).toBe(true);
    });
  });

  it('Space ticks the focused row from the keyboard', async () => {
    const app = await startTestApp();
    const { user } = renderApp(app);
    const grid = await findGrid();
    const [first] = bodyRows(grid);
    first!.focus();
    await user.keyboard(' ');
    expect((tick(grid, shownIds(grid)[0]!) as HTMLInputElement).checked).toBe(true);
    expect(text(tickedActions())).toContain('1 ticked');
  });
});
