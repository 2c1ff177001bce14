// The columnar diff of two order lists: by hand on small lists, and
// property-based against a reference written the plain way (objects, a Map
// by id, each field compared as the interface reads it).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHANGED_COMPLETE,
  CHANGED_PET,
  CHANGED_QUANTITY,
  CHANGED_SHIP_DATE,
  diffOrderLists,
  pickRows,
} from '../../../src/main/orders/changes-diff.ts';
import { columnsOfBody } from '../../../src/main/orders/changes.ts';
import { ordersOf } from '../../../src/shared/order-columns.ts';
import type { Order } from '../../../src/shared/order.ts';

interface Draft {
  readonly id?: string;
  readonly petId?: string;
  readonly quantity?: number;
  readonly shipDate?: string;
  readonly complete?: boolean;
}

/** A list's JSON written by hand, so ids above 2^53 are exact. */
function textOf(orders: readonly Draft[]): string {
  const fields = (order: Draft) =>
    [
      order.id !== undefined && `"id":${order.id}`,
      order.petId !== undefined && `"petId":${order.petId}`,
      order.quantity !== undefined && `"quantity":${order.quantity}`,
      order.shipDate !== undefined && `"shipDate":"${order.shipDate}"`,
      order.complete !== undefined && `"complete":${order.complete}`,
    ]
      .filter(Boolean)
      .join(',');
  return `[${orders.map((order) => `{${fields(order)}}`).join(',')}]`;
}

const columns = (orders: readonly Draft[]) => columnsOfBody(textOf(orders));
const order = (id: string, extra: Omit<Draft, 'id'> = {}): Draft => ({
  id,
  petId: '7',
  quantity: 1,
  shipDate: '2026-03-01T10:00:00Z',
  complete: false,
  ...extra,
});

describe('diffOrderLists', () => {
  it('finds new, gone and changed orders, with the fields that changed', () => {
    const before = columns([
      order('1'),
      order('2'),
      order('3'),
      order('4'),
      order('9223372036854775807'),
    ]);
    const after = columns([
      order('1'),
      order('2', { complete: true, shipDate: '2026-03-02T08:00:00Z' }),
      order('4', { quantity: 3, petId: '8' }),
      order('9223372036854775807', { petId: '9007199254740993' }),
      order('5'),
    ]);
    const diff = diffOrderLists(before, after);
    expect([...diff.added]).toEqual([4]);
    expect([...diff.gone]).toEqual([2]);
    expect([...diff.changed]).toEqual([1, 2, 3]);
    expect([...diff.changedFrom]).toEqual([1, 3, 4]);
    expect([...diff.changedFields]).toEqual([
      CHANGED_COMPLETE | CHANGED_SHIP_DATE,
      CHANGED_QUANTITY | CHANGED_PET,
      CHANGED_PET,
    ]);
  });

  it('reads the same moment as the same ship date, and a field that came or went as a change', () => {
    const before = columns([
      order('1', { shipDate: '2026-03-01T10:00:00Z' }),
      { id: '2', quantity: 1 },
      order('3'),
    ]);
    const after = columns([
      order('1', { shipDate: '2026-03-01T11:00:00+01:00' }),
      { id: '2', quantity: 1, complete: false },
      { id: '3', petId: '7', quantity: 1, complete: false },
    ]);
    const diff = diffOrderLists(before, after);
    expect([...diff.changed]).toEqual([1, 2]);
    expect([...diff.changedFields]).toEqual([CHANGED_COMPLETE, CHANGED_SHIP_DATE]);
  });

  it('matches a repeated id occurrence by occurrence, and counts orders without an id apart', () => {
    const before = columns([order('1'), order('1'), { petId: '3' }, order('2')]);
    const after = columns([order('1'), { quantity: 2 }, { quantity: 2 }, order('2')]);
    const diff = diffOrderLists(before, after);
    expect([...diff.added]).toEqual([]);
    expect([...diff.gone]).toEqual([1]);
    expect(diff.changed).toHaveLength(0);
    expect(diff.unidentified).toEqual({ previous: 1, current: 2 });
  });

  it('finds orders wherever they moved in the list', () => {
    const ids = Array.from({ length: 300 }, (_, i) => String(i + 1));
    const before = columns(ids.map((id) => order(id)));
    const shuffled = [...ids].reverse().filter((id) => id !== '150');
    const after = columns([
      ...shuffled.map((id) => order(id, id === '10' ? { quantity: 5 } : {})),
      order('301'),
    ]);
    const diff = diffOrderLists(before, after);
    expect([...diff.gone]).toEqual([149]);
    expect([...diff.added]).toEqual([299]);
    expect([...diff.changed]).toEqual([shuffled.indexOf('10')]);
    expect([...diff.changedFrom]).toEqual([9]);
  });

  it('keeps the rows it is given as a list of their own, exactly', () => {
    const list = columns([
      order('1'),
      order('9007199254740993', { shipDate: '2026-04-01T00:00:00Z' }),
      { quantity: 4 },
    ]);
    const picked = pickRows(list, Uint32Array.of(2, 1));
    expect(ordersOf(picked)).toEqual([ordersOf(list)[2], ordersOf(list)[1]]);
    expect(picked.widestId).toBe(16);
  });
});

