// Reads a listOrders body (a JSON array of Order objects) from its bytes,
// chunk by chunk as they arrive, into columns (order-columns.ts). It is a
// complete, strict JSON reader, so what it accepts is exactly what JSON.parse
// accepts, and the orders are what JSON.parse would give, read exactly:
//
// - an order's id and petId are the values of the order object's own `id`
//   and `petId` keys (the last one where a key is repeated, as JSON.parse
//   keeps), read from their digits, so ids above 2^53 stay exact;
// - a number is taken by its exact value: 9223372036854775769e0 is an id,
//   9007199254740992.5 is not a whole number;
// - escaped key names ("\u0069d") are the keys they spell;
// - null is read as absent, unknown keys are skipped whatever they hold;
// - anything else refuses the whole list with one plain message.
//
// An order in the form services usually send (the interface's fields in its
// order, compact) is read in one straight pass that checks every byte (the
// fixed text four bytes at a time, the ids copied to their column as they are
// read, straight into the row once the order is whole); any other order by
// the general reader, where the common forms (plain keys,
// integers and date strings) are still read straight from the bytes and the
// rare ones (escapes, fractions, exponents) are decoded on an exact path. An
// order cut by a chunk boundary is read again from its start with the next
// chunk's first bytes.

import { integerOfNumber } from './json-integer.ts';
import { isInt64Text } from './order.ts';
import {
  COMPLETE_ABSENT,
  COMPLETE_FALSE,
  COMPLETE_TRUE,
  type OrderColumns,
} from './order-columns.ts';
import { dateTimeMs, dateTimeMsOfText, PLAIN_DATE_LENGTH, plainDateTimeMs } from './rfc3339.ts';
import { isPlainDate, SHIP_ABSENT, SHIP_AS_SENT, SHIP_PLAIN } from './ship-dates.ts';
import { fitted, resized, type TypedColumn } from './typed-arrays.ts';

/** A typed array's constructor, to make one on a given buffer or of a given length. */
interface TypedColumnKind<A extends TypedColumn> {
  new (length: number): A;
  new (buffer: SharedArrayBuffer): A;
  readonly BYTES_PER_ELEMENT: number;
}

export class InvalidOrdersError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidOrdersError';
  }
}

const NOT_JSON = 'the list is not valid JSON; it may have been cut off';
const NOT_A_LIST = 'the answer is not a list of orders';
/** Said when the body starts as HTML does: a sign-in page or a proxy's error page, not data. */
export const WEB_PAGE = 'the service answered with a web page, not a list of orders';
const LESS_THAN = 60;
/** A UTF-8 byte-order mark, which JSON.parse after text() would have read past. */
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf] as const;

const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const QUOTE = 34;
const PLUS = 43;
const COMMA = 44;
const MINUS = 45;
const DOT = 46;
const SLASH = 47;
const ZERO = 48;
const NINE = 57;
const COLON = 58;
const UPPER_E = 69;
const OPEN_BRACKET = 91;
const BACKSLASH = 92;
const CLOSE_BRACKET = 93;
const UPPER_D = 68;
const UPPER_I = 73;
const LOWER_A = 97;
const LOWER_B = 98;
const LOWER_C = 99;
const LOWER_D = 100;
const LOWER_E = 101;
const LOWER_F = 102;
const LOWER_H = 104;
const LOWER_I = 105;
const LOWER_L = 108;
const LOWER_M = 109;
const LOWER_N = 110;
const LOWER_O = 111;
const LOWER_P = 112;
const LOWER_Q = 113;
const LOWER_R = 114;
const LOWER_S = 115;
const LOWER_T = 116;
const LOWER_U = 117;
const LOWER_Y = 121;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/** Returned by the readers below when the bytes end inside the value. */
const MORE = -1;
/** Returned by the plain-order reader for an order in another form. */
const NOT_PLAIN = -2;
/** Orders in a row not in the plain form after which a list is read by the general reader only. */
const MAX_PLAIN_MISSES = 64;
/**
 * The most bytes of a plain order but its ship date: the keys and
 * punctuation, two 19-digit ids, a 15-digit quantity and `false`.
 */
const PLAIN_ORDER_MAX_BYTES = 112;
/**
 * Bytes of the id text a plain order may write before it is known to be one:
 * up to 20 digits of each id (the 20th refuses it), a tab and a newline.
 */
const PLAIN_ID_LINE_BYTES = 42;
// A plain order's fixed text, four bytes at a time (little-endian words).
const wordOf = (ascii: string): number =>
  ascii.charCodeAt(0) |
  (ascii.charCodeAt(1) << 8) |
  (ascii.charCodeAt(2) << 16) |
  (ascii.charCodeAt(3) << 24);
const KEY_ID = wordOf('"id"');
const KEY_PET_ID_0 = wordOf(',"pe');
const KEY_PET_ID_1 = wordOf('tId"');
const KEY_QUANTITY_0 = wordOf(',"qu');
const KEY_QUANTITY_1 = wordOf('anti');
const KEY_QUANTITY_2 = wordOf('ty":');
const KEY_SHIP_DATE_0 = wordOf(',"sh');
const KEY_SHIP_DATE_1 = wordOf('ipDa');
const KEY_SHIP_DATE_2 = wordOf('te":');
const KEY_COMPLETE_0 = wordOf('","c');
const KEY_COMPLETE_1 = wordOf('ompl');
const KEY_COMPLETE_2 = wordOf('ete"');
const WORD_TRUE = wordOf('true');
const WORD_FALS = wordOf('fals');
/** The bytes the order's own keys are told by: `shipDate"` and the like. */
const KEY_ROOM = 9;

// What a key means for an order.
const OTHER = 0;
const ID = 1;
const PET_ID = 2;
const QUANTITY = 3;
const SHIP_DATE = 4;
const COMPLETE = 5;

// A field's state: its last value so far.
const ABSENT = 0;
/** The value's text is in the chunk's bytes (canonical digits or a plain date). */
const IN_BYTES = 1;
/** The value was decoded on the exact path; its text is a string. */
const IN_TEXT = 2;
const NOT_WHOLE = 3;
const TOO_LARGE = 4;
const NOT_DATE = 5;
const NOT_BOOLEAN = 6;

// The list around the orders.
const BEFORE_LIST = 0;
const FIRST_ITEM = 1;
const AFTER_ITEM = 2;
const NEXT_ITEM = 3;
const AFTER_LIST = 4;

const INT64_MAX = bytesOf('9223372036854775807');
const INT64_MIN_DIGITS = bytesOf('9223372036854775808');
const TRUE = bytesOf('true');
const FALSE = bytesOf('false');
const NULL = bytesOf('null');

