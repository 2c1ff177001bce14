// The order list as columns: every field back as sent, sorting by each column
// (exact for any int64, stable, absent values last both ways), search, the
// filters, ship dates kept small and still read back as sent, and a table
// built from parts as they arrive.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  OrderTableBuilder,
  type OrderTable,
  type SearchMode,
  type SearchScope,
  type SortColumn,
  type ViewQuery,
} from '../../../../../src/renderer/src/features/orders/table/order-table.ts';
import { isPlainDate, plainDateText } from '../../../../../src/shared/ship-dates.ts';
import { screenColumnsOf } from '../../../../../src/shared/screen-columns.ts';
import { compareIntegerText, type Order } from '../../../../../src/shared/order.ts';
import { dateTimeMsOfText } from '../../../../../src/shared/rfc3339.ts';
import { mulberry32 } from '../../../../../src/main/sandbox/prng.ts';
import { dateText, PROPERTY_RUNS } from '../../../../../tools/fuzz/order-lists.ts';
import { columnsOf, tableOf } from './table-of.ts';

const NO_QUERY: ViewQuery = { search: '', scope: 'any', mode: 'contains', complete: 'all' };

function ids(table: OrderTable, rows: Uint32Array): (string | undefined)[] {
  return [...rows].map((row) => table.idAt(row));
}

/** The sandbox's seeded random source, so the generated lists repeat. */
const random = mulberry32;

test('keeps every field as sent, absent ones absent', () => {
  const orders: Order[] = [
    {
      id: '9223372036854775807',
      petId: '-9223372036854775808',
      quantity: 3,
      shipDate: '2025-06-13T19:34:25.5+02:00',
      complete: true,
    },
    {
      id: undefined,
      petId: undefined,
      quantity: undefined,
      shipDate: undefined,
      complete: undefined,
    },
    { id: '0', petId: '7', quantity: 0, shipDate: '2025-01-01T00:00:00Z', complete: false },
  ];
  const table = tableOf(orders);
  expect(table.count).toBe(3);
  expect([0, 1, 2].map((row) => table.orderAt(row))).toEqual(orders);
  expect(table.rowOfId('0')).toBe(2);
  expect(table.rowOfId('9223372036854775807')).toBe(0);
  expect(table.rowOfId('7')).toBeUndefined();
  expect(tableOf([]).view(NO_QUERY)).toEqual(new Uint32Array(0));
});

