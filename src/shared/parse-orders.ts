// Parses the order list: int64-exact and strict, without giving up much of
// JSON.parse's speed on lists of a million orders.
//
// JSON.parse turns ids above 2^53 into the wrong numbers. A reviver with
// `context.source` is exact but ~7x slower (measured: 5 s for a million
// orders), and a JS-written JSON parser is slower still. So the list is
// parsed plainly; when an id is not a safe integer, its exact digits are
// taken from one scan of the text for `id`/`petId` values of 16 or more
// digits, matched to the parsed orders in document order and checked against
// the parsed value. If that correspondence ever fails (nested or duplicate
// keys), the list is parsed again with those values quoted first. The
// patterns need a `{` or `,` before the key, which a JSON string cannot hold
// unescaped before a quote, so they only match real keys.

import type { Order } from './order.ts';
import { isInt64Text } from './order.ts';

const LONG_ID = /([{,]\s*"(?:id|petId)"\s*:\s*)(-?\d{16,})(?=\s*[,}\]])/g;
const LONG_ID_DIGITS = /[{,]\s*"(?:id|petId)"\s*:\s*(-?\d{16,})/g;
/** Integers of 16 digits or more: the ones the scan finds. */
const LONG = 1e15;

// RFC 3339 date-time (the interface's ISO 8601 date-time), checked by shape
// and field ranges: a pattern is far cheaper than Date.parse per order.
const DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt ](?:[01]\d|2[0-3]):[0-5]\d(?::(?:[0-5]\d|60)(?:\.\d{1,9})?)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/;

export class InvalidOrdersError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidOrdersError';
  }
}

/** The exact digits of ids could not be matched to the parsed list: parse again, quoted. */
class ExactDigitsLost extends Error {}

/** The exact digits of the long id values, in document order, scanned once on first need. */
class LongIdDigits {
  readonly #text: string;
  #digits: string[] | undefined;
  /** How many long id values the parsed orders have shown so far. */
  seen = 0;

  constructor(text: string) {
    this.#text = text;
  }

  take(value: number): string {
    const index = this.seen++;
    if (!this.#digits) {
      this.#digits = [];
      for (let m = LONG_ID_DIGITS.exec(this.#text); m; m = LONG_ID_DIGITS.exec(this.#text))
        this.#digits.push(m[1]!);
      LONG_ID_DIGITS.lastIndex = 0;
    }
    const digits = this.#digits[index];
    // The digits must be the ones JSON.parse read, rounded as it rounds them.
    if (digits === undefined || Number(digits) !== value || !isInt64Text(digits))
      throw new ExactDigitsLost();
    return digits;
  }
}

function int64Field(
  value: unknown,
  field: string,
  index: number,
  long: LongIdDigits | undefined,
): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') {
    if (Number.isInteger(value) && long) {
      if (Math.abs(value) >= LONG) {
        const exact = long.take(value);
        if (Number.isSafeInteger(value)) return String(value);
        return exact;
      }
      return String(value);
    }
    if (Number.isSafeInteger(value)) return String(value);
    if (Number.isInteger(value)) {
      throw new InvalidOrdersError(`order ${index + 1}: "${field}" is too large to read exactly`);
    }
  } else if (typeof value === 'string' && isInt64Text(value)) {
    return value;
  }
  throw new InvalidOrdersError(`order ${index + 1}: "${field}" is not a whole number`);
}

function isLong(value: unknown): boolean {
  return typeof value === 'number' && Math.abs(value) >= LONG;
}

function petIdComesFirst(o: Record<string, unknown>): boolean {
  for (const key in o) {
    if (key === 'id') return false;
    if (key === 'petId') return true;
  }
  return false;
}

function toOrders(text: string, quoted: boolean): Order[] {
  const long = quoted ? undefined : new LongIdDigits(text);
  let data: unknown;
  try {
    data = JSON.parse(quoted ? text.replace(LONG_ID, '$1"$2"') : text);
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
    if (shipDate !== undefined && (typeof shipDate !== 'string' || !DATE_TIME.test(shipDate))) {
      throw new InvalidOrdersError(`order ${i + 1}: "shipDate" is not a date-time`);
    }
    if (complete !== undefined && typeof complete !== 'boolean') {
      throw new InvalidOrdersError(`order ${i + 1}: "complete" is not true or false`);
    }
    // Long ids are taken from the scan in document order, so read them in the order the object has them.
    let id: string | undefined;
    let petId: string | undefined;
    if (long && isLong(o.id) && isLong(o.petId) && petIdComesFirst(o)) {
      petId = int64Field(o.petId, 'petId', i, long);
      id = int64Field(o.id, 'id', i, long);
    } else {
      id = int64Field(o.id, 'id', i, long);
      petId = int64Field(o.petId, 'petId', i, long);
    }
    orders[i] = {
      id,
      petId,
      quantity: quantity as number | undefined,
      shipDate: shipDate as string | undefined,
      complete: complete as boolean | undefined,
    };
  }
  return orders;
}

/** Parses and checks a listOrders body. Throws InvalidOrdersError, never half-accepts. */
export function parseOrders(text: string): Order[] {
  try {
    return toOrders(text, false);
  } catch (error) {
    if (error instanceof ExactDigitsLost) return toOrders(text, true);
    throw error;
  }
}
