// What the screen is sent of an order list while main reads it: of main's
// columns (order-columns.ts), what a table shows, searches and sorts, and
// nothing it does not. The ids as text with where each row's ids are (a
// table reads its sort keys from their digits, so the numeric keys stay in
// main), quantities, ship times and complete codes, and each ship date's
// form (ship-dates.ts): only a date not written the plain way the time
// writes back keeps its text. So a row is about 45 bytes on its way, not
// the 80 of main's columns, and the screen does not look at every date's
// text again (main's scanner told each date's form as it read it). Packed as one buffer for the harness's binary bodies, and
// checked on arrival like any argument that crosses a process boundary.
// No dependencies: the preload bundles this file.

import { COMPLETE_ABSENT, type OrderColumns } from './order-columns.ts';
import { dateTimeMs } from './rfc3339.ts';
import { isPlainTime, SHIP_ABSENT, SHIP_AS_SENT, SHIP_PLAIN } from './ship-dates.ts';

export interface ScreenColumns {
  readonly count: number;
  /** `id \t petId \n` per row, ASCII (as in OrderColumns). */
  readonly idText: Uint8Array;
  /** count + 1 entries, the last is idText's length. */
  readonly lineStarts: Uint32Array;
  readonly tabs: Uint32Array;
  /** NaN where absent. */
  readonly quantities: Float64Array;
  /** Epoch ms; NaN where absent. */
  readonly shipTimes: Float64Array;
  /** SHIP_ABSENT, SHIP_PLAIN or SHIP_AS_SENT per row. */
  readonly shipForms: Uint8Array;
  /** The rows whose date is SHIP_AS_SENT, ascending; their texts one after another in `sentText`. */
  readonly sentRows: Uint32Array;
  /** Where each one's text starts in `sentText`; one more entry for the end. */
  readonly sentStarts: Uint32Array;
  readonly sentText: Uint8Array;
  readonly complete: Uint8Array;
  /** Characters of the longest order id and pet id among these rows. */
  readonly widestId: number;
  readonly widestPetId: number;
}

/** Rows [from, to) of main's columns as the screen takes them, in arrays of their own, offsets from 0. */
export function screenColumnsOf(
  columns: OrderColumns,
  from: number,
  to = columns.count,
): ScreenColumns {
  const count = Math.max(0, to - from);
  const idStart = columns.lineStarts[from] ?? 0;
  const idEnd = columns.lineStarts[to] ?? idStart;
  const lineStarts = new Uint32Array(count + 1);
  const tabs = new Uint32Array(count);
  let widestId = 0;
  let widestPetId = 0;
  for (let k = 0; k < count; k++) {
    const row = from + k;
    const start = columns.lineStarts[row]! - idStart;
    const tab = columns.tabs[row]! - idStart;
    const end = columns.lineStarts[row + 1]! - idStart;
    lineStarts[k] = start;
    tabs[k] = tab;
    if (tab - start > widestId) widestId = tab - start;
    if (end - tab - 2 > widestPetId) widestPetId = end - tab - 2;
  }
  lineStarts[count] = idEnd - idStart;
  // Main tells each date's form as it reads it; the texts kept (SHIP_AS_SENT) are one block.
  const shipForms = columns.shipForms.slice(from, to);
  const { shipText, shipStarts } = columns;
  const sentFrom = shipStarts[from] ?? 0;
  const sentTo = shipStarts[to] ?? sentFrom;
  let sent = 0;
  for (let k = 0; k < count; k++) if (shipForms[k] === SHIP_AS_SENT) sent++;
  const sentRows = new Uint32Array(sent);
  const sentStarts = new Uint32Array(sent + 1);
  for (let k = 0, s = 0; s < sent; k++) {
    if (shipForms[k] !== SHIP_AS_SENT) continue;
    sentRows[s] = k;
    sentStarts[s] = shipStarts[from + k]! - sentFrom;
    sentStarts[++s] = shipStarts[from + k + 1]! - sentFrom;
  }
  return {
    count,
    idText: columns.idText.slice(idStart, idEnd),
    lineStarts,
    tabs,
    quantities: columns.quantities.slice(from, to),
    shipTimes: columns.shipTimes.slice(from, to),
    shipForms,
    sentRows,
    sentStarts,
    sentText: shipText.slice(sentFrom, sentTo),
    complete: columns.complete.slice(from, to),
    widestId,
    widestPetId,
  };
}

