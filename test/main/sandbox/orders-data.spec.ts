import { describe, expect, it } from 'vitest';
import {
  BIG_ORDER_ID_BASE,
  formatShipDate,
  OrderBook,
} from '../../../src/main/sandbox/orders-data.ts';
import { idsInText } from './sandbox-harness.ts';

const text = (book: OrderBook) => Buffer.concat([...book.listBody().parts]).toString('utf8');

interface Order {
  id: number;
  petId: number;
  quantity: number;
  shipDate: string;
  complete: boolean;
}

describe('OrderBook', () => {
  it('generates the same orders from the same seed and others from another seed', () => {
    const a = text(new OrderBook({ count: 500, seed: 1 }));
    expect(text(new OrderBook({ count: 500, seed: 1 }))).toBe(a);
    expect(text(new OrderBook({ count: 500, seed: 2 }))).not.toBe(a);
  });

  it('writes Order objects with exactly the interface fields', () => {
    const orders = JSON.parse(text(new OrderBook({ count: 300, seed: 5 }))) as Order[];
    expect(orders).toHaveLength(300);
    for (const order of orders) {
      expect(Object.keys(order)).toEqual(['id', 'petId', 'quantity', 'shipDate', 'complete']);
      expect(Number.isInteger(order.id) && Number.isInteger(order.petId)).toBe(true);
      expect(order.quantity).toBeGreaterThanOrEqual(1);
      expect(order.shipDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(new Date(order.shipDate).toISOString().replace('.000Z', 'Z')).toBe(order.shipDate);
      expect(typeof order.complete).toBe('boolean');
    }
    expect(new Set(orders.map((o) => o.id)).size).toBe(300);
  });

  it('mixes pending and shipped about 60/40, and only shipped orders are complete', () => {
    const book = new OrderBook({ count: 5000, seed: 11 });
    const pending = new Set(book.orderIds({ status: 'pending' }));
    const shipped = book.orderIds({ status: 'shipped' });
    expect(pending.size + shipped.length).toBe(5000);
    expect(pending.size / 5000).toBeGreaterThan(0.55);
    expect(pending.size / 5000).toBeLessThan(0.65);
    const orders = JSON.parse(text(book)) as Order[];
    const completed = orders.filter((o) => o.complete);
    expect(completed.length).toBeGreaterThan(0);
    for (const order of completed) expect(pending.has(String(order.id))).toBe(false);
  });

  it('cancels only pending orders, and a cancelled order leaves the list', () => {
    const book = new OrderBook({ count: 50, seed: 1 });
    const [pending] = book.orderIds({ status: 'pending', limit: 1 });
    const [shipped] = book.orderIds({ status: 'shipped', limit: 1 });
    const before = text(book);
    expect(book.cancel(BigInt(shipped ?? ''))).toBe('already-shipped');
    expect(text(book)).toBe(before);
    expect(book.cancel(BigInt(pending ?? ''))).toBe('cancelled');
    expect(book.status(BigInt(pending ?? ''))).toBe('cancelled');
    expect(idsInText(text(book))).not.toContain(pending);
    expect(idsInText(text(book))).toHaveLength(49);
    expect(book.cancel(BigInt(pending ?? ''))).toBe('not-found');
    expect(book.cancel(999_999n)).toBe('not-found');
    expect(book.cancel(0n)).toBe('not-found');
  });

  it('keeps complete consistent when a status is forced', () => {
    const book = new OrderBook({ count: 2000, seed: 4 });
    const orders = JSON.parse(text(book)) as Order[];
    const done = orders.find((o) => o.complete);
    expect(done).toBeDefined();
    book.setStatus(BigInt(done?.id ?? 0), 'pending');
    const again = (JSON.parse(text(book)) as Order[]).find((o) => o.id === done?.id);
    expect(again?.complete).toBe(false);
    expect(() => book.setStatus(10_000n, 'shipped')).toThrow(RangeError);
  });

  it('rebuilds only what changed and keeps a cached body otherwise', () => {
    const book = new OrderBook({ count: 10_000, seed: 2 });
    const first = book.listBody();
    expect(book.listBody()).toBe(first);
    const [pending] = book.orderIds({ status: 'pending', limit: 1 });
    book.cancel(BigInt(pending ?? ''));
    const second = book.listBody();
    expect(second).not.toBe(first);
    // Chunks away from the change are the very same buffers.
    expect(second.parts.at(-2)).toBe(first.parts.at(-2));
    expect(second.length).toBe(Buffer.concat([...second.parts]).length);
  });

  it('writes an empty list as []', () => {
    const book = new OrderBook({ count: 1, seed: 1 });
    const [id] = book.orderIds();
    book.setStatus(BigInt(id ?? ''), 'cancelled');
    expect(text(book)).toBe('[]');
    expect(text(new OrderBook({ count: 0, seed: 1 }))).toBe('[]');
  });

  it('puts ids above 2^53 exactly in the text in big-id mode', () => {
    const book = new OrderBook({ count: 20, seed: 1, bigIds: true });
    const ids = idsInText(text(book));
    expect(ids[0]).toBe('9007199254740993');
    expect(ids[1]).toBe((BIG_ORDER_ID_BASE + 7n).toString());
    for (const id of ids) expect(BigInt(id) > 2n ** 53n).toBe(true);
    const petIds = [...text(book).matchAll(/"petId":([0-9]+)/g)].map((m) => BigInt(m[1] ?? ''));
    for (const petId of petIds) expect(petId > 2n ** 54n).toBe(true);
    expect(book.indexOf(9007199254740993n)).toBe(0);
    expect(book.indexOf(9007199254740994n)).toBeUndefined();
    expect(book.indexOf(BIG_ORDER_ID_BASE + 7n * 20n)).toBeUndefined();
  });

  it('scales to a million orders', () => {
    const book = new OrderBook({ count: 1_000_000, seed: 1 });
    const body = book.listBody();
    const all = Buffer.concat([...body.parts]);
    expect(all.length).toBe(body.length);
    expect(all.subarray(0, 8).toString()).toBe('[{"id":1');
    expect(all.subarray(-1).toString()).toBe(']');
    // Count objects without parsing 90 MB: one "petId" per order.
    expect(all.toString('latin1').split('"petId"').length - 1).toBe(1_000_000);
  });

  it('rejects a negative or fractional count', () => {
    expect(() => new OrderBook({ count: -1, seed: 1 })).toThrow(RangeError);
    expect(() => new OrderBook({ count: 1.5, seed: 1 })).toThrow(RangeError);
  });
});

describe('formatShipDate', () => {
  it('matches toISOString without milliseconds', () => {
    for (const seconds of [0, 59, 3600, 1_748_736_000, 1_748_779_199, 1_717_200_000 + 86_399]) {
      expect(formatShipDate(seconds)).toBe(
        new Date(seconds * 1000).toISOString().replace('.000Z', 'Z'),
      );
    }
  });
});
