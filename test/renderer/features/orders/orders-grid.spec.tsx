// The orders grid's rows follow the scroll position in the scroll event
// itself (before a browser would paint the frame), from a pool of elements
// that stay with their orders, in view order in the page, the focused one
// never lost to another order.

import { act, render, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, test } from 'vitest';
import { RowSelection } from '../../../../src/renderer/src/features/bulk-cancel/row-selection.ts';
import {
  FALLBACK_VIEWPORT_HEIGHT,
  OrdersGrid,
  ROW_HEIGHT,
} from '../../../../src/renderer/src/features/orders/orders-grid.tsx';
import { longestRising } from '../../../../src/renderer/src/features/orders/table/grid-rows.ts';
import type {
  OrderTable,
  SortSpec,
} from '../../../../src/renderer/src/features/orders/table/order-table.ts';
import type { ReviewMarks } from '../../../../src/shared/orders-local.ts';
import { tableOf } from './table/table-of.ts';

const COUNT = 20_000;
const orders = Array.from({ length: COUNT }, (_, i) => ({
  id: String(700_000 + i),
  petId: String(i % 97),
  quantity: (i % 5) + 1,
  shipDate: '2025-06-05T09:09:37Z',
  complete: i % 2 === 0,
}));
const table: OrderTable = tableOf(orders);
const all = table.allRows();

function Grid(props: { marks?: ReviewMarks; onSelected?: (position: number) => void }) {
  const [position, setPosition] = useState(-1);
  return (
    <OrdersGrid
      label="Test orders"
      table={table}
      rows={all}
      position={position}
      sort={undefined}
      marks={props.marks ?? {}}
      statuses={new Map()}
      cancelBlocked={undefined}
      cancelBlockedId="blocked"
      onSort={() => undefined}
      onSelect={(at) => {
        setPosition(at);
        props.onSelected?.(at);
      }}
      onOpenDetails={() => undefined}
      onCancel={() => undefined}
      selection={RowSelection.empty(COUNT)}
      onTick={() => undefined}
      onTickAll={() => undefined}
      tickedState="none"
    />
  );
}

const scroller = () => document.querySelector<HTMLElement>('.orders-grid-scroll')!;

/** The rows shown (not the pool's spare ones), in page order: index, id and top. */
function shownRows() {
  return [...document.querySelectorAll<HTMLElement>('.orders-grid-item')]
    .filter((row) => !row.hidden)
    .map((row) => ({
      index: Number(row.getAttribute('aria-rowindex')),
      id: within(row).getByRole('rowheader').textContent,
      top: parseFloat(row.style.top),
    }));
}

/** Scrolls as the browser does: the position changes, then the scroll event fires (no React work awaited). */
function scrollTo(top: number) {
  scroller().scrollTop = top;
  scroller().dispatchEvent(new Event('scroll'));
}

describe('the orders grid', () => {
  test('a scroll shows the rows of its position at once, in view order, from a bounded pool', () => {
    render(<Grid />);
    expect(shownRows()[0]).toEqual({ index: 2, id: '700000', top: 0 });
    const viewRows = Math.ceil(FALLBACK_VIEWPORT_HEIGHT / ROW_HEIGHT);
    for (const row of [5000, 5019, 5600, 12_345, 100, COUNT - viewRows]) {
      scrollTo(row * ROW_HEIGHT);
      // Nothing awaited: the scroll event itself placed the rows.
      const shown = shownRows();
      const at = shown.findIndex((r) => r.index === row + 2);
      expect(at, `row ${row}`).toBeGreaterThanOrEqual(0);
      expect(shown[at]).toEqual({
        index: row + 2,
        id: String(700_000 + row),
        top: row * ROW_HEIGHT,
      });
      // Every row from there to the viewport's bottom, in order in the page.
      for (let k = 1; k < viewRows && row + k < COUNT; k++)
        expect(shown[at + k]).toEqual({
          index: row + k + 2,
          id: String(700_000 + row + k),
          top: (row + k) * ROW_HEIGHT,
        });
      const indexes = shown.map((r) => r.index);
      expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    }
    // The pool: the rows in view and ten either side, plus the tab stop; no element per scroll.
    expect(document.querySelectorAll('.orders-grid-item').length).toBeLessThanOrEqual(
      viewRows + 2 * 10 + 4,
    );
  });

  test('the focused row keeps its order and the focus while the grid scrolls away and back', () => {
    render(<Grid />);
    scrollTo(40 * ROW_HEIGHT);
    const row = document.querySelector<HTMLElement>('[role="row"][aria-rowindex="45"]')!;
    act(() => row.focus());
    expect(row.getAttribute('aria-selected')).toBe('true');
    expect(row.tabIndex).toBe(0);
    for (const top of [3000, 9000, 15_000].map((r) => r * ROW_HEIGHT)) {
      scrollTo(top);
      expect(document.activeElement).toBe(row);
      expect(within(row).getByRole('rowheader').textContent).toBe('700043');
      expect(row.getAttribute('aria-rowindex')).toBe('45');
      // Out of sight above the content, not in the rows of the viewport.
      expect(parseFloat(row.style.top)).toBeLessThan(0);
    }
    scrollTo(40 * ROW_HEIGHT);
    expect(document.activeElement).toBe(row);
    expect(parseFloat(row.style.top)).toBe(43 * ROW_HEIGHT);
    const indexes = shownRows().map((r) => r.index);
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
  });

  test('a change of what rows show redraws their cells in place', () => {
    const { rerender } = render(<Grid />);
    const row = document.querySelector<HTMLElement>('[role="row"][aria-rowindex="3"]')!;
    expect(within(row).queryByRole('img', { name: 'Reviewed' })).toBeNull();
    rerender(<Grid marks={{ '700001': { reviewed: true, note: 'fragile', updatedAt: 1 } }} />);
    expect(document.querySelector('[role="row"][aria-rowindex="3"]')).toBe(row);
    expect(within(row).getByRole('img', { name: 'Reviewed' })).toBeTruthy();
    expect(within(row).getByRole('img', { name: 'Has a note' }).title).toBe('fragile');
  });
});

