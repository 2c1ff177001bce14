// A table of given orders, built as the app builds one: the orders written
// as the service would send them, read by main's scanner into columns, and
// the columns into the renderer's table.

import type { OrderTable } from '../../../../../src/renderer/src/features/orders/table/order-table.ts';
import { OrderTable as Table } from '../../../../../src/renderer/src/features/orders/table/order-table.ts';
import type { OrderColumns } from '../../../../../src/shared/order-columns.ts';
import { OrderListScanner } from '../../../../../src/shared/order-list-scanner.ts';
import type { Order } from '../../../../../src/shared/order.ts';

/** The JSON a service would send for these orders (ids as bare digits, so exact). */
export function listBodyOf(orders: readonly Order[]): string {
  const fields = (order: Order) =>
    [
      order.id === undefined ? undefined : `"id":${order.id}`,
      order.petId === undefined ? undefined : `"petId":${order.petId}`,
      order.quantity === undefined ? undefined : `"quantity":${order.quantity}`,
      order.shipDate === undefined ? undefined : `"shipDate":${JSON.stringify(order.shipDate)}`,
      order.complete === undefined ? undefined : `"complete":${order.complete}`,
    ].filter((field) => field !== undefined);
  return `[${orders.map((order) => `{${fields(order).join(',')}}`).join(',')}]`;
}

export function columnsOf(orders: readonly Order[]): OrderColumns {
  const scanner = new OrderListScanner();
  scanner.push(new TextEncoder().encode(listBodyOf(orders)));
  return scanner.finish();
}

export function tableOf(orders: readonly Order[]): OrderTable {
  return Table.fromColumns(columnsOf(orders));
}