// Packed: one buffer for a binary body. A header of eight u32 (a mark, the
// count, the two texts' lengths, how many dates are kept as sent, the widest
// ids), then each column at a multiple of 8 bytes, so the arrays are views
// on the buffer, not copies.
const PACKED_MARK = 0x5343524e; // "SCRN"
const PACKED_HEADER_BYTES = 32;

const align8 = (bytes: number) => Math.ceil(bytes / 8) * 8;

/** The byte length of each column, in packing order. */
function packedSizes(count: number, idBytes: number, sent: number, sentBytes: number): number[] {
  return [
    count * 8, // quantities
    count * 8, // shipTimes
    (count + 1) * 4, // lineStarts
    count * 4, // tabs
    sent * 4, // sentRows
    (sent + 1) * 4, // sentStarts
    idBytes, // idText
    sentBytes, // sentText
    count, // shipForms
    count, // complete
  ];
}

const packedTotal = (sizes: readonly number[]) =>
  sizes.reduce((sum, size) => sum + align8(size), PACKED_HEADER_BYTES);

/** Bytes `packScreenColumns` writes for these columns. */
export function packedLength(columns: ScreenColumns): number {
  const { count, idText, sentRows, sentText } = columns;
  return packedTotal(packedSizes(count, idText.length, sentRows.length, sentText.length));
}

/** Writes the columns into `target` at `offset` (a multiple of 8); returns the bytes written. */
export function packScreenColumns(columns: ScreenColumns, target: Uint8Array, offset = 0): number {
  const header = new Uint32Array(8);
  header.set([
    PACKED_MARK,
    columns.count,
    columns.idText.length,
    columns.sentRows.length,
    columns.sentText.length,
    columns.widestId,
    columns.widestPetId,
  ]);
  let at = offset;
  for (const array of [
    header,
    columns.quantities,
    columns.shipTimes,
    columns.lineStarts,
    columns.tabs,
    columns.sentRows,
    columns.sentStarts,
    columns.idText,
    columns.sentText,
    columns.shipForms,
    columns.complete,
  ]) {
    target.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += align8(array.byteLength);
  }
  return at - offset;
}

/**
 * The columns packed at `offset` in `buffer` (a multiple of 8), as views on
 * it. Throws on a buffer that is not packed columns or is too short; what
 * they hold is for checkScreenColumns.
 */
export function unpackScreenColumns(buffer: ArrayBuffer, offset = 0): ScreenColumns {
  if (offset % 8 !== 0 || buffer.byteLength < offset + PACKED_HEADER_BYTES)
    throw new RangeError('not packed screen columns');
  const [mark, count, idBytes, sent, sentBytes, widestId, widestPetId] = new Uint32Array(
    buffer,
    offset,
    8,
  ) as unknown as [number, number, number, number, number, number, number];
  const sizes = packedSizes(count, idBytes, sent, sentBytes);
  if (mark !== PACKED_MARK || buffer.byteLength < offset + packedTotal(sizes))
    throw new RangeError('not packed screen columns');
  let at = offset + PACKED_HEADER_BYTES;
  let column = 0;
  const take = <A>(make: (at: number, size: number) => A): A => {
    const size = sizes[column++]!;
    const array = make(at, size);
    at += align8(size);
    return array;
  };
  const f64 = () => take((p, size) => new Float64Array(buffer, p, size / 8));
  const u32 = () => take((p, size) => new Uint32Array(buffer, p, size / 4));
  const u8 = () => take((p, size) => new Uint8Array(buffer, p, size));
  // In packing order (packedSizes).
  const quantities = f64();
  const shipTimes = f64();
  const lineStarts = u32();
  const tabs = u32();
  const sentRows = u32();
  const sentStarts = u32();
  const idText = u8();
  const sentText = u8();
  const shipForms = u8();
  const complete = u8();
  return {
    count,
    idText,
    lineStarts,
    tabs,
    quantities,
    shipTimes,
    shipForms,
    sentRows,
    sentStarts,
    sentText,
    complete,
    widestId,
    widestPetId,
  };
}

/** Each column's kind and its length: `count + extra`, or that of `sentRows` + extra, or any. */
const COLUMN_SHAPES = [
  ['idText', Uint8Array, undefined],
  ['lineStarts', Uint32Array, 1],
  ['tabs', Uint32Array, 0],
  ['quantities', Float64Array, 0],
  ['shipTimes', Float64Array, 0],
  ['shipForms', Uint8Array, 0],
  ['sentRows', Uint32Array, undefined],
  ['sentStarts', Uint32Array, 'sent'],
  ['sentText', Uint8Array, undefined],
  ['complete', Uint8Array, 0],
] as const;