describe('longestRising', () => {
  test('keeps a longest rising run, through the fixed entry when one is given', () => {
    expect(longestRising([3, 4, 5, 0, 1])).toEqual([true, true, true, false, false]);
    expect(longestRising([3, 4, 5, 0, 1], 4)).toEqual([false, false, false, true, true]);
    expect(longestRising([0, 1, 2])).toEqual([true, true, true]);
    expect(longestRising([])).toEqual([]);
  });
});

/** The grid with a sort and a selected row set by the test. */
function SortedGrid(props: { sort?: SortSpec; position: number }) {
  const rows = props.sort?.direction === 'descending' ? Uint32Array.from(all).reverse() : all;
  return (
    <OrdersGrid
      label="Test orders"
      table={table}
      rows={rows}
      position={props.position}
      sort={props.sort}
      marks={{}}
      statuses={new Map()}
      cancelBlocked={undefined}
      cancelBlockedId="blocked"
      onSort={() => undefined}
      onSelect={() => undefined}
      onOpenDetails={() => undefined}
      onCancel={() => undefined}
      selection={RowSelection.empty(COUNT)}
      onTick={() => undefined}
      onTickAll={() => undefined}
      tickedState="none"
    />
  );
}

/** Whether the row at this position is wholly in the viewport. */
function inView(position: number): boolean {
  const row = shownRows().find((r) => r.index === position + 2);
  const top = scroller().scrollTop;
  return !!row && row.top >= top && row.top + ROW_HEIGHT <= top + FALLBACK_VIEWPORT_HEIGHT;
}

describe('where the grid stands', () => {
  test('a new sort shows the top of the list, not rows from its middle', () => {
    const { rerender } = render(<SortedGrid position={-1} />);
    scrollTo(5000 * ROW_HEIGHT);
    rerender(<SortedGrid position={-1} sort={{ column: 'id', direction: 'descending' }} />);
    expect(scroller().scrollTop).toBe(0);
    expect(shownRows()[0]).toEqual({ index: 2, id: String(700_000 + COUNT - 1), top: 0 });
  });

  test('a new sort with a row selected shows that row where the sort put it', () => {
    const { rerender } = render(<SortedGrid position={100} />);
    scrollTo(9000 * ROW_HEIGHT);
    // Descending, order 700100 is at COUNT - 1 - 100.
    const moved = COUNT - 1 - 100;
    rerender(<SortedGrid position={moved} sort={{ column: 'id', direction: 'descending' }} />);
    expect(inView(moved)).toBe(true);
    expect(shownRows().find((r) => r.index === moved + 2)?.id).toBe('700100');
  });

  test('a row that takes the focus out of view comes into view', () => {
    render(<Grid />);
    scrollTo(40 * ROW_HEIGHT);
    const row = document.querySelector<HTMLElement>('[role="row"][aria-rowindex="45"]')!;
    act(() => row.focus());
    act(() => row.blur());
    scrollTo(3000 * ROW_HEIGHT);
    expect(inView(43)).toBe(false);
    // Tab comes back to the grid's tab stop: the selected row, out of sight until now.
    act(() => row.focus());
    expect(document.activeElement).toBe(row);
    expect(inView(43)).toBe(true);
  });
});
