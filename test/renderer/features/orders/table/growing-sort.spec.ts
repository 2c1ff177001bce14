// A list's views while it arrives in parts: each the view of its rows by a
// plain comparison sort (property-based, any cuts, sorts both ways with and
// without a search, one that finds few rows among them), and the
// work left once the list is whole: only the rows that came since the last
// view are sorted and merged in, not the whole list again.

import fc from 'fast-check';
import { afterEach, expect, test, vi } from 'vitest';
import * as integerSort from '../../../../../src/renderer/src/features/orders/table/integer-sort.ts';
import {
  OrderTableBuilder,
  SORT_COLUMNS,
  type ViewQuery,
} from '../../../../../src/renderer/src/features/orders/table/order-table.ts';
import { screenColumnsOf } from '../../../../../src/shared/screen-columns.ts';
import { compareIntegerText, type Order } from '../../../../../src/shared/order.ts';
import { PROPERTY_RUNS } from '../../../../../tools/fuzz/order-lists.ts';
import { columnsOf, tableOf } from './table-of.ts';

// The sort itself stays real; the spy only counts the keys each call sorts.
vi.mock(
  import('../../../../../src/renderer/src/features/orders/table/integer-sort.ts'),
  async (actual) => {
    const real = await actual();
    return { ...real, sortedPositions: vi.fn(real.sortedPositions) };
  },
);
afterEach(() => vi.mocked(integerSort.sortedPositions).mockClear());

const NO_QUERY: ViewQuery = { search: '', scope: 'any', mode: 'contains', complete: 'all' };

const ids = fc.option(
  fc.oneof(
    fc.constantFrom('0', '7', '42', '-5', '9007199254740993', '-9223372036854775808'),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
    fc.integer({ min: 0, max: 60 }).map(String),
    fc.integer({ min: 0, max: 60 }).map(String),
  ),
  { nil: undefined, freq: 8 },
);
const order: fc.Arbitrary<Order> = fc.record({
  id: ids,
  petId: ids,
  quantity: fc.option(fc.integer({ min: -2, max: 6 }), { nil: undefined, freq: 8 }),
  shipDate: fc.option(
    fc.constantFrom('2025-06-13T19:34:25Z', '2024-01-01T00:00:00+02:00', '2024-01-01T00:00:00.5Z'),
    { nil: undefined, freq: 8 },
  ),
  complete: fc.option(fc.boolean(), { nil: undefined, freq: 8 }),
});

/**
 * The rows a query shows, worked out the plain way: those whose id or pet id
 * holds the search, by a comparison sort, ties and rows without the value in
 * the service's order, the latter last both ways.
 */
function referenceView(orders: readonly Order[], query: ViewQuery): number[] {
  const rows = orders
    .map((_, row) => row)
    .filter(
      (row) =>
        query.search === '' ||
        [orders[row]!.id, orders[row]!.petId].some((id) => id?.includes(query.search)),
    );
  if (!query.sort) return rows;
  const { column, direction } = query.sort;
  const sign = direction === 'ascending' ? 1 : -1;
  const compare = (a: Order, b: Order): number => {
    if (column === 'id' || column === 'petId') return compareIntegerText(a[column]!, b[column]!);
    if (column === 'shipDate') return Date.parse(a.shipDate!) - Date.parse(b.shipDate!);
    return Number(a[column]) - Number(b[column]);
  };
  return rows.sort((a, b) => {
    const [x, y] = [orders[a]!, orders[b]!];
    const [xMissing, yMissing] = [x[column] === undefined, y[column] === undefined];
    if (xMissing || yMissing) return Number(xMissing) - Number(yMissing) || a - b;
    return sign * compare(x, y) || a - b;
  });
}