function bytesOf(ascii: string): Uint8Array {
  return Uint8Array.from(ascii, (character) => character.charCodeAt(0));
}

const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder();

function notJson(): InvalidOrdersError {
  return new InvalidOrdersError(NOT_JSON);
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

/** Bytes that can begin a JSON value (so a wrong one is a wrong kind of value, not broken JSON). */
function beginsValue(code: number): boolean {
  return (
    code === QUOTE ||
    code === OPEN_BRACE ||
    code === OPEN_BRACKET ||
    code === MINUS ||
    isDigit(code) ||
    code === LOWER_T ||
    code === LOWER_F ||
    code === LOWER_N
  );
}

function isSpace(code: number): boolean {
  return code <= SPACE && (code === SPACE || code === LF || code === CR || code === TAB);
}

function skipSpace(data: Uint8Array, p: number, n: number): number {
  while (p < n && isSpace(data[p]!)) p++;
  return p;
}

function isHex(code: number): boolean {
  return isDigit(code) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/** From just after a string's opening quote to just after its closing one, checking escapes. */
function skipString(data: Uint8Array, p: number, n: number): number {
  for (;;) {
    if (p >= n) return MORE;
    const c = data[p++]!;
    if (c === QUOTE) return p;
    if (c === BACKSLASH) {
      if (p >= n) return MORE;
      const e = data[p++]!;
      if (e === LOWER_U) {
        if (p + 4 > n) return MORE;
        if (
          !isHex(data[p]!) ||
          !isHex(data[p + 1]!) ||
          !isHex(data[p + 2]!) ||
          !isHex(data[p + 3]!)
        )
          throw notJson();
        p += 4;
      } else if (
        e !== QUOTE &&
        e !== BACKSLASH &&
        e !== SLASH &&
        e !== LOWER_B &&
        e !== LOWER_F &&
        e !== LOWER_N &&
        e !== LOWER_R &&
        e !== LOWER_T
      ) {
        throw notJson();
      }
    } else if (c < SPACE) {
      throw notJson();
    }
  }
}

/** A JSON number from its first byte to just after it, checking its grammar. */
function skipNumber(data: Uint8Array, p: number, n: number): number {
  if (data[p] === MINUS) p++;
  if (p >= n) return MORE;
  let c = data[p]!;
  if (c === ZERO) {
    p++;
  } else if (c > ZERO && c <= NINE) {
    p++;
    while (p < n && isDigit(data[p]!)) p++;
  } else {
    throw notJson();
  }
  if (p >= n) return MORE;
  c = data[p]!;
  if (c === DOT) {
    p++;
    if (p >= n) return MORE;
    if (!isDigit(data[p]!)) throw notJson();
    while (p < n && isDigit(data[p]!)) p++;
    if (p >= n) return MORE;
    c = data[p]!;
  }
  if (c === LOWER_E || c === UPPER_E) {
    p++;
    if (p >= n) return MORE;
    if (data[p] === PLUS || data[p] === MINUS) p++;
    if (p >= n) return MORE;
    if (!isDigit(data[p]!)) throw notJson();
    while (p < n && isDigit(data[p]!)) p++;
    if (p >= n) return MORE;
  }
  return p;
}

function skipLiteral(data: Uint8Array, p: number, n: number, literal: Uint8Array): number {
  for (let k = 0; k < literal.length; k++) {
    if (p + k >= n) return MORE;
    if (data[p + k] !== literal[k]) throw notJson();
  }
  return p + literal.length;
}

/** Containers open while skipping a value: 1 for an object, 0 for an array. */
let openContainers = new Uint8Array(64);

/** An object member's key and colon, from the key's quote to the start of its value. */
function skipKey(data: Uint8Array, p: number, n: number): number {
  if (data[p] !== QUOTE) throw notJson();
  p = skipString(data, p + 1, n);
  if (p === MORE) return MORE;
  p = skipSpace(data, p, n);
  if (p >= n) return MORE;
  if (data[p] !== COLON) throw notJson();
  p = skipSpace(data, p + 1, n);
  return p >= n ? MORE : p;
}

/** Any JSON value (nested as deep as it likes), checked and skipped. */
function skipValue(data: Uint8Array, p: number, n: number): number {
  let depth = 0;
  for (;;) {
    // At the start of a value.
    if (p >= n) return MORE;
    const c = data[p]!;
    if (c === QUOTE) {
      p = skipString(data, p + 1, n);
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const object = c === OPEN_BRACE;
      p = skipSpace(data, p + 1, n);
      if (p >= n) return MORE;
      if (data[p] === (object ? CLOSE_BRACE : CLOSE_BRACKET)) {
        p++;
      } else {
        if (depth === openContainers.length) openContainers = resized(openContainers, depth * 2);
        openContainers[depth++] = object ? 1 : 0;
        if (object) p = skipKey(data, p, n);
        if (p === MORE) return MORE;
        continue;
      }
    } else if (c === MINUS || isDigit(c)) {
      p = skipNumber(data, p, n);
    } else if (c === LOWER_T) {
      p = skipLiteral(data, p, n, TRUE);
    } else if (c === LOWER_F) {
      p = skipLiteral(data, p, n, FALSE);
    } else if (c === LOWER_N) {
      p = skipLiteral(data, p, n, NULL);
    } else {
      throw notJson();
    }
    if (p === MORE) return MORE;
    // After a value: close containers or go on to the next member.
    for (;;) {
      if (depth === 0) return p;
      p = skipSpace(data, p, n);
      if (p >= n) return MORE;
      const after = data[p]!;
      const object = openContainers[depth - 1] === 1;
      if (after === COMMA) {
        p = skipSpace(data, p + 1, n);
        if (p >= n) return MORE;
        if (object) p = skipKey(data, p, n);
        if (p === MORE) return MORE;
        break;
      }
      if (after !== (object ? CLOSE_BRACE : CLOSE_BRACKET)) throw notJson();
      p++;
      depth--;
    }
  }
}

/** The JSON string token data[from, to) (quotes included), decoded. */
function decodeString(data: Uint8Array, from: number, to: number): string {
  return JSON.parse(utf8.decode(data.subarray(from, to))) as string;
}

function hasEscape(data: Uint8Array, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (data[k] === BACKSLASH) return true;
  return false;
}

function fieldOfName(name: string): number {
  switch (name) {
    case 'id':
      return ID;
    case 'petId':
      return PET_ID;
    case 'quantity':
      return QUANTITY;
    case 'shipDate':
      return SHIP_DATE;
    case 'complete':
      return COMPLETE;
    default:
      return OTHER;
  }
}

// The order's own keys with their closing quote, compared byte by byte: an
// unrolled comparison is several times faster than a loop over a word.

/** `petId"` at data[at]. */
function isPetIdKey(data: Uint8Array, at: number): boolean {
  return (
    data[at + 1] === LOWER_E &&
    data[at + 2] === LOWER_T &&
    data[at + 3] === UPPER_I &&
    data[at + 4] === LOWER_D &&
    data[at + 5] === QUOTE
  );
}

/** `shipDate"` at data[at]. */
function isShipDateKey(data: Uint8Array, at: number): boolean {
  return (
    data[at + 1] === LOWER_H &&
    data[at + 2] === LOWER_I &&
    data[at + 3] === LOWER_P &&
    data[at + 4] === UPPER_D &&
    data[at + 5] === LOWER_A &&
    data[at + 6] === LOWER_T &&
    data[at + 7] === LOWER_E &&
    data[at + 8] === QUOTE
  );
}

/** `quantity"` at data[at]. */
function isQuantityKey(data: Uint8Array, at: number): boolean {
  return (
    data[at + 1] === LOWER_U &&
    data[at + 2] === LOWER_A &&
    data[at + 3] === LOWER_N &&
    data[at + 4] === LOWER_T &&
    data[at + 5] === LOWER_I &&
    data[at + 6] === LOWER_T &&
    data[at + 7] === LOWER_Y &&
    data[at + 8] === QUOTE
  );
}

/** `complete"` at data[at]. */
function isCompleteKey(data: Uint8Array, at: number): boolean {
  return (
    data[at + 1] === LOWER_O &&
    data[at + 2] === LOWER_M &&
    data[at + 3] === LOWER_P &&
    data[at + 4] === LOWER_L &&
    data[at + 5] === LOWER_E &&
    data[at + 6] === LOWER_T &&
    data[at + 7] === LOWER_E &&
    data[at + 8] === QUOTE
  );
}

/** The last value of an integer field (id, petId, quantity) in the order being read. */
class IntegerField {
  state = ABSENT;
  /** IN_BYTES: the canonical digits are data[from, to). */
  from = 0;
  to = 0;
  /** IN_TEXT: the canonical digits. */
  text = '';
  /** The value is high * 1e9 + low, 0 <= low < 1e9. */
  high = 0;
  low = 0;

  /** Reads the value at p; returns where it ends, or MORE. */
  read(data: Uint8Array, p: number, n: number): number {
    const start = p;
    let c = data[p]!;
    if (c !== MINUS && !isDigit(c)) {
      const end = skipValue(data, p, n);
      if (end !== MORE) this.state = c === LOWER_N ? ABSENT : NOT_WHOLE;
      return end;
    }
    const negative = c === MINUS;
    if (negative) {
      if (++p >= n) return MORE;
      c = data[p]!;
    }
    const digits = p;
    // The value is summed as the digits are read: exact up to 15 digits, read again past that.
    let value = 0;
    if (c === ZERO) {
      p++;
    } else if (c > ZERO && c <= NINE) {
      value = c - ZERO;
      while (++p < n) {
        const digit = data[p]! - ZERO;
        if (digit >>> 0 > 9) break;
        value = value * 10 + digit;
      }
    } else {
      throw notJson();
    }
    if (p >= n) return MORE;
    c = data[p]!;
    if (c === DOT || c === LOWER_E || c === UPPER_E || isDigit(c)) {
      // A fraction or an exponent (a digit here follows a leading zero: skipNumber refuses it).
      const end = skipNumber(data, start, n);
      if (end === MORE) return MORE;
      this.#readExact(latin1.decode(data.subarray(start, end)));
      return end;
    }
    const length = p - digits;
    if (length > 19 || (length === 19 && !withinInt64(data, digits, negative))) {
      this.state = TOO_LARGE;
      return p;
    }
    this.state = IN_BYTES;
    this.to = p;
    // "-0" is written "0".
    this.from = negative && length === 1 && data[digits] === ZERO ? digits : start;
    if (length <= 15) this.#split(value, negative);
    else this.#parts(data, digits, p, negative);
    return p;
  }

  /** high and low of a value below 1e15 (exact as a double), negated if need be. */
  #split(value: number, negative: boolean): void {
    const high = value < 1e9 ? 0 : Math.floor(value / 1e9);
    this.#set(high, value - high * 1e9, negative);
  }

  #readExact(token: string): void {
    const integer = integerOfNumber(token);
    if (integer === 'fraction') {
      this.state = NOT_WHOLE;
    } else if (integer === 'too-large' || !isInt64Text(integer)) {
      this.state = TOO_LARGE;
    } else {
      this.state = IN_TEXT;
      this.text = integer;
      const negative = integer.charCodeAt(0) === MINUS;
      const bytes = bytesOf(integer);
      this.#parts(bytes, negative ? 1 : 0, bytes.length, negative);
    }
  }

  /** high and low of the digits bytes[from, to), negated if need be. */
  #parts(bytes: Uint8Array, from: number, to: number, negative: boolean): void {
    let high = 0;
    let low = 0;
    const split = to - 9;
    let k = from;
    for (; k < split; k++) high = high * 10 + bytes[k]! - ZERO;
    for (; k < to; k++) low = low * 10 + bytes[k]! - ZERO;
    this.#set(high, low, negative);
  }

  #set(high: number, low: number, negative: boolean): void {
    if (negative) {
      // -(h * 1e9 + l) = (-h - 1) * 1e9 + (1e9 - l), keeping 0 <= low < 1e9
      if (low === 0) {
        high = high === 0 ? 0 : -high;
      } else {
        high = -high - 1;
        low = 1e9 - low;
      }
    }
    this.high = high;
    this.low = low;
  }

  /** Its digits' length (IN_BYTES or IN_TEXT). */
  get length(): number {
    return this.state === IN_BYTES ? this.to - this.from : this.text.length;
  }
}

