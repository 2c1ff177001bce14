// The orders' CSV builders as pure functions, on the one CSV module
// (test/renderer/components/csv.spec.ts): ids kept exact, absent fields
// empty, formulas in typed text defused.

import { expect, test } from 'vitest';
import { tableOf } from './table/table-of.ts';
import {
  cancelLogCsv,
  ordersCsv,
} from '../../../../src/renderer/src/features/orders/orders-csv.ts';
import type { RowStatus } from '../../../../src/renderer/src/features/orders/row-status.ts';

test('orders: the rows given, in that order, with review marks and statuses', () => {
  const table = tableOf([
    {
      id: '9007199254740993',
      petId: '18014398509481985',
      quantity: 2,
      shipDate: '2025-06-13T19:34:25Z',
      complete: true,
    },
    { id: '2', petId: undefined, quantity: undefined, shipDate: undefined, complete: undefined },
    { id: '-3', petId: '4', quantity: 0, shipDate: '2025-06-14T08:00:00.5+02:00', complete: false },
  ]);
  const marks = {
    '-3': {
      reviewed: true,
      note: 'Customer said: "leave it, at the door"\nand =call back',
      updatedAt: 1,
    },
    '2': { reviewed: false, note: '=1+1', updatedAt: 2 },
  };
  const statuses = new Map<string, RowStatus>([
    ['-3', 'shipped'],
    ['9007199254740993', 'cancelled'],
  ]);

  const csv = ordersCsv(table, Uint32Array.from([2, 0, 1]), marks, statuses);

  expect(csv.split('\r\n')).toEqual([
    'Order ID,Pet ID,Quantity,Ship date,Complete,Reviewed,Note,Status',
    '"=""-3""","=""4""",0,2025-06-14T08:00:00.5+02:00,no,yes,"Customer said: ""leave it, at the door""\nand =call back",Shipped — cannot be cancelled',
    '"=""9007199254740993""","=""18014398509481985""",2,2025-06-13T19:34:25Z,yes,no,,Cancelled',
    `"=""2""",,,,,no,'=1+1,`,
    '',
  ]);
});

test('orders: an empty view is the header line alone', () => {
  expect(ordersCsv(tableOf([{ id: '1' }]), new Uint32Array(0), {}, new Map())).toBe(
    'Order ID,Pet ID,Quantity,Ship date,Complete,Reviewed,Note,Status\r\n',
  );
});

test('orders: a long view comes out whole, in parts', () => {
  const orders = Array.from({ length: 25_001 }, (_, i) => ({ id: String(i + 1) }));
  const table = tableOf(orders);
  const lines = ordersCsv(table, table.allRows(), {}, new Map()).split('\r\n');
  expect(lines).toHaveLength(25_003);
  expect(lines[25_001]).toBe('"=""25001""",,,,,no,,');
});

test('the cancel log, oldest first, times in UTC', () => {
  const csv = cancelLogCsv([
    {
      at: Date.UTC(2025, 10, 22, 9, 12, 3),
      environment: 'production',
      orderId: '42',
      result: 'cancelled',
      message: 'Order 42 was cancelled.',
    },
    {
      at: Date.UTC(2025, 10, 22, 9, 13, 0),
      environment: 'production',
      orderId: '9223372036854775807',
      result: 'failed',
      message: 'Could not reach the store service at api.example.com: the connection was cut.',
      delivery: 'unknown',
    },
  ]);
  expect(csv.split('\r\n')).toEqual([
    'Time,Environment,Order ID,Result,Delivery,Message',
    '2025-11-22T09:12:03.000Z,production,"=""42""",cancelled,,Order 42 was cancelled.',
    '2025-11-22T09:13:00.000Z,production,"=""9223372036854775807""",failed,unknown,Could not reach the store service at api.example.com: the connection was cut.',
    '',
  ]);
});