test('views of a list arriving in any parts are those of its rows by a plain sort', () => {
  fc.assert(
    fc.property(
      fc.array(order, { minLength: 1, maxLength: 120 }),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 }),
      fc.constantFrom(...SORT_COLUMNS),
      fc.constantFrom('ascending' as const, 'descending' as const),
      fc.constantFrom('', '4', '0', '42', '7'),
      (orders, at, column, direction, search) => {
        const whole = columnsOf(orders);
        const cuts = [...new Set([...at.map((x) => Math.floor(x * orders.length)), orders.length])]
          .filter((cut) => cut > 0)
          .sort((a, b) => a - b);
        const query: ViewQuery = { ...NO_QUERY, search, sort: { column, direction } };
        const builder = new OrderTableBuilder(4);
        let from = 0;
        for (const to of cuts) {
          builder.append(from, screenColumnsOf(whole, from, to));
          from = to;
          const growing = to === orders.length ? builder.build() : builder.snapshot();
          expect([...growing.view(query)]).toEqual(referenceView(orders.slice(0, to), query));
        }
      },
    ),
    PROPERTY_RUNS,
  );
});

test('once the list is whole, only the rows since the last view are sorted, then merged in', () => {
  const orders: Order[] = Array.from({ length: 1000 }, (_, k) => ({
    id: String(k + 1),
    petId: String((k * 7919) % 500),
    quantity: k % 5,
  }));
  const whole = columnsOf(orders);
  const builder = new OrderTableBuilder(1000);
  const byPet: ViewQuery = { ...NO_QUERY, sort: { column: 'petId', direction: 'ascending' } };
  builder.append(0, screenColumnsOf(whole, 0, 900));
  builder.snapshot().view(byPet);
  builder.append(900, screenColumnsOf(whole, 900, 1000));
  const sorted = vi.mocked(integerSort.sortedPositions);
  sorted.mockClear();
  const shown = builder.build().view(byPet);
  // The 100 new rows, not the 1000 of the list.
  expect(sorted.mock.calls.map((call) => call[2])).toEqual([100]);
  expect([...shown]).toEqual([...tableOf(orders).view(byPet)]);
});

test('rows arriving a few at a time into many are each put in their place, after their equals', () => {
  // Many ties: each merge must keep the rows that came first before their equals.
  const orders: Order[] = Array.from({ length: 400 }, (_, k) => ({
    id: String(k),
    petId: String((k * 7919) % 23),
    quantity: (k * 31) % 4,
  }));
  const whole = columnsOf(orders);
  for (const column of ['petId', 'quantity', 'id'] as const) {
    for (const direction of ['ascending', 'descending'] as const) {
      const query: ViewQuery = { ...NO_QUERY, sort: { column, direction } };
      const builder = new OrderTableBuilder(4);
      builder.append(0, screenColumnsOf(whole, 0, 200));
      builder.snapshot().view(query);
      for (let from = 200; from < 400; from += 3) {
        const to = Math.min(400, from + 3);
        builder.append(from, screenColumnsOf(whole, from, to));
        const growing = to === 400 ? builder.build() : builder.snapshot();
        expect([...growing.view(query)]).toEqual([...tableOf(orders.slice(0, to)).view(query)]);
      }
    }
  }
});

test('with a search that finds few rows, only those are sorted, and as the list grows only the new ones', () => {
  const orders: Order[] = Array.from({ length: 1000 }, (_, k) => ({
    id: String(k + 1),
    petId: String((k * 7919) % 500),
  }));
  const whole = columnsOf(orders);
  const query: ViewQuery = {
    ...NO_QUERY,
    search: '42',
    sort: { column: 'petId', direction: 'descending' },
  };
  const found = (to: number) =>
    orders.slice(0, to).filter(({ id, petId }) => `${id} ${petId}`.includes('42')).length;
  const sorted = vi.mocked(integerSort.sortedPositions);
  const builder = new OrderTableBuilder(1000);
  builder.append(0, screenColumnsOf(whole, 0, 600));
  expect([...builder.snapshot().view(query)]).toEqual([
    ...tableOf(orders.slice(0, 600)).view(query),
  ]);
  builder.append(600, screenColumnsOf(whole, 600, 1000));
  const shown = builder.build().view(query);
  // The rows found among the first 600, then those among the next 400: never the whole list.
  expect(sorted.mock.calls.map((call) => call[2])).toEqual([found(600), found(1000) - found(600)]);
  expect([...shown]).toEqual([...tableOf(orders).view(query)]);
  expect(shown.length).toBe(found(1000));
});