/** A 19-digit magnitude at data[from] against int64's limit. */
function withinInt64(data: Uint8Array, from: number, negative: boolean): boolean {
  const limit = negative ? INT64_MIN_DIGITS : INT64_MAX;
  for (let k = 0; k < 19; k++) {
    const d = data[from + k]!;
    if (d !== limit[k]) return d < limit[k]!;
  }
  return true;
}

/** The value of the digits bytes[from, to) (at most 15 of them, so exact). */
function digitsValue(bytes: Uint8Array, from: number, to: number): number {
  let value = 0;
  for (let k = from; k < to; k++) value = value * 10 + bytes[k]! - ZERO;
  return value;
}

/** Copies an integer field's canonical digits to `text` at `at`; returns where they end. */
function copyDigits(data: Uint8Array, field: IntegerField, text: Uint8Array, at: number): number {
  if (field.state === IN_BYTES) {
    for (let k = field.from; k < field.to; k++) text[at++] = data[k]!;
  } else {
    const digits = field.text;
    for (let k = 0; k < digits.length; k++) text[at++] = digits.charCodeAt(k);
  }
  return at;
}

/** Growable typed columns. */
class ColumnWriter {
  capacity: number;
  count = 0;
  idText: Uint8Array;
  idAt = 0;
  shipText: Uint8Array;
  shipAt = 0;
  lineStarts: Uint32Array;
  tabs: Uint32Array;
  idHighs: Float64Array;
  idLows: Uint32Array;
  petIdHighs: Float64Array;
  petIdLows: Uint32Array;
  quantities: Float64Array;
  shipStarts: Uint32Array;
  shipTimes: Float64Array;
  shipForms: Uint8Array;
  complete: Uint8Array;
  widestId = 0;
  widestPetId = 0;
  /** The share of the body read so far (0 when its length is not known), for sizing the texts. */
  bodyShare = 0;

