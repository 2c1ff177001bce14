// Ticks are work in progress: a new table of the list takes them over, row
// for row while more rows of the same download arrive and by order id after
// a refresh, and the ticked orders the new list no longer holds are named.
// The bulk confirmation says what it leaves out of the ticks and why.

import { describe, expect, it } from 'vitest';
import { tickWords } from '../../../../src/renderer/src/features/bulk-cancel/bulk-cancel-dialog.tsx';
import { RowSelection } from '../../../../src/renderer/src/features/bulk-cancel/row-selection.ts';
import { ticksLostWords } from '../../../../src/renderer/src/features/bulk-cancel/ticks-lost.tsx';
import { tickedForCancel } from '../../../../src/renderer/src/features/orders/use-orders-view.ts';
import { tableOf } from '../orders/table/table-of.ts';

const orders = (ids: readonly string[], complete: readonly string[] = []) =>
  tableOf(ids.map((id) => ({ id, petId: '1', complete: complete.includes(id) })));

describe('ticks carried to a new table of the list', () => {
  it('after a refresh, by order id: the same orders stay ticked wherever they moved; the gone ones are named', () => {
    const before = orders(['3', '5', '7', '9', '11']);
    const after = orders(['11', '9', '3', '13']);
    const ticked = RowSelection.empty(before.count).toggle(0).toggle(1).toggle(2).toggle(4);
    const { selection, lost } = ticked.carriedTo(before, after, false);
    expect(selection.rows().map((row) => after.idAt(row))).toEqual(['11', '3']);
    expect(lost).toEqual(['5', '7']);
    // The anchor (the last one ticked, 11) follows its order.
    expect(selection.anchor).toBe(0);
  });

  it('many ticks are found in one pass, as exactly as a few', () => {
    const ids = Array.from({ length: 500 }, (_, i) => String(1000 + i));
    const before = orders(ids);
    const after = orders([...ids].reverse().filter((id) => Number(id) % 10 !== 0));
    let ticked = RowSelection.empty(before.count);
    ticked = ticked.toggleAll(before.allRows());
    const { selection, lost } = ticked.carriedTo(before, after, false);
    expect(selection.size).toBe(450);
    expect(lost).toHaveLength(50);
    expect(lost.every((id) => Number(id) % 10 === 0)).toBe(true);
  });

  it('more rows of the same download: row for row, nothing lost', () => {
    const first = orders(['1', '2', '3']);
    const more = orders(['1', '2', '3', '4', '5']);
    const ticked = RowSelection.empty(first.count).toggle(2);
    const { selection, lost } = ticked.carriedTo(first, more, true);
    expect(selection.rows()).toEqual([2]);
    expect(lost).toEqual([]);
  });

  it('names the lost ones once, in a sentence, counting past ten', () => {
    expect(ticksLostWords(['5'])).toBe('Ticked order 5 is no longer in the list.');
    expect(ticksLostWords(['5', '7'])).toBe('2 ticked orders are no longer in the list: 5, 7.');
    const many = Array.from({ length: 13 }, (_, i) => String(i + 1));
    expect(ticksLostWords(many)).toBe(
      '13 ticked orders are no longer in the list: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 3 more.',
    );
  });
});

describe('what a bulk cancel leaves out of the ticks', () => {
  it('complete orders have shipped, orders cancelled here are done: left out, counted by why; hidden ticks said', () => {
    const table = orders(['1', '2', '3', '4', '5', '6'], ['2', '3']);
    const statuses = new Map([['4', 'cancelled' as const]]);
    const all = RowSelection.empty(table.count).toggleAll(table.allRows());
    // The view shows the first four only (a search).
    const shown = Uint32Array.from([0, 1, 2, 3]);
    const { orderIds, ticks } = tickedForCancel(table, all, shown, statuses);
    expect(orderIds).toEqual(['1', '5', '6']);
    expect(ticks).toEqual({ ticked: 6, leftOut: { shipped: 2, cancelled: 1 }, notShown: 2 });
    expect(tickWords(ticks, orderIds.length)).toEqual([
      'Of the 6 orders ticked, 3 are left out: 2 have already shipped, 1 was cancelled from here already.',
      '2 ticked orders are not shown with the search and filters now; they are included.',
    ]);
    // Exactly the ticked ones, all shown: nothing to add.
    const few = RowSelection.empty(table.count).toggle(0);
    const plain = tickedForCancel(table, few, shown, statuses);
    expect(tickWords(plain.ticks, plain.orderIds.length)).toEqual([]);
    // One reason: said once.
    const someShipped = RowSelection.empty(table.count).toggle(0).toggle(1);
    const one = tickedForCancel(table, someShipped, shown, statuses);
    expect(tickWords(one.ticks, one.orderIds.length)).toEqual([
      'Of the 2 orders ticked, 1 has already shipped and is left out.',
    ]);
    // None can be cancelled: said as such.
    const shipped = RowSelection.empty(table.count).toggle(1).toggle(2);
    const none = tickedForCancel(table, shipped, shown, statuses);
    expect(none.orderIds).toEqual([]);
    expect(tickWords(none.ticks, 0)).toEqual([
      'None of the 2 orders ticked can be cancelled: 2 have already shipped.',
    ]);
  });
});