// ---------------------------------------------------------------- property

const SHIP_DATES = [
  undefined,
  '2026-03-01T10:00:00Z',
  '2026-03-01T11:00:00+01:00', // the same moment
  '2026-03-01T10:00:01Z',
  '2027-06-30T00:00:00Z',
];
const ID_POOL = [
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9007199254740993',
  '-9223372036854775808',
];

const draftOf = (id: string | undefined) =>
  fc
    .record(
      {
        petId: fc.constantFrom('7', '8', '9223372036854775807'),
        quantity: fc.integer({ min: 0, max: 3 }),
        shipDate: fc.constantFrom(...SHIP_DATES.filter((date) => date !== undefined)),
        complete: fc.boolean(),
      },
      { requiredKeys: [] },
    )
    .map((fields): Draft => (id === undefined ? fields : { id, ...fields }));

/** A list of unique ids in any order, now and then an order without one. */
const list = fc
  .tuple(fc.shuffledSubarray(ID_POOL), fc.integer({ min: 0, max: 2 }))
  .chain(([ids, withoutId]) =>
    fc.tuple(...[...ids, ...Array<undefined>(withoutId).fill(undefined)].map(draftOf)),
  )
  .chain((orders) => fc.shuffledSubarray(orders, { minLength: orders.length }));

const moment = (date: string | undefined) => (date === undefined ? undefined : Date.parse(date));

/** The plain way: objects, a Map by id, each field compared by its meaning. */
function referenceDiff(before: readonly Order[], after: readonly Order[]) {
  const byId = new Map(before.flatMap((o, row) => (o.id === undefined ? [] : [[o.id, row]])));
  const added: number[] = [];
  const changed: Array<[number, number, number]> = [];
  after.forEach((now, row) => {
    if (now.id === undefined) return;
    const from = byId.get(now.id);
    if (from === undefined) return void added.push(row);
    byId.delete(now.id);
    const then = before[from]!;
    const fields =
      (then.petId !== now.petId ? CHANGED_PET : 0) |
      (then.quantity !== now.quantity ? CHANGED_QUANTITY : 0) |
      (moment(then.shipDate) !== moment(now.shipDate) ? CHANGED_SHIP_DATE : 0) |
      (then.complete !== now.complete ? CHANGED_COMPLETE : 0);
    if (fields) changed.push([row, from, fields]);
  });
  return { added, gone: [...byId.values()].sort((a, b) => a - b), changed };
}

describe('diffOrderLists against the plain reference', () => {
  it('finds exactly what the reference finds, on generated lists', () => {
    let changes = 0;
    fc.assert(
      fc.property(list, list, (before, after) => {
        const diff = diffOrderLists(columns(before), columns(after));
        const expected = referenceDiff(ordersOf(columns(before)), ordersOf(columns(after)));
        expect([...diff.added]).toEqual(expected.added);
        expect([...diff.gone]).toEqual(expected.gone);
        expect(
          [...diff.changed].map((row, k) => [row, diff.changedFrom[k], diff.changedFields[k]]),
        ).toEqual(expected.changed);
        if (expected.changed.length > 0 && expected.added.length + expected.gone.length > 0)
          changes++;
      }),
      { seed: 20260301, numRuns: 400 },
    );
    // The generator must produce lists with every kind of change, or this proves little.
    expect(changes).toBeGreaterThan(100);
  });
});
