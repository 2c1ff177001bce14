// Parses the order list: int64-exact and strict, without giving up much of
// JSON.parse's speed on lists of a million orders.
//
// JSON.parse turns ids above 2^53 into the wrong numbers. Rather than a
// reviver (called for every value) or a JS-written JSON parser (several times
// slower), the text is first scanned for long digit runs; only when there is
// one are `id`/`petId` values of 16 or more digits quoted before parsing.
// The pattern needs a `{` or `,` before the key, which a JSON string cannot
// hold unescaped before a quote, so it only matches real keys.

import type { Order } from './order.ts';
import { isInt64Text } from './order.ts';

const LONG_DIGITS = /\d{16}/;
const LONG_ID = /([{,]\s*"(?:id|petId)"\s*:\s*)(-?\d{16,})(?=\s*[,}\]])/g;

export class InvalidOrdersError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidOrdersError';
  }
}

function int64Field(value: unknown, field: string, index: number): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return String(value);
  } else if (typeof value === 'string' && isInt64Text(value)) {
    return value;
  }
  throw new InvalidOrdersError(`order ${index + 1}: "${field}" is not a whole number`);
}

/** Parses and checks a listOrders body. Throws InvalidOrdersError, never half-accepts. */
export function parseOrders(text: string): Order[] {
  const prepared = LONG_DIGITS.test(text) ? text.replace(LONG_ID, '$1"$2"') : text;
  let data: unknown;
  try {
    data = JSON.parse(prepared);
  } catch {
    throw new InvalidOrdersError('the list is not valid JSON (it may have been cut off)');
  }
  if (!Array.isArray(data)) throw new InvalidOrdersError('the answer is not a list of orders');
  const orders: Order[] = new Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const raw: unknown = data[i];
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new InvalidOrdersError(`item ${i + 1} is not an order`);
    }
    const o = raw as Record<string, unknown>;
    // null is read as absent: no field of Order is required.
    const quantity = o.quantity ?? undefined;
    const shipDate = o.shipDate ?? undefined;
    const complete = o.complete ?? undefined;
    if (quantity !== undefined && !Number.isSafeInteger(quantity)) {
      throw new InvalidOrdersError(`order ${i + 1}: "quantity" is not a whole number`);
    }
    if (shipDate !== undefined && (typeof shipDate !== 'string' || Number.isNaN(Date.parse(shipDate)))) {
      throw new InvalidOrdersError(`order ${i + 1}: "shipDate" is not a date-time`);
    }
    if (complete !== undefined && typeof complete !== 'boolean') {
      throw new InvalidOrdersError(`order ${i + 1}: "complete" is not true or false`);
    }
    orders[i] = {
      id: int64Field(o.id ?? undefined, 'id', i),
      petId: int64Field(o.petId ?? undefined, 'petId', i),
      quantity: quantity as number | undefined,
      shipDate: shipDate as string | undefined,
      complete: complete as boolean | undefined,
    };
  }
  return orders;
}
