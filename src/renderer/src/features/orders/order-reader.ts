// Reads an order list a slice at a time, so a million orders never freeze the
// window: the first rows are on screen within a few milliseconds, and the page
// answers clicks and keys between slices while the rest is read. Each slice is
// cut where one order ends and the next begins, and read by parseOrders like
// any list. A cut that lands inside a value (a string holding "},{") makes
// that slice invalid JSON, never wrong data; the list is then read whole.

import { InvalidOrdersError, parseOrders } from '../../../../shared/parse-orders.ts';
import { OrderTable, OrderTableBuilder } from './order-table.ts';

/** Where one order ends and the next begins (outside strings, which is checked by the parse). */
const BOUNDARY = /\}\s*,\s*\{/g;

export interface ReadOptions {
  /** Called once with a table of the first orders, as soon as they are read (long lists only). */
  readonly onFirstRows?: (table: OrderTable) => void;
  /** Called after each slice with how many orders are read so far. */
  readonly onProgress?: (read: number) => void;
  /** True when the list is no longer wanted: reading stops and the result is undefined. */
  readonly cancelled?: () => boolean;
  /** Characters of the first slice (a screenful of orders and more) and of the others. */
  readonly firstSlice?: number;
  readonly slice?: number;
  /** Gives the page its turn between slices. */
  readonly pause?: () => Promise<void>;
}

/** A macrotask turn that timers' throttling in a hidden window does not slow down. */
export function pauseForPage(): Promise<void> {
  if (typeof MessageChannel !== 'function') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * The table of a validated listOrders body; `expected` is the count the main
 * process found. Throws InvalidOrdersError for a list that is not valid.
 */
export async function readOrderList(
  body: string,
  expected: number,
  options: ReadOptions = {},
): Promise<OrderTable | undefined> {
  const { firstSlice = 200_000, slice = 2_000_000, pause = pauseForPage } = options;
  const whole = () => OrderTable.fromOrders(parseOrders(body));
  const close = body.lastIndexOf(']');
  let start = body.indexOf('{');
  // A short list is read in one go.
  if (start < 0 || close < start || body.length <= firstSlice) return whole();

  const builder = new OrderTableBuilder(expected);
  let size = firstSlice;
  let first = true;
  while (start < close) {
    let end = close;
    let next = close;
    if (start + size < close) {
      BOUNDARY.lastIndex = start + size;
      const boundary = BOUNDARY.exec(body);
      if (boundary) {
        end = boundary.index + 1;
        next = boundary.index + boundary[0].length - 1;
      }
    }
    let orders;
    try {
      orders = parseOrders(`[${body.slice(start, end)}]`);
    } catch (error) {
      // A cut inside a value: read the list whole (this also reports a list that is truly invalid).
      if (error instanceof InvalidOrdersError) return whole();
      throw error;
    }
    builder.append(orders);
    if (first) options.onFirstRows?.(OrderTable.fromOrders(orders));
    options.onProgress?.(builder.count);
    first = false;
    size = slice;
    start = next;
    if (start < close) {
      await pause();
      if (options.cancelled?.()) return undefined;
    }
  }
  return builder.build();
}