  /** Whether the columns are on SharedArrayBuffers (another thread reads the rows as they come). */
  readonly shared: boolean;

  constructor(rows: number, idBytes: number, shipBytes: number, shared: boolean) {
    this.shared = shared;
    this.capacity = rows;
    this.idText = this.#new(Uint8Array, idBytes);
    this.shipText = this.#new(Uint8Array, shipBytes);
    this.lineStarts = this.#new(Uint32Array, rows + 1);
    this.tabs = this.#new(Uint32Array, rows);
    this.idHighs = this.#new(Float64Array, rows);
    this.idLows = this.#new(Uint32Array, rows);
    this.petIdHighs = this.#new(Float64Array, rows);
    this.petIdLows = this.#new(Uint32Array, rows);
    this.quantities = this.#new(Float64Array, rows);
    this.shipStarts = this.#new(Uint32Array, rows + 1);
    this.shipTimes = this.#new(Float64Array, rows);
    this.shipForms = this.#new(Uint8Array, rows);
    this.complete = this.#new(Uint8Array, rows);
  }

  #new<A extends TypedColumn>(kind: TypedColumnKind<A>, length: number): A {
    return this.shared
      ? new kind(new SharedArrayBuffer(length * kind.BYTES_PER_ELEMENT))
      : new kind(length);
  }

  /** A larger copy of a column, on the same kind of buffer. */
  #resized<A extends TypedColumn>(array: A, size: number, used?: number): A {
    if (!this.shared) return resized(array, size, used);
    const next = this.#new(array.constructor as TypedColumnKind<A>, size);
    next.set(array.subarray(0, used ?? Math.min(array.length, size)));
    return next;
  }

  /** Room for `rows` rows and the given text bytes in all. */
  reserve(rows: number, idBytes: number, shipBytes: number): void {
    if (rows > this.capacity) {
      const size = Math.max(rows, Math.ceil(this.capacity * 1.5));
      this.lineStarts = this.#resized(this.lineStarts, size + 1);
      this.tabs = this.#resized(this.tabs, size);
      this.idHighs = this.#resized(this.idHighs, size);
      this.idLows = this.#resized(this.idLows, size);
      this.petIdHighs = this.#resized(this.petIdHighs, size);
      this.petIdLows = this.#resized(this.petIdLows, size);
      this.quantities = this.#resized(this.quantities, size);
      this.shipStarts = this.#resized(this.shipStarts, size + 1);
      this.shipTimes = this.#resized(this.shipTimes, size);
      this.shipForms = this.#resized(this.shipForms, size);
      this.complete = this.#resized(this.complete, size);
      this.capacity = size;
    }
    if (idBytes > this.idText.length)
      this.idText = this.#resized(this.idText, this.#textRoom(this.idText, idBytes), this.idAt);
    if (shipBytes > this.shipText.length)
      this.shipText = this.#resized(
        this.shipText,
        this.#textRoom(this.shipText, shipBytes),
        this.shipAt,
      );
  }

  /**
   * The next size of a full text column that must hold `needed` bytes: what
   * the whole body will take at the rate so far, when its length is known
   * (so a text grows about once, and ends close to its size), else half as
   * much again; never less than a quarter more, nor more than four times as
   * much, however small a share of a declared length has come.
   */
  #textRoom(text: Uint8Array, needed: number): number {
    const length = text.length;
    const atRate = this.bodyShare > 0 ? Math.ceil((needed / this.bodyShare) * 1.03) : length * 1.5;
    return Math.max(needed, Math.ceil(length * 1.25), Math.min(atRate, length * 4));
  }

  /** Writes a checked order's row (see order-columns.ts for the layout). */
  addRow(
    data: Uint8Array,
    id: IntegerField,
    petId: IntegerField,
    quantity: number,
    ship: number,
    shipFrom: number,
    shipTo: number,
    shipString: string,
    shipTime: number,
    complete: number,
  ): void {
    const row = this.count;
    const idLength = id.state === ABSENT ? 0 : id.length;
    const petIdLength = petId.state === ABSENT ? 0 : petId.length;
    const shipLength =
      ship === IN_BYTES ? shipTo - shipFrom : ship === IN_TEXT ? shipString.length : 0;
    if (
      row >= this.capacity ||
      this.idAt + idLength + petIdLength + 2 > this.idText.length ||
      this.shipAt + shipLength > this.shipText.length
    ) {
      this.reserve(row + 1, this.idAt + idLength + petIdLength + 2, this.shipAt + shipLength);
    }
    const idText = this.idText;
    let at = this.idAt;
    this.lineStarts[row] = at;
    if (idLength === 0) {
      this.idHighs[row] = Number.NaN;
    } else {
      at = copyDigits(data, id, idText, at);
      this.idHighs[row] = id.high;
      this.idLows[row] = id.low;
      if (idLength > this.widestId) this.widestId = idLength;
    }
    this.tabs[row] = at;
    idText[at++] = TAB;
    if (petIdLength === 0) {
      this.petIdHighs[row] = Number.NaN;
    } else {
      at = copyDigits(data, petId, idText, at);
      this.petIdHighs[row] = petId.high;
      this.petIdLows[row] = petId.low;
      if (petIdLength > this.widestPetId) this.widestPetId = petIdLength;
    }
    idText[at++] = LF;
    this.idAt = at;
    this.quantities[row] = quantity;
    // A date's text is kept only when it is not the plain text its time writes back.
    const shipText = this.shipText;
    const shipStart = this.shipAt;
    at = shipStart;
    this.shipStarts[row] = at;
    if (ship === IN_BYTES) {
      for (let k = shipFrom; k < shipTo; k++) shipText[at++] = data[k]!;
    } else if (ship === IN_TEXT) {
      for (let k = 0; k < shipString.length; k++) shipText[at++] = shipString.charCodeAt(k);
    }
    let form = SHIP_ABSENT;
    if (ship !== ABSENT) {
      form = isPlainDate(shipText, shipStart, at) ? SHIP_PLAIN : SHIP_AS_SENT;
      if (form === SHIP_PLAIN) at = shipStart;
    }
    this.shipAt = at;
    this.shipTimes[row] = ship === ABSENT ? Number.NaN : shipTime;
    this.shipForms[row] = form;
    this.complete[row] = complete;
    this.count = row + 1;
  }

  /** The rows so far, as views on the columns being written (valid until the next row). */
  view(): OrderColumns {
    const count = this.count;
    this.lineStarts[count] = this.idAt;
    this.shipStarts[count] = this.shipAt;
    return {
      count,
      idText: this.idText.subarray(0, this.idAt),
      lineStarts: this.lineStarts.subarray(0, count + 1),
      tabs: this.tabs.subarray(0, count),
      idHighs: this.idHighs.subarray(0, count),
      idLows: this.idLows.subarray(0, count),
      petIdHighs: this.petIdHighs.subarray(0, count),
      petIdLows: this.petIdLows.subarray(0, count),
      quantities: this.quantities.subarray(0, count),
      shipText: this.shipText.subarray(0, this.shipAt),
      shipStarts: this.shipStarts.subarray(0, count + 1),
      shipTimes: this.shipTimes.subarray(0, count),
      shipForms: this.shipForms.subarray(0, count),
      complete: this.complete.subarray(0, count),
      widestId: this.widestId,
      widestPetId: this.widestPetId,
    };
  }

  build(): OrderColumns {
    const count = this.count;
    this.lineStarts[count] = this.idAt;
    this.shipStarts[count] = this.shipAt;
    return {
      count,
      idText: fitted(this.idText, this.idAt),
      lineStarts: fitted(this.lineStarts, count + 1),
      tabs: fitted(this.tabs, count),
      idHighs: fitted(this.idHighs, count),
      idLows: fitted(this.idLows, count),
      petIdHighs: fitted(this.petIdHighs, count),
      petIdLows: fitted(this.petIdLows, count),
      quantities: fitted(this.quantities, count),
      shipText: fitted(this.shipText, this.shipAt),
      shipStarts: fitted(this.shipStarts, count + 1),
      shipTimes: fitted(this.shipTimes, count),
      shipForms: fitted(this.shipForms, count),
      complete: fitted(this.complete, count),
      widestId: this.widestId,
      widestPetId: this.widestPetId,
    };
  }
}

