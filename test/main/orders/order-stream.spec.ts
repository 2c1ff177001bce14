// A list's rows on their way to the renderer: RowsSender's parts as the
// scanner reads (the first at once, then at most every interval, then the
// rest and the end mark; a failure after some rows says so).

import { describe, expect, test } from 'vitest';
import { RowsSender, type OrderStreamSink } from '../../../src/main/orders/order-stream.ts';
import { ordersOf } from '../../../src/shared/order-columns.ts';
import type { OrderStreamMessage } from '../../../src/shared/order-stream.ts';
import { ordersOfScreen } from '../../support/screen-orders.ts';
import { columnsOf } from '../../renderer/features/orders/table/table-of.ts';

const orders = Array.from({ length: 10 }, (_, k) => ({
  id: String(9007199254740993n + BigInt(k)),
  petId: k % 3 === 0 ? undefined : String(k),
  quantity: k,
  shipDate: k % 2 ? '2025-06-13T19:34:25+02:00' : undefined,
  complete: k % 4 === 0 ? undefined : k % 2 === 0,
}));
const whole = columnsOf(orders);

function recorder() {
  const messages: OrderStreamMessage[] = [];
  let opened = 0;
  let closed = 0;
  const open = (streamId: string): OrderStreamSink => {
    expect(streamId).toBe('list-1');
    opened += 1;
    return { post: (message) => messages.push(message), close: () => (closed += 1) };
  };
  return { open, messages, opened: () => opened, closed: () => closed };
}

/** What the scanner has read after `count` rows of 10 (the body's bytes in step). */
const readSoFar = (count: number) => ({
  count,
  rowsSoFar: () => columnsOf(orders.slice(0, count)),
  receivedBytes: count * 100,
  totalBytes: 1000,
});

describe('RowsSender', () => {
  test('the first rows at once, then at most every interval, then the rest and the end', () => {
    const sink = recorder();
    let now = 0;
    const sender = new RowsSender(sink.open, 'list-1', () => now, 100);
    sender.offer(readSoFar(0)); // no row yet: nothing
    expect(sink.opened()).toBe(0);
    sender.offer(readSoFar(2));
    now = 50;
    sender.offer(readSoFar(4)); // too soon
    now = 150;
    sender.offer(readSoFar(6));
    sender.end(whole);
    sender.fail(); // after the end: nothing more
    const parts = sink.messages.map((m) =>
      m.kind === 'rows' ? { from: m.from, count: m.columns.count, expected: m.expected } : m,
    );
    expect(parts).toEqual([
      { from: 0, count: 2, expected: 11 }, // 1000 bytes at 100 per row, 2% spare
      { from: 2, count: 4, expected: undefined },
      { from: 6, count: 4, expected: undefined },
      { kind: 'end', count: 10 },
    ]);
    const received = sink.messages.flatMap((m) =>
      m.kind === 'rows' ? ordersOfScreen(m.columns) : [],
    );
    expect(received).toEqual(ordersOf(whole));
    expect(sink.closed()).toBe(1);
  });

  test('a list that fails after some rows says so; one that fails before any opens no stream', () => {
    const sink = recorder();
    const sender = new RowsSender(sink.open, 'list-1', () => 0);
    sender.offer(readSoFar(3));
    sender.fail();
    expect(sink.messages.map((m) => m.kind)).toEqual(['rows', 'failed']);
    expect(sink.closed()).toBe(1);

    const none = recorder();
    new RowsSender(none.open, 'list-1', () => 0).fail();
    expect(none.opened()).toBe(0);
  });

  test('a call without a stream id sends nothing', () => {
    const sink = recorder();
    const sender = new RowsSender(sink.open, undefined, () => 0);
    sender.offer(readSoFar(5));
    sender.end(whole);
    expect(sink.opened()).toBe(0);
  });
});