const TAB = 0x09;
const NEWLINE = 0x0a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
/** An int64 has at most 19 digits. */
const MAX_ID_DIGITS = 19;

/** Whether text[from, to) is an id as main writes one: empty (none), or an optional minus and 1 to 19 digits. */
function isIdText(text: Uint8Array, from: number, to: number): boolean {
  const digitsFrom = from < to && text[from] === MINUS ? from + 1 : from;
  if (to - digitsFrom > MAX_ID_DIGITS || (digitsFrom > from && digitsFrom === to)) return false;
  for (let at = digitsFrom; at < to; at++) {
    const byte = text[at]!;
    if (byte < ZERO || byte > NINE) return false;
  }
  return true;
}

/**
 * `value` as screen columns, or a sentence saying what is wrong with it:
 * what another process sent is checked before a table takes it (each array
 * of its kind and length, every offset in order and in range, each id an
 * id, each number one the table can sort, every code known, a date's form
 * and a kept date's text true to its time, the dates kept as sent exactly
 * those whose form says so), so a wrong part can never put a row out of place, read past an
 * array or stall a sort.
 */
export function checkScreenColumns(value: unknown): ScreenColumns | string {
  if (typeof value !== 'object' || value === null) return 'not columns';
  const columns = value as Record<string, unknown>;
  const { count, widestId, widestPetId } = columns;
  for (const [name, number] of Object.entries({ count, widestId, widestPetId }))
    if (
      typeof number !== 'number' ||
      !Number.isInteger(number) ||
      number < 0 ||
      number > 2 ** 32 - 2
    )
      return `${name} is not a row count`;
  const n = count as number;
  for (const [name, kind, extra] of COLUMN_SHAPES) {
    const array = columns[name];
    if (!(array instanceof kind)) return `${name} is not a ${kind.name}`;
    const length =
      extra === 'sent'
        ? (columns['sentRows'] as Uint32Array).length + 1
        : extra === undefined
          ? array.length
          : n + extra;
    if (array.length !== length) return `${name} holds ${array.length} entries for ${n} rows`;
  }
  const {
    idText,
    lineStarts,
    tabs,
    quantities,
    shipTimes,
    shipForms,
    sentRows,
    sentStarts,
    sentText,
    complete,
  } = value as ScreenColumns;
  if (lineStarts[0] !== 0 || lineStarts[n] !== idText.length)
    return 'lineStarts do not span idText';
  if (sentStarts[0] !== 0 || sentStarts[sentRows.length] !== sentText.length)
    return 'sentStarts do not span sentText';
  let sent = 0;
  for (let row = 0; row < n; row++) {
    const start = lineStarts[row]!;
    const tab = tabs[row]!;
    const end = lineStarts[row + 1]!;
    // `id \t petId \n`: the tab inside the line, the newline its last byte.
    if (tab < start || tab + 2 > end || idText[tab] !== TAB || idText[end - 1] !== NEWLINE)
      return `row ${row}'s ids are out of place`;
    if (!isIdText(idText, start, tab) || !isIdText(idText, tab + 1, end - 1))
      return `row ${row}'s ids are not ids`;
    const quantity = quantities[row]!;
    if (!Number.isNaN(quantity) && !Number.isSafeInteger(quantity))
      return `row ${row}'s quantity is not a whole number`;
    const form = shipForms[row]!;
    const time = shipTimes[row]!;
    if (form > SHIP_AS_SENT) return `row ${row}'s ship date form is not a known code`;
    if (
      form === SHIP_ABSENT
        ? !Number.isNaN(time)
        : form === SHIP_PLAIN
          ? !isPlainTime(time)
          : !Number.isSafeInteger(time)
    )
      return `row ${row}'s ship time does not fit its date`;
    if (form === SHIP_AS_SENT) {
      if (sentRows[sent] !== row || sentStarts[sent + 1]! <= sentStarts[sent]!)
        return `row ${row}'s ship date is out of place`;
      if (dateTimeMs(sentText, sentStarts[sent]!, sentStarts[sent + 1]!) !== time)
        return `row ${row}'s ship date is not the date-time of its time`;
      sent++;
    }
    if (complete[row]! > COMPLETE_ABSENT) return `row ${row}'s complete is not a known code`;
  }
  if (sent !== sentRows.length) return 'a ship date is kept for a row without one';
  return value as ScreenColumns;
}
