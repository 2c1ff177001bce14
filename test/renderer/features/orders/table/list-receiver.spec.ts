// The renderer's side of a list's stream: the rows so far become tables for
// the screen, and the whole table comes only when the call says the list is
// whole and every row of it came; a list that fails or comes short gives none.

import { describe, expect, test } from 'vitest';
import { receiveList } from '../../../../../src/renderer/src/features/orders/table/list-receiver.ts';
import type { OrderTable } from '../../../../../src/renderer/src/features/orders/table/order-table.ts';
import { ordersOf } from '../../../../../src/shared/order-columns.ts';
import type { OrderStreamMessage, OrderStreams } from '../../../../../src/shared/order-stream.ts';
import { screenColumnsOf } from '../../../../../src/shared/screen-columns.ts';
import { columnsOf } from './table-of.ts';

const orders = Array.from({ length: 9 }, (_, k) => ({ id: String(k * 11), quantity: k }));
const whole = columnsOf(orders);

/** A stream that delivers `messages` while the call is under way, then the call's answer. */
function streamsOf(messages: OrderStreamMessage[]): OrderStreams {
  return {
    listen(_streamId, onMessage) {
      queueMicrotask(() => messages.forEach(onMessage));
      return () => undefined;
    },
  };
}
const call = (count: number | undefined) => async () => {
  await new Promise((resolve) => setTimeout(resolve, 5));
  return count;
};
const rows = (from: number, to: number): OrderStreamMessage => ({
  kind: 'rows',
  from,
  columns: screenColumnsOf(whole, from, to),
});

describe('receiveList', () => {
  test('a stream whose end never comes is broken after the bounded wait, not loading for ever', async () => {
    const waited: number[] = [];
    const received = await receiveList(streamsOf([rows(0, 2)]), call(9), (count) => count, {
      endWaitMs: 1234,
      wait: async (ms) => void waited.push(ms),
    });
    expect(waited).toEqual([1234]);
    expect(received).toMatchObject({ result: 9, broken: true });
    expect(received.table).toBeUndefined();
  });

  test('shows the rows so far, then gives the whole table', async () => {
    const shown: number[] = [];
    let now = 0;
    const received = await receiveList(
      streamsOf([rows(0, 2), rows(2, 5), rows(5, 9), { kind: 'end', count: 9 }]),
      call(9),
      (count) => count,
      { onRows: (table) => shown.push(table.count), intervalMs: 10, now: () => (now += 6) },
    );
    expect(shown).toEqual([2, 9]); // the middle part came too soon after the first
    expect(received.broken).toBeUndefined();
    const table = received.table!;
    expect(Array.from({ length: table.count }, (_, row) => table.orderAt(row))).toEqual(
      ordersOf(whole),
    );
  });

  test('at the end mark, the rows not shown yet are shown before the call answers', async () => {
    const shown: number[] = [];
    const tables: OrderTable[] = [];
    let answered = false;
    const received = await receiveList(
      streamsOf([rows(0, 2), rows(2, 5), rows(5, 9), { kind: 'end', count: 9 }]),
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        answered = true;
        return 9;
      },
      (count) => count,
      {
        onRows: (table) => {
          tables.push(table);
          shown.push(answered ? -table.count : table.count);
        },
        intervalMs: 1000,
        now: () => 0,
      },
    );
    // The first part, then all nine at the end mark, while the call had not answered yet.
    expect(shown).toEqual([2, 9]);
    expect(received.table?.count).toBe(9);
    // Built whole at the end mark: the answer hands over the table already on screen.
    expect(received.table).toBe(tables.at(-1));
    // A stream that failed shows nothing more at its end.
    const failed: number[] = [];
    await receiveList(
      streamsOf([rows(0, 2), rows(5, 9), { kind: 'end', count: 9 }]),
      call(9),
      (count) => count,
      { onRows: (table) => failed.push(table.count), intervalMs: 1000, now: () => 0 },
    );
    expect(failed).toEqual([2]);
  });

  test('a list that failed, came short or out of order gives no table', async () => {
    const cases: [OrderStreamMessage[], number | undefined, boolean | undefined][] = [
      [[rows(0, 4), { kind: 'failed' }], undefined, undefined], // the call failed too
      [[rows(0, 4), { kind: 'failed' }], 9, true], // the call said whole, the stream did not
      [[rows(0, 4), { kind: 'end', count: 4 }], 9, true], // short
      [[rows(0, 4), rows(5, 9), { kind: 'end', count: 9 }], 9, true], // a part missing
    ];
    for (const [messages, count, broken] of cases) {
      const received = await receiveList(streamsOf(messages), call(count), (c) => c);
      expect(received.table).toBeUndefined();
      expect(received.broken).toBe(broken);
    }
  });
});