describe('sorting', () => {
  test('ids as int64: numeric, exact above 2^53, from the most negative to the largest', () => {
    const values = [
      '9007199254740993',
      '9007199254740992',
      '-1',
      '9223372036854775807',
      '-9223372036854775808',
      '0',
      '10',
      '9',
      '-1000000000',
      '-999999999',
      '1000000000',
    ];
    const table = tableOf(values.map((id) => ({ id })));
    const expected = [...values].sort(compareIntegerText);
    expect(ids(table, table.sortedRows({ column: 'id', direction: 'ascending' }))).toEqual(
      expected,
    );
    expect(ids(table, table.sortedRows({ column: 'id', direction: 'descending' }))).toEqual(
      [...expected].reverse(),
    );
  });

  test('absent values come last both ways, and ties keep the service order both ways', () => {
    const orders: Order[] = [
      { id: '1', quantity: 2 },
      { id: '2' },
      { id: '3', quantity: 1 },
      { id: '4', quantity: 2 },
      { id: '5', quantity: 1 },
    ];
    const table = tableOf(orders);
    expect(ids(table, table.sortedRows({ column: 'quantity', direction: 'ascending' }))).toEqual([
      '3',
      '5',
      '1',
      '4',
      '2',
    ]);
    expect(ids(table, table.sortedRows({ column: 'quantity', direction: 'descending' }))).toEqual([
      '1',
      '4',
      '3',
      '5',
      '2',
    ]);
  });

  test('complete: not complete, complete, then not given', () => {
    const table = tableOf([
      { id: '1', complete: true },
      { id: '2' },
      { id: '3', complete: false },
      { id: '4', complete: true },
    ]);
    expect(ids(table, table.sortedRows({ column: 'complete', direction: 'ascending' }))).toEqual([
      '3',
      '1',
      '4',
      '2',
    ]);
    expect(ids(table, table.sortedRows({ column: 'complete', direction: 'descending' }))).toEqual([
      '1',
      '4',
      '3',
      '2',
    ]);
  });

  test('ship dates by the moment they mean, whatever the offset', () => {
    const table = tableOf([
      { id: '1', shipDate: '2025-01-01T00:30:00+01:00' }, // 2024-12-31T23:30Z
      { id: '2', shipDate: '2024-12-31T23:45:00Z' },
      { id: '3', shipDate: '2024-12-31T23:30:00.001Z' },
      { id: '4' },
      { id: '5', shipDate: '1969-07-20T20:17:40Z' },
    ]);
    expect(ids(table, table.sortedRows({ column: 'shipDate', direction: 'ascending' }))).toEqual([
      '5',
      '1',
      '3',
      '2',
      '4',
    ]);
  });

  test('matches a comparison sort on random lists of every shape of id', () => {
    const next = random(7);
    const digits = (length: number) => {
      let text = String(1 + Math.floor(next() * 9));
      while (text.length < length) text += String(Math.floor(next() * 10));
      return text;
    };
    const anyId = () => {
      const roll = next();
      if (roll < 0.05) return undefined;
      const text =
        roll < 0.4
          ? digits(1 + Math.floor(next() * 6))
          : roll < 0.8
            ? `9007199254${digits(6)}`
            : digits(18);
      return next() < 0.1 ? `-${text}` : text;
    };
    const orders: Order[] = Array.from({ length: 3000 }, () => ({
      id: anyId(),
      petId: anyId(),
      quantity: next() < 0.05 ? undefined : Math.floor(next() * 7) - 1,
      shipDate:
        next() < 0.05
          ? undefined
          : new Date(Date.UTC(2020, 0, 1) + Math.floor(next() * 2e11) * (next() < 0.5 ? 1000 : 1))
              .toISOString()
              .replace(/\.000Z$/, 'Z'),
      complete: next() < 0.05 ? undefined : next() < 0.5,
    }));
    const table = tableOf(orders);
    const keyOf: Record<SortColumn, (o: Order) => string | number | undefined> = {
      id: (o) => o.id,
      petId: (o) => o.petId,
      quantity: (o) => o.quantity,
      shipDate: (o) => (o.shipDate === undefined ? undefined : Date.parse(o.shipDate)),
      complete: (o) => (o.complete === undefined ? undefined : Number(o.complete)),
    };
    for (const column of Object.keys(keyOf) as SortColumn[]) {
      const key = keyOf[column];
      const compare = (a: number, b: number, sign: number) => {
        const x = key(orders[a]!);
        const y = key(orders[b]!);
        if (x === undefined || y === undefined) return x === y ? a - b : x === undefined ? 1 : -1;
        const c = typeof x === 'string' ? compareIntegerText(x, y as string) : x - (y as number);
        return c === 0 ? a - b : sign * c;
      };
      const rows = orders.map((_, i) => i);
      expect([...table.sortedRows({ column, direction: 'ascending' })], column).toEqual(
        [...rows].sort((a, b) => compare(a, b, 1)),
      );
      expect([...table.sortedRows({ column, direction: 'descending' })], column).toEqual(
        [...rows].sort((a, b) => compare(a, b, -1)),
      );
    }
  });
});