export interface ScannerOptions {
  /** The body's size if known (Content-Length), to size the columns once. */
  readonly expectedBytes?: number;
  /**
   * The columns on SharedArrayBuffers, so that another thread can read the
   * rows so far (rowsSoFar's views, posted to it) while this one writes the next.
   */
  readonly shared?: boolean;
}

/** 1 GiB: about 11 million orders. */
const MAX_PRESIZED_BYTES = 2 ** 30;
/**
 * The most rows reserved at once from a declared length (about 56 MB of
 * columns): a Content-Length over tiny orders must not claim gigabytes. A
 * longer list grows from there as its orders arrive.
 */
const MAX_PRESIZED_ROWS = 2 ** 20;

/** Bytes of the next chunk first read together with an item the last one cut off. */
const BRIDGE_BYTES = 4096;

/** Long items cut by a chunk boundary are read again only once this much has come, so never quadratically. */
const RESCAN_AFTER = 64 * 1024;

/**
 * Push the body's bytes as they come, then `finish`. Each call throws
 * InvalidOrdersError as soon as the list is known to be invalid. Chunks are
 * not kept: a caller may reuse them.
 */
export class OrderListScanner {
  #state = BEFORE_LIST;
  /** Bytes of an item cut by the end of the last chunk, read again with the next. */
  #carried: Uint8Array[] = [];
  #carriedBytes = 0;
  #rescanAt = 0;
  #pushedBytes = 0;
  #sized = false;
  /** Bytes of a leading byte-order mark seen so far; -1 once the body is past where one could be. */
  #markBytes = 0;
  #failure: InvalidOrdersError | undefined;
  readonly #expectedBytes: number | undefined;
  readonly #columns: ColumnWriter;
  readonly #id = new IntegerField();
  readonly #petId = new IntegerField();
  readonly #quantity = new IntegerField();
  /** Characters of the last plain ship date: the next one most likely has as many. */
  #shipLength = 20;
  /** Orders in a row that were not in the plain form: past a few, the plain reader is not tried. */
  #plainMisses = 0;

  constructor(options: ScannerOptions = {}) {
    this.#expectedBytes = options.expectedBytes;
    this.#columns = new ColumnWriter(1024, 16 * 1024, 20 * 1024, options.shared === true);
  }

  /** Orders read so far. */
  get count(): number {
    return this.#columns.count;
  }

  /**
   * The orders read so far, as views on the columns being written: read them
   * (or copy them, see screen-columns.ts) before the next push. Each is checked,
   * but the list as a whole is valid only once `finish` says so.
   */
  rowsSoFar(): OrderColumns {
    return this.#columns.view();
  }

  push(chunk: Uint8Array): void {
    if (this.#failure) throw this.#failure;
    // One kind of array in the hot loop: a Buffer (a Uint8Array subclass) is viewed as a plain one.
    let data =
      chunk.constructor === Uint8Array
        ? chunk
        : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // Sized from the chunks before this one, when the next comes: the first chunk's rows reach
    // the screen before the whole list's columns (tens of megabytes) are allocated.
    this.#sizeColumns();
    this.#pushedBytes += data.length;
    if (this.#expectedBytes !== undefined)
      this.#columns.bodyShare = Math.min(1, this.#pushedBytes / this.#expectedBytes);
    if (this.#markBytes >= 0) {
      const skip = this.#byteOrderMark(data);
      if (skip < 0) return;
      data = data.subarray(skip);
    }
    this.#guard(() => {
      const from = this.#carriedBytes > 0 ? this.#bridge(data) : 0;
      if (from >= 0) this.#carry(data, this.#scan(data, from));
    });
  }

