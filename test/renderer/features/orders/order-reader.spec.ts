// Reading a list a slice at a time gives the same table as reading it whole,
// shows the first rows at once, and falls back to a whole read whenever a cut
// could not be made between two orders.

import { describe, expect, test } from 'vitest';
import { readOrderList } from '../../../../src/renderer/src/features/orders/order-reader.ts';
import { OrderTable } from '../../../../src/renderer/src/features/orders/order-table.ts';
import { InvalidOrdersError, parseOrders } from '../../../../src/shared/parse-orders.ts';

function listBody(
  count: number,
  options: { big?: boolean; spaced?: boolean; extra?: (i: number) => string } = {},
) {
  const orders: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = options.big ? (9007199254740993n + BigInt(i) * 7n).toString() : String(i + 1);
    const extra = options.extra?.(i) ?? '';
    orders.push(
      `{"id":${id},"petId":${(i * 7919) % 1000},"quantity":${i % 5},"shipDate":"2025-06-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z","complete":${i % 3 === 0}${extra}}`,
    );
  }
  return options.spaced ? `[\n  ${orders.join(',\n  ')}\n]` : `[${orders.join(',')}]`;
}

function rowsOf(table: OrderTable) {
  return Array.from({ length: table.count }, (_, row) => table.orderAt(row));
}

const SMALL_SLICES = { firstSlice: 1_000, slice: 5_000 };

describe('a slice at a time', () => {
  test('the same table as a whole read, ids above 2^53 exact, with the first rows early and progress after each slice', async () => {
    for (const options of [{}, { big: true }, { spaced: true }]) {
      const body = listBody(600, options);
      const firsts: number[] = [];
      const progress: number[] = [];
      let pauses = 0;
      const table = await readOrderList(body, 600, {
        ...SMALL_SLICES,
        pause: async () => void pauses++,
        onFirstRows: (first) => firsts.push(first.count),
        onProgress: (read) => progress.push(read),
      });
      expect(rowsOf(table!)).toEqual(parseOrders(body));
      expect(firsts).toHaveLength(1);
      expect(firsts[0]).toBeGreaterThan(0);
      expect(firsts[0]).toBeLessThan(20);
      expect(progress.length).toBeGreaterThan(5);
      expect(progress.at(-1)).toBe(600);
      expect(pauses).toBe(progress.length - 1);
      expect(table!.rowOfId(table!.idAt(599)!)).toBe(599);
    }
  });

  test('a count the service misreported only sizes the arrays', async () => {
    const body = listBody(300);
    for (const expected of [1, 300, 5000]) {
      const table = await readOrderList(body, expected, {
        ...SMALL_SLICES,
        pause: async () => undefined,
      });
      expect(table!.count).toBe(300);
      expect(rowsOf(table!)).toEqual(parseOrders(body));
    }
  });

  test('a value holding what looks like a boundary makes the list be read whole, correctly', async () => {
    const body = listBody(400, { extra: () => ',"note":"a},{\\"id\\":1}"' });
    const table = await readOrderList(body, 400, { ...SMALL_SLICES, pause: async () => undefined });
    expect(rowsOf(table!)).toEqual(parseOrders(body));
  });

  test('an invalid list is reported as one, not half read', async () => {
    const body = listBody(400).replace('"quantity":2', '"quantity":"two"');
    await expect(
      readOrderList(body, 400, { ...SMALL_SLICES, pause: async () => undefined }),
    ).rejects.toThrow(InvalidOrdersError);
  });

  test('stops when the list is no longer wanted', async () => {
    let slices = 0;
    const table = await readOrderList(listBody(600), 600, {
      ...SMALL_SLICES,
      pause: async () => void slices++,
      cancelled: () => slices >= 2,
    });
    expect(table).toBeUndefined();
    expect(slices).toBe(2);
  });
});

test('short and empty lists are read in one go', async () => {
  let firsts = 0;
  const short = await readOrderList(listBody(3), 3, { onFirstRows: () => firsts++ });
  expect(short!.count).toBe(3);
  expect(firsts).toBe(0);
  expect((await readOrderList('[]', 0))!.count).toBe(0);
  expect((await readOrderList(' [ ] ', 0))!.count).toBe(0);
  expect(rowsOf(OrderTable.fromOrders([]))).toEqual([]);
});

test('between slices the page gets its turn (a message task)', async () => {
  const order: string[] = [];
  const reading = readOrderList(listBody(300), 300, { firstSlice: 1_000, slice: 3_000 }).then(() =>
    order.push('read'),
  );
  setTimeout(() => order.push('timer'), 0);
  await reading;
  expect(order).toEqual(['timer', 'read']);
});