test('a sort prepared ahead is the sort asked for later, and is built once', () => {
  const next = random(7);
  const orders: Order[] = Array.from({ length: 500 }, (_, k) => ({
    id: String(k),
    petId: k % 7 === 0 ? undefined : String(Math.floor(next() * 1e6)),
    quantity: Math.floor(next() * 5),
    shipDate: new Date(1.7e12 + Math.floor(next() * 1e7) * 1000)
      .toISOString()
      .replace('.000Z', 'Z'),
  }));
  for (const column of ['petId', 'shipDate', 'quantity'] as const) {
    const prepared = tableOf(orders);
    expect(prepared.prepareSort(column)).toBe(true);
    expect(prepared.prepareSort(column)).toBe(false);
    for (const direction of ['ascending', 'descending'] as const) {
      expect(ids(prepared, prepared.sortedRows({ column, direction }))).toEqual(
        ids(tableOf(orders), tableOf(orders).sortedRows({ column, direction })),
      );
    }
  }
});

describe('search', () => {
  const table = tableOf([
    { id: '120', petId: '5' },
    { id: '7', petId: '1200' },
    { id: '-12', petId: '312' },
    { id: undefined, petId: '12' },
    { id: '512', petId: undefined },
  ]);

  test('anywhere in either id, in the service order, each row once', () => {
    expect([...table.search('12', 'any', 'contains')!]).toEqual([0, 1, 2, 3, 4]);
    expect([...table.search('312', 'any', 'contains')!]).toEqual([2]);
  });

  test('in one of the ids only, or from its start', () => {
    expect([...table.search('12', 'id', 'contains')!]).toEqual([0, 2, 4]);
    expect([...table.search('12', 'petId', 'contains')!]).toEqual([1, 2, 3]);
    expect([...table.search('12', 'id', 'starts-with')!]).toEqual([0]);
    expect([...table.search('12', 'petId', 'starts-with')!]).toEqual([1, 3]);
    expect([...table.search('-12', 'any', 'starts-with')!]).toEqual([2]);
    expect([...table.search('5', 'any', 'starts-with')!]).toEqual([0, 4]);
  });

  test('a keystroke that extends the query finds what a fresh search finds (it looks only among the last rows found)', () => {
    // Two digits only, so queries often meet their ids, at their start and inside them.
    const digits = fc.stringMatching(/^-?[12]{1,6}$/);
    const order = fc.record({ id: digits, petId: digits }, { requiredKeys: [] });
    fc.assert(
      fc.property(
        fc.array(order, { maxLength: 60 }),
        fc.stringMatching(/^-?[12]{1,4}$/),
        fc.constantFrom<SearchScope>('any', 'id', 'petId'),
        fc.constantFrom<SearchMode>('contains', 'starts-with'),
        fc.boolean(),
        (orders, typed, scope, mode, prepend) => {
          const typing = tableOf(orders);
          // Typed a key at a time, at the end (or, for "anywhere", before what was typed).
          for (let k = 1; k <= typed.length; k++) {
            const query =
              prepend && mode === 'contains' ? typed.slice(typed.length - k) : typed.slice(0, k);
            const fresh = tableOf(orders).search(query, scope, mode);
            expect([...typing.search(query, scope, mode)!], query).toEqual([...fresh!]);
          }
        },
      ),
      PROPERTY_RUNS,
    );
  });

  test('nothing for what cannot be in an id; no search for an empty one', () => {
    expect(table.search('1a', 'any', 'contains')).toEqual(new Uint32Array(0));
    expect(table.search('1\t5', 'any', 'contains')).toEqual(new Uint32Array(0));
    expect(table.search('  ', 'any', 'contains')).toBeUndefined();
    expect([...table.search(' 7 ', 'id', 'contains')!]).toEqual([1]);
  });
});

