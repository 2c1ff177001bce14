// Parses an order list given as text: int64-exact and strict. The reading
// itself is the order-list scanner's (order-list-scanner.ts), the one exact
// reader of order lists; this wraps it for callers that hold the text.

import type { Order } from './order.ts';
import { ordersOf } from './order-columns.ts';
import { InvalidOrdersError, OrderListScanner } from './order-list-scanner.ts';

export { InvalidOrdersError };

/** Parses and checks a listOrders body. Throws InvalidOrdersError, never half-accepts. */
export function parseOrders(text: string): Order[] {
  const scanner = new OrderListScanner();
  scanner.push(new TextEncoder().encode(text));
  return ordersOf(scanner.finish());
}