  /**
   * Reads past a leading byte-order mark, which may come split over chunks.
   * Returns how many bytes of `data` it took, or -1 when all of them (more may follow).
   */
  #byteOrderMark(data: Uint8Array): number {
    let at = 0;
    while (at < data.length && this.#markBytes < 3) {
      if (data[at] !== BYTE_ORDER_MARK[this.#markBytes]) {
        // Part of a mark and then something else is no JSON at all.
        if (this.#markBytes > 0)
          this.#guard(() => {
            throw notJson();
          });
        this.#markBytes = -1;
        return at;
      }
      this.#markBytes += 1;
      at += 1;
    }
    if (this.#markBytes < 3) return -1;
    this.#markBytes = -1;
    return at;
  }

  /** The columns of the whole list; throws if it is not a whole, valid list. */
  finish(): OrderColumns {
    if (this.#failure) throw this.#failure;
    this.#guard(() => {
      // An item still cut off at the end: the list ended inside it.
      if (this.#carriedBytes > 0) {
        const rest = this.#joined(undefined, 0);
        if (this.#scan(rest, 0) < rest.length) throw notJson();
      }
      if (this.#state !== AFTER_LIST) throw notJson();
    });
    return this.#columns.build();
  }

  /** Runs a step; a refusal sticks, so later calls throw it again. */
  #guard(step: () => void): void {
    try {
      step();
    } catch (error) {
      if (error instanceof InvalidOrdersError) this.#failure = error;
      throw error;
    }
  }