describe('views', () => {
  const day = (d: number) => Date.UTC(2025, 5, d);
  const table = tableOf([
    { id: '1', complete: true, shipDate: '2025-06-01T10:00:00Z', quantity: 5 },
    { id: '2', complete: false, shipDate: '2025-06-02T10:00:00Z', quantity: 1 },
    { id: '3', complete: false, shipDate: '2025-06-03T10:00:00Z', quantity: 3 },
    { id: '4', complete: false },
    { id: '13', shipDate: '2025-06-02T23:59:59.999Z', quantity: 2 },
  ]);

  test('filters: complete, not complete (not given is in neither), ship date from (inclusive) before (exclusive)', () => {
    expect(ids(table, table.view({ ...NO_QUERY, complete: 'complete' }))).toEqual(['1']);
    expect(ids(table, table.view({ ...NO_QUERY, complete: 'not-complete' }))).toEqual([
      '2',
      '3',
      '4',
    ]);
    expect(ids(table, table.view({ ...NO_QUERY, shipFrom: day(2), shipBefore: day(3) }))).toEqual([
      '2',
      '13',
    ]);
    expect(ids(table, table.view({ ...NO_QUERY, shipFrom: day(3) }))).toEqual(['3']);
    expect(ids(table, table.view({ ...NO_QUERY, shipBefore: day(2) }))).toEqual(['1']);
    expect(
      ids(table, table.view({ ...NO_QUERY, complete: 'not-complete', shipFrom: day(2) })),
    ).toEqual(['2', '3']);
  });

  test('search, filter and sort together', () => {
    const query: ViewQuery = {
      ...NO_QUERY,
      search: '3',
      sort: { column: 'quantity', direction: 'descending' },
    };
    expect(ids(table, table.view(query))).toEqual(['3', '13']);
    expect(ids(table, table.view({ ...query, search: '1', complete: 'all' }))).toEqual(['1', '13']);
    expect(ids(table, table.view({ ...query, search: '1', complete: 'complete' }))).toEqual(['1']);
    expect(
      ids(table, table.view({ ...NO_QUERY, sort: { column: 'id', direction: 'descending' } })),
    ).toEqual(['13', '4', '3', '2', '1']);
  });
});

describe('ship dates', () => {
  const samples = [
    '2025-06-13T19:34:25Z',
    '2025-06-13T19:34:25.123Z',
    '2025-06-13T19:34:25.1239Z',
    '2025-06-13t19:34:25z',
    '2025-06-13 19:34Z',
    '2025-06-13T19:34:25+05:30',
    '2025-06-13T19:34:25-0800',
    '2024-02-29T00:00:00Z',
    '2025-02-30T00:00:00Z',
    '2016-12-31T23:59:60Z',
    '1970-01-01T00:00:00Z',
    '1900-03-01T12:00:00Z',
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59Z',
    '9999-12-31T23:59:59.999Z',
  ];

  test('read back as sent, with their times as Date.parse gives them', () => {
    const table = tableOf(samples.map((shipDate, k) => ({ id: String(k), shipDate })));
    for (const [row, sample] of samples.entries()) {
      expect(table.shipDateAt(row), sample).toBe(sample);
      expect(table.shipTimes()[row], sample).toBe(dateTimeMsOfText(sample));
    }
    expect(table.shipTimes()[0]).toBe(Date.parse('2025-06-13T19:34:25Z'));
  });

  test('only the form the time writes back exactly is kept as a time alone', () => {
    const plain = (text: string) => isPlainDate(new TextEncoder().encode(text), 0, text.length);
    expect(plain('2025-06-13T19:34:25Z')).toBe(true);
    expect(plain('2024-02-29T00:00:00Z')).toBe(true);
    expect(plain('0000-01-01T00:00:00Z')).toBe(true);
    expect(plain('2025-02-30T00:00:00Z')).toBe(false); // no such day: its time is 2 March
    expect(plain('2016-12-31T23:59:60Z')).toBe(false); // a leap second: its time is the next minute
    expect(plain('2025-06-13t19:34:25Z')).toBe(false);
    expect(plain('2025-06-13T19:34:25.000Z')).toBe(false);
    expect(plainDateText(Date.UTC(2025, 5, 13, 19, 34, 25))).toBe('2025-06-13T19:34:25Z');
    // Any date the scanner accepts: plain ones write back exactly, and every one reads back as sent.
    fc.assert(
      fc.property(dateText(true), (text) => {
        if (plain(text)) expect(plainDateText(dateTimeMsOfText(text))).toBe(text);
        expect(tableOf([{ shipDate: text }]).shipDateAt(0)).toBe(text);
      }),
      PROPERTY_RUNS,
    );
  });
});

