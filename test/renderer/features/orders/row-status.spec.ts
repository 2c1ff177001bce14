// What the cancel log says about the rows of a list received at a moment.

import { expect, test } from 'vitest';
import {
  cancelledBefore,
  canStillCancel,
  rowStatuses,
} from '../../../../src/renderer/src/features/orders/row-status.ts';
import type { CancelLogEntry } from '../../../../src/shared/orders-local.ts';

const LIST_AT = 1_000;
const entry = (
  orderId: string,
  at: number,
  result: CancelLogEntry['result'],
  delivery?: CancelLogEntry['delivery'],
) =>
  ({
    at,
    environment: 'sandbox',
    orderId,
    result,
    message: '',
    ...(delivery ? { delivery } : {}),
  }) as CancelLogEntry;

test('answers after the list was received mark its rows; older ones are already in the list', () => {
  const statuses = rowStatuses(
    [
      entry('1', 500, 'cancelled'),
      entry('2', 1_500, 'cancelled'),
      entry('3', 1_500, 'not-found'),
      entry('4', 1_500, 'failed', 'unknown'),
      entry('5', 1_500, 'failed', 'not-sent'),
      entry('6', 1_500, 'failed', 'answered'),
    ],
    LIST_AT,
  );
  expect(Object.fromEntries(statuses)).toEqual({ '2': 'cancelled', '3': 'gone', '4': 'unknown' });
});

test('shipped stays shipped, whenever it was learned', () => {
  const statuses = rowStatuses(
    [entry('7', 10, 'already-shipped'), entry('7', 2_000, 'failed', 'unknown')],
    LIST_AT,
  );
  expect(statuses.get('7')).toBe('shipped');
});

test('a later answer replaces an earlier one', () => {
  const statuses = rowStatuses(
    [entry('8', 1_500, 'failed', 'unknown'), entry('8', 1_600, 'cancelled')],
    LIST_AT,
  );
  expect(statuses.get('8')).toBe('cancelled');
  expect(canStillCancel('cancelled')).toBe(false);
  expect(canStillCancel('shipped')).toBe(false);
  expect(canStillCancel('gone')).toBe(false);
  expect(canStillCancel('unknown')).toBe(true);
  expect(canStillCancel(undefined)).toBe(true);
});

test('a 404 (not found or gone) for an order the log saw cancelled is that cancel, even one older than the list', () => {
  const log = [
    entry('9', 500, 'cancelled'),
    entry('9', 1_500, 'not-found'),
    entry('10', 1_500, 'gone'),
    entry('11', 1_200, 'cancelled'),
    entry('11', 1_600, 'gone'),
  ];
  expect(Object.fromEntries(rowStatuses(log, LIST_AT))).toEqual({
    '9': 'cancelled',
    '10': 'gone',
    '11': 'cancelled',
  });
  expect(cancelledBefore(log, '9')).toBe(true);
  expect(cancelledBefore(log, '10')).toBe(false);
});