  /**
   * Reads the item the last chunk cut off together with the start of this
   * chunk; returns where to go on in `data`, or -1 when all of it is carried.
   */
  #bridge(data: Uint8Array): number {
    const carried = this.#carriedBytes;
    if (carried + data.length < this.#rescanAt) {
      this.#carried.push(data.slice());
      this.#carriedBytes += data.length;
      return -1;
    }
    for (let take = Math.min(data.length, BRIDGE_BYTES); ; take = Math.min(data.length, take * 4)) {
      const joined = this.#joined(data, take);
      const stop = this.#scan(joined, 0);
      if (stop >= carried) {
        this.#carried = [];
        this.#carriedBytes = 0;
        return stop - carried;
      }
      if (take === data.length) {
        this.#carry(joined, stop);
        return -1;
      }
    }
  }

  /** The carried bytes followed by data[0, take). */
  #joined(data: Uint8Array | undefined, take: number): Uint8Array {
    const joined = new Uint8Array(this.#carriedBytes + take);
    let at = 0;
    for (const part of this.#carried) {
      joined.set(part, at);
      at += part.length;
    }
    if (data) joined.set(data.subarray(0, take), at);
    return joined;
  }

  /** Keeps data[stop, end) (an item cut off) for the next chunk. */
  #carry(data: Uint8Array, stop: number): void {
    this.#carried = [];
    this.#carriedBytes = 0;
    if (stop >= data.length) return;
    const rest = data.slice(stop);
    this.#carried = [rest];
    this.#carriedBytes = rest.length;
    this.#rescanAt = rest.length >= RESCAN_AFTER ? rest.length * 2 : 0;
  }

  /** Once a few orders are read, size the columns for the whole body from their average size. */
  #sizeColumns(): void {
    const count = this.#columns.count;
    if (this.#sized || this.#expectedBytes === undefined || count < 64) return;
    this.#sized = true;
    const columns = this.#columns;
    const perOrder = (this.#pushedBytes - this.#carriedBytes) / count;
    // A Content-Length is believed only up to a sane size; past it the columns grow as orders come.
    const expected = Math.min(this.#expectedBytes, MAX_PRESIZED_BYTES);
    const rows = Math.min(MAX_PRESIZED_ROWS, Math.ceil((expected / perOrder) * 1.02) + 16);
    const scale = rows / count;
    columns.reserve(rows, Math.ceil(columns.idAt * scale), Math.ceil(columns.shipAt * scale));
  }

  /** Reads what it can of data; returns where the unread rest (an item cut off) starts. */
  #scan(data: Uint8Array, from: number): number {
    const n = data.length;
    const words = new DataView(data.buffer, data.byteOffset, n);
    let p = from;
    let state = this.#state;
    try {
      for (;;) {
        p = skipSpace(data, p, n);
        if (p >= n) return n;
        const c = data[p]!;
        if (state === AFTER_ITEM) {
          if (c === COMMA) state = NEXT_ITEM;
          else if (c === CLOSE_BRACKET) state = AFTER_LIST;
          else throw notJson();
          p++;
        } else if (state === FIRST_ITEM || state === NEXT_ITEM) {
          if (c === CLOSE_BRACKET && state === FIRST_ITEM) {
            state = AFTER_LIST;
            p++;
          } else if (c === OPEN_BRACE) {
            // Orders with a bare comma between them are read one after another here.
            for (;;) {
              let end =
                this.#plainMisses < MAX_PLAIN_MISSES
                  ? this.#plainOrder(data, words, p, n)
                  : NOT_PLAIN;
              if (end === NOT_PLAIN) end = this.#order(data, p, n);
              if (end === MORE) return p;
              p = end;
              state = AFTER_ITEM;
              if (p + 1 >= n || data[p] !== COMMA || data[p + 1] !== OPEN_BRACE) break;
              p++;
              state = NEXT_ITEM;
            }
          } else if (beginsValue(c)) {
            throw new InvalidOrdersError(`item ${this.#columns.count + 1} is not an order`);
          } else {
            throw notJson();
          }
        } else if (state === BEFORE_LIST) {
          if (c === OPEN_BRACKET) state = FIRST_ITEM;
          else if (beginsValue(c)) throw new InvalidOrdersError(NOT_A_LIST);
          else if (c === LESS_THAN) throw new InvalidOrdersError(WEB_PAGE);
          else throw notJson();
          p++;
        } else {
          throw notJson(); // anything but space after the list
        }
      }
    } finally {
      this.#state = state;
    }
  }

  /**
   * Reads an order written the way services usually write them, the
   * interface's fields in its order with no space, plain integers and a date
   * of the length the last one had:
   *
   *   {"id":1,"petId":2,"quantity":3,"shipDate":"2026-01-01T10:00:00Z","complete":false}
   *
   * in one straight pass that checks every byte. Anything else (or an order
   * cut off by the chunk's end) returns NOT_PLAIN, and #order reads it.
   */
  #plainOrder(data: Uint8Array, words: DataView, start: number, n: number): number {
    // Never read past the chunk: an out-of-bounds read throws the compiled
    // loop away, once per chunk. An order near the end goes to #order.
    const shipLength = this.#shipLength;
    if (start + PLAIN_ORDER_MAX_BYTES + shipLength > n) return NOT_PLAIN;
    const w = this.#columns;
    const row = w.count;
    // The id text is written as it is read, past the rows kept: an order that
    // turns out not plain leaves only bytes the next row overwrites.
    if (
      row >= w.capacity ||
      w.idAt + PLAIN_ID_LINE_BYTES > w.idText.length ||
      w.shipAt + shipLength > w.shipText.length
    ) {
      w.reserve(row + 1, w.idAt + PLAIN_ID_LINE_BYTES, w.shipAt + shipLength);
    }
    const text = w.idText;
    const lineStart = w.idAt;
    let at = lineStart;
    let p = start + 1;
    // "id":
    if (words.getInt32(p, true) !== KEY_ID || data[p + 4] !== COLON) return this.#notPlain();
    p += 5;
    // The id's digits, copied and summed (exact up to 15 digits; longer ones are read again).
    let from = p;
    let value = 0;
    for (const end = p + 20; p < end; p++) {
      const code = data[p]!;
      const digit = code - ZERO;
      if (digit >>> 0 > 9) break;
      value = value * 10 + digit;
      text[at++] = code;
    }
    let length = p - from;
    if (
      length === 0 ||
      (length > 1 && data[from] === ZERO) ||
      length > 19 ||
      (length === 19 && !withinInt64(data, from, false))
    ) {
      return this.#notPlain();
    }
    const tab = at;
    let idHigh = 0;
    let idLow = value;
    if (length > 15) {
      idHigh = digitsValue(data, from, p - 9);
      idLow = digitsValue(data, p - 9, p);
    } else if (value >= 1e9) {
      idHigh = Math.floor(value / 1e9);
      idLow = value - idHigh * 1e9;
    }
    const idLength = length;
    text[at++] = TAB;
    // ,"petId":
    if (
      words.getInt32(p, true) !== KEY_PET_ID_0 ||
      words.getInt32(p + 4, true) !== KEY_PET_ID_1 ||
      data[p + 8] !== COLON
    ) {
      return this.#notPlain();
    }
    p += 9;
    from = p;
    value = 0;
    for (const end = p + 20; p < end; p++) {
      const code = data[p]!;
      const digit = code - ZERO;
      if (digit >>> 0 > 9) break;
      value = value * 10 + digit;
      text[at++] = code;
    }
    length = p - from;
    if (
      length === 0 ||
      (length > 1 && data[from] === ZERO) ||
      length > 19 ||
      (length === 19 && !withinInt64(data, from, false))
    ) {
      return this.#notPlain();
    }
    let petIdHigh = 0;
    let petIdLow = value;
    if (length > 15) {
      petIdHigh = digitsValue(data, from, p - 9);
      petIdLow = digitsValue(data, p - 9, p);
    } else if (value >= 1e9) {
      petIdHigh = Math.floor(value / 1e9);
      petIdLow = value - petIdHigh * 1e9;
    }
    const petIdLength = length;
    text[at++] = LF;
    // ,"quantity":
    if (
      words.getInt32(p, true) !== KEY_QUANTITY_0 ||
      words.getInt32(p + 4, true) !== KEY_QUANTITY_1 ||
      words.getInt32(p + 8, true) !== KEY_QUANTITY_2
    ) {
      return this.#notPlain();
    }
    p += 12;
    from = p;
    let quantity = 0;
    for (const end = p + 16; p < end; p++) {
      const digit = data[p]! - ZERO;
      if (digit >>> 0 > 9) break;
      quantity = quantity * 10 + digit;
    }
    length = p - from;
    // ,"shipDate":"
    if (
      length === 0 ||
      length > 15 ||
      (length > 1 && data[from] === ZERO) ||
      words.getInt32(p, true) !== KEY_SHIP_DATE_0 ||
      words.getInt32(p + 4, true) !== KEY_SHIP_DATE_1 ||
      words.getInt32(p + 8, true) !== KEY_SHIP_DATE_2 ||
      data[p + 12] !== QUOTE
    ) {
      return this.#notPlain();
    }
    const shipFrom = p + 13;
    const shipTo = shipFrom + shipLength;
    // A date in the plain form is read four bytes at a time, and its text is not kept (its time
    // writes it back); any other is read by the general reader, and kept as sent.
    let time = shipLength === PLAIN_DATE_LENGTH ? plainDateTimeMs(words, shipFrom) : Number.NaN;
    let form = SHIP_PLAIN;
    if (Number.isNaN(time)) {
      time = dateTimeMs(data, shipFrom, shipTo);
      form = SHIP_AS_SENT;
    }
    p = shipTo;
    // ","complete":
    if (
      Number.isNaN(time) ||
      words.getInt32(p, true) !== KEY_COMPLETE_0 ||
      words.getInt32(p + 4, true) !== KEY_COMPLETE_1 ||
      words.getInt32(p + 8, true) !== KEY_COMPLETE_2 ||
      data[p + 12] !== COLON
    ) {
      return this.#notPlain();
    }
    p += 13;
    let complete: number;
    const word = words.getInt32(p, true);
    if (word === WORD_TRUE) {
      complete = COMPLETE_TRUE;
      p += 4;
    } else if (word === WORD_FALS && data[p + 4] === LOWER_E) {
      complete = COMPLETE_FALSE;
      p += 5;
    } else {
      return this.#notPlain();
    }
    if (data[p] !== CLOSE_BRACE) return this.#notPlain();
    this.#plainMisses = 0;
    // The order is whole and checked: its row.
    w.lineStarts[row] = lineStart;
    w.tabs[row] = tab;
    w.idHighs[row] = idHigh;
    w.idLows[row] = idLow;
    w.petIdHighs[row] = petIdHigh;
    w.petIdLows[row] = petIdLow;
    w.quantities[row] = quantity;
    let shipAt = w.shipAt;
    w.shipStarts[row] = shipAt;
    if (form === SHIP_AS_SENT) {
      const ship = w.shipText;
      for (let k = shipFrom; k < shipTo; k++) ship[shipAt++] = data[k]!;
      w.shipAt = shipAt;
    }
    w.shipTimes[row] = time;
    w.shipForms[row] = form;
    w.complete[row] = complete;
    w.idAt = at;
    if (idLength > w.widestId) w.widestId = idLength;
    if (petIdLength > w.widestPetId) w.widestPetId = petIdLength;
    w.count = row + 1;
    return p + 1;
  }

  #notPlain(): number {
    this.#plainMisses++;
    return NOT_PLAIN;
  }

  /** Reads one order object from its `{`; returns where it ends, or MORE. */
  #order(data: Uint8Array, start: number, n: number): number {
    const id = this.#id;
    const petId = this.#petId;
    const quantity = this.#quantity;
    id.state = ABSENT;
    petId.state = ABSENT;
    quantity.state = ABSENT;
    let ship = ABSENT;
    let shipFrom = 0;
    let shipTo = 0;
    let shipString = '';
    let shipTime = Number.NaN;
    let complete = COMPLETE_ABSENT;

    // Compact JSON is the common case: each step looks for its byte first and skips space only if need be.
    let p = start + 1;
    if (p < n && isSpace(data[p]!)) p = skipSpace(data, p, n);
    if (p >= n) return MORE;
    if (data[p] === CLOSE_BRACE) {
      p++;
    } else {
      for (;;) {
        // The key: the order's own keys are known by their bytes; any other key is read in full.
        if (data[p] !== QUOTE) throw notJson();
        let field = OTHER;
        let q = p + 1;
        const nearEnd = n - q < KEY_ROOM;
        const first = nearEnd ? 0 : data[q]!;
        if (nearEnd) {
          // Near the chunk's end: the key is read in full, never past the bytes there are.
          q = skipString(data, q, n);
          if (q === MORE) return MORE;
          field = fieldOfName(decodeString(data, p, q));
        } else if (first === LOWER_I && data[q + 1] === LOWER_D && data[q + 2] === QUOTE) {
          field = ID;
          q += 3;
        } else if (first === LOWER_P && isPetIdKey(data, q)) {
          field = PET_ID;
          q += 6;
        } else if (first === LOWER_S && isShipDateKey(data, q)) {
          field = SHIP_DATE;
          q += 9;
        } else if (first === LOWER_Q && isQuantityKey(data, q)) {
          field = QUANTITY;
          q += 9;
        } else if (first === LOWER_C && isCompleteKey(data, q)) {
          field = COMPLETE;
          q += 9;
        } else {
          q = skipString(data, q, n);
          if (q === MORE) return MORE;
          // Escaped names are decoded: "\u0069d" is the key id.
          if (hasEscape(data, p + 1, q - 1)) field = fieldOfName(decodeString(data, p, q));
        }
        if (q < n && data[q] === COLON) {
          q++;
        } else {
          q = skipSpace(data, q, n);
          if (q >= n) return MORE;
          if (data[q] !== COLON) throw notJson();
          q++;
        }
        if (q >= n) return MORE;
        let c = data[q]!;
        if (isSpace(c)) {
          q = skipSpace(data, q, n);
          if (q >= n) return MORE;
          c = data[q]!;
        }

        // The value.
        switch (field) {
          case ID:
            q = id.read(data, q, n);
            break;
          case PET_ID:
            q = petId.read(data, q, n);
            break;
          case QUANTITY:
            q = quantity.read(data, q, n);
            break;
          case SHIP_DATE: {
            if (c !== QUOTE) {
              q = skipValue(data, q, n);
              ship = c === LOWER_N ? ABSENT : NOT_DATE;
              break;
            }
            // A date of the length the last one had is checked in place: its bytes are all date
            // characters (no quote, no escape), so a quote after them ends the string.
            const from = q + 1;
            let to = from + this.#shipLength;
            shipTime = data[to] === QUOTE ? dateTimeMs(data, from, to) : Number.NaN;
            if (Number.isNaN(shipTime)) {
              to = from;
              while (to < n) {
                c = data[to]!;
                if (c === QUOTE || c === BACKSLASH || c < SPACE || c > 0x7e) break;
                to++;
              }
              if (to >= n) return MORE;
              if (c === QUOTE) {
                shipTime = dateTimeMs(data, from, to);
                this.#shipLength = to - from;
              }
            }
            if (c === QUOTE || !Number.isNaN(shipTime)) {
              ship = Number.isNaN(shipTime) ? NOT_DATE : IN_BYTES;
              shipFrom = from;
              shipTo = to;
              q = to + 1;
            } else {
              // Escapes or other text: decoded, then checked.
              q = skipString(data, to, n);
              if (q === MORE) return MORE;
              shipString = decodeString(data, from - 1, q);
              shipTime = dateTimeMsOfText(shipString);
              ship = Number.isNaN(shipTime) ? NOT_DATE : IN_TEXT;
            }
            break;
          }
          case COMPLETE:
            if (c === LOWER_T) {
              q = skipLiteral(data, q, n, TRUE);
              complete = COMPLETE_TRUE;
            } else if (c === LOWER_F) {
              q = skipLiteral(data, q, n, FALSE);
              complete = COMPLETE_FALSE;
            } else {
              q = skipValue(data, q, n);
              complete = c === LOWER_N ? COMPLETE_ABSENT : NOT_BOOLEAN;
            }
            break;
          default:
            q = skipValue(data, q, n);
        }
        if (q === MORE) return MORE;

        // A comma and the next key, or the end of the order.
        c = data[q]!;
        if (isSpace(c)) {
          q = skipSpace(data, q, n);
          c = data[q]!;
        }
        if (q >= n) return MORE;
        if (c === CLOSE_BRACE) {
          p = q + 1;
          break;
        }
        if (c !== COMMA) throw notJson();
        p = q + 1;
        if (isSpace(data[p]!)) p = skipSpace(data, p, n);
        if (p >= n) return MORE;
      }
    }

    // The whole order is read: check it, then write its row.
    const columns = this.#columns;
    const order = columns.count + 1;
    checkInteger(id.state, order, 'id');
    checkInteger(petId.state, order, 'petId');
    checkInteger(quantity.state, order, 'quantity');
    let quantityValue = Number.NaN;
    if (quantity.state !== ABSENT) {
      quantityValue = quantity.high * 1e9 + quantity.low;
      if (!(Math.abs(quantityValue) <= Number.MAX_SAFE_INTEGER))
        throw new InvalidOrdersError(`order ${order}: "quantity" is too large`);
    }
    if (ship === NOT_DATE)
      throw new InvalidOrdersError(`order ${order}: "shipDate" is not a date-time`);
    if (complete === NOT_BOOLEAN)
      throw new InvalidOrdersError(`order ${order}: "complete" is not true or false`);

    columns.addRow(
      data,
      id,
      petId,
      quantityValue,
      ship,
      shipFrom,
      shipTo,
      shipString,
      shipTime,
      complete,
    );
    return p;
  }
}

function checkInteger(state: number, order: number, name: string): void {
  if (state === NOT_WHOLE)
    throw new InvalidOrdersError(`order ${order}: "${name}" is not a whole number`);
  if (state === TOO_LARGE) throw new InvalidOrdersError(`order ${order}: "${name}" is too large`);
}