test('views of a list still arriving, grown from its earlier tables, are those of its rows read whole', () => {
  const next = random(7);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const ids = [
    '-9223372036854775808',
    '-5',
    '0',
    '7',
    '42',
    '9007199254740993',
    '9223372036854775807',
  ];
  const orders: Order[] = Array.from({ length: 400 }, (_, k) => ({
    id:
      next() < 0.1
        ? undefined
        : k % 3 === 0
          ? pick(ids) // repeated ids: ties
          : String((BigInt(pick(ids)) / 1000n) * 1000n + BigInt(k)),
    petId: next() < 0.1 ? undefined : pick(ids),
    quantity: next() < 0.1 ? undefined : Math.floor(next() * 5),
    shipDate:
      next() < 0.1 ? undefined : pick(['2025-06-13T19:34:25Z', '2024-01-01T00:00:00+02:00']),
    complete: next() < 0.1 ? undefined : next() < 0.5,
  }));
  const whole = columnsOf(orders);
  const builder = new OrderTableBuilder(16);
  const queries: ViewQuery[] = (
    ['id', 'petId', 'quantity', 'shipDate', 'complete'] as const
  ).flatMap((column) =>
    (['ascending', 'descending'] as const).map((direction) => ({
      ...NO_QUERY,
      search: column === 'id' ? '4' : '',
      sort: { column, direction },
    })),
  );
  let from = 0;
  for (const to of [1, 2, 50, 51, 199, 400]) {
    builder.append(from, screenColumnsOf(whole, from, to));
    from = to;
    const growing = to === 400 ? builder.build() : builder.snapshot();
    const fresh = tableOf(orders.slice(0, to));
    for (const query of queries)
      expect([...growing.view(query)], JSON.stringify(query)).toEqual([...fresh.view(query)]);
  }
});

test('a table built from parts as they arrive is the table of the whole', () => {
  const orders: Order[] = Array.from({ length: 500 }, (_, k) => ({
    id: String(9007199254740993n + BigInt(k * 7)),
    petId: k % 5 === 0 ? undefined : String(k % 13),
    quantity: k % 4,
    shipDate:
      k % 3 === 0
        ? `2025-06-13T19:34:${String(k % 60).padStart(2, '0')}+02:00`
        : '2025-06-13T19:34:25Z',
    complete: k % 2 === 0,
  }));
  const whole = columnsOf(orders);
  const builder = new OrderTableBuilder(10); // sized too small: it grows
  const cuts = [0, 1, 64, 65, 300, 500];
  for (let k = 0; k + 1 < cuts.length; k++) {
    builder.append(cuts[k]!, screenColumnsOf(whole, cuts[k]!, cuts[k + 1]));
    const sofar = builder.snapshot();
    expect(sofar.count).toBe(cuts[k + 1]);
    expect(sofar.orderAt(cuts[k + 1]! - 1)).toEqual(orders[cuts[k + 1]! - 1]);
  }
  const table = builder.build();
  expect(Array.from({ length: 500 }, (_, row) => table.orderAt(row))).toEqual(orders);
  expect(ids(table, table.sortedRows({ column: 'petId', direction: 'descending' })).length).toBe(
    500,
  );
  expect(table.widestId).toBe(16);
  expect(() => builder.append(7, screenColumnsOf(whole, 0, 1))).toThrow(RangeError);
});
