// An order list as columns: what the order-list scanner builds from the
// response bytes, and what the renderer's OrderTable holds. A million orders
// are a dozen typed arrays (no million objects for the garbage collector to
// walk), each one buffer that can be transferred between processes as is.
//
// Row i of a list of `count` orders:
//
//   ids       idText[lineStarts[i] .. tabs[i])          the order id, ASCII digits ("" when absent)
//             idText[tabs[i] + 1 .. lineStarts[i+1] - 1) the pet id
//             so idText is `id \t petId \n` per row, which is also the search index
//   sorting   idHighs[i] * 1e9 + idLows[i] = the order id, exactly (high a whole double, NaN
//             when absent; 0 <= low < 1e9, so a Uint32); the same for the pet id in petIdHighs /
//             petIdLows. A radix sort takes them as they are (see the renderer's integer-sort.ts).
//   quantity  quantities[i], NaN when absent
//   ship date shipText[shipStarts[i] .. shipStarts[i+1]) as the service sent it (RFC 3339,
//             ASCII; empty when absent), and shipTimes[i] its epoch ms (NaN when absent)
//   complete  complete[i]: COMPLETE_FALSE, COMPLETE_TRUE or COMPLETE_ABSENT
//
// Ids are canonical int64 decimal text ("-0" is written "0"), so they are
// exact above 2^53 and go into cancel URLs as they are. The two text columns
// are bytes, not strings, so they cross a MessagePort without a copy; a
// reader decodes each once (latin1 is exact: every byte is ASCII).

import type { Order } from './order.ts';

export const COMPLETE_FALSE = 0;
export const COMPLETE_TRUE = 1;
export const COMPLETE_ABSENT = 2;

export interface OrderColumns {
  readonly count: number;
  /** `id \t petId \n` per row, ASCII. */
  readonly idText: Uint8Array;
  /** Where each row's line starts in idText; count + 1 entries, the last is idText's length. */
  readonly lineStarts: Uint32Array;
  /** Where each row's tab is in idText. */
  readonly tabs: Uint32Array;
  readonly idHighs: Float64Array;
  readonly idLows: Uint32Array;
  readonly petIdHighs: Float64Array;
  readonly petIdLows: Uint32Array;
  readonly quantities: Float64Array;
  /** Every ship date as sent, one after another, ASCII. */
  readonly shipText: Uint8Array;
  /** Where each row's ship date starts in shipText; count + 1 entries. */
  readonly shipStarts: Uint32Array;
  readonly shipTimes: Float64Array;
  readonly complete: Uint8Array;
  /** Characters of the longest order id and pet id, so a grid can size its columns. */
  readonly widestId: number;
  readonly widestPetId: number;
}

/** The buffers to list as transferable when posting columns to another process. */
export function columnBuffers(columns: OrderColumns): ArrayBuffer[] {
  const arrays = [
    columns.idText,
    columns.lineStarts,
    columns.tabs,
    columns.idHighs,
    columns.idLows,
    columns.petIdHighs,
    columns.petIdLows,
    columns.quantities,
    columns.shipText,
    columns.shipStarts,
    columns.shipTimes,
    columns.complete,
  ];
  return [...new Set(arrays.map((array) => array.buffer as ArrayBuffer))];
}

/** The orders of a list as objects (for the CLI and small lists; a grid should read the columns). */
export function ordersOf(columns: OrderColumns): Order[] {
  const latin1 = new TextDecoder('latin1');
  const ids = latin1.decode(columns.idText);
  const ships = latin1.decode(columns.shipText);
  const { lineStarts, tabs, quantities, shipStarts, complete } = columns;
  const orders = new Array<Order>(columns.count);
  for (let row = 0; row < columns.count; row++) {
    const start = lineStarts[row]!;
    const tab = tabs[row]!;
    const end = lineStarts[row + 1]! - 1;
    const shipStart = shipStarts[row]!;
    const shipEnd = shipStarts[row + 1]!;
    const quantity = quantities[row]!;
    const code = complete[row];
    orders[row] = {
      id: tab > start ? ids.slice(start, tab) : undefined,
      petId: end > tab + 1 ? ids.slice(tab + 1, end) : undefined,
      quantity: Number.isNaN(quantity) ? undefined : quantity,
      shipDate: shipEnd > shipStart ? ships.slice(shipStart, shipEnd) : undefined,
      complete: code === COMPLETE_ABSENT ? undefined : code === COMPLETE_TRUE,
    };
  }
  return orders;
}

/**
 * Rows [from, to) as columns of their own, copied, with offsets from 0: a
 * part of a list to hand over while the rest is still being read.
 */
export function columnsOfRows(
  columns: OrderColumns,
  from: number,
  to = columns.count,
): OrderColumns {
  const count = Math.max(0, to - from);
  const idStart = columns.lineStarts[from] ?? 0;
  const idEnd = columns.lineStarts[to] ?? idStart;
  const shipStart = columns.shipStarts[from] ?? 0;
  const shipEnd = columns.shipStarts[to] ?? shipStart;
  const lineStarts = new Uint32Array(count + 1);
  const tabs = new Uint32Array(count);
  const shipStarts = new Uint32Array(count + 1);
  let widestId = 0;
  let widestPetId = 0;
  for (let k = 0; k < count; k++) {
    const start = columns.lineStarts[from + k]! - idStart;
    const tab = columns.tabs[from + k]! - idStart;
    const end = columns.lineStarts[from + k + 1]! - idStart;
    lineStarts[k] = start;
    tabs[k] = tab;
    shipStarts[k] = columns.shipStarts[from + k]! - shipStart;
    if (tab - start > widestId) widestId = tab - start;
    if (end - tab - 2 > widestPetId) widestPetId = end - tab - 2;
  }
  lineStarts[count] = idEnd - idStart;
  shipStarts[count] = shipEnd - shipStart;
  return {
    count,
    idText: columns.idText.slice(idStart, idEnd),
    lineStarts,
    tabs,
    idHighs: columns.idHighs.slice(from, to),
    idLows: columns.idLows.slice(from, to),
    petIdHighs: columns.petIdHighs.slice(from, to),
    petIdLows: columns.petIdLows.slice(from, to),
    quantities: columns.quantities.slice(from, to),
    shipText: columns.shipText.slice(shipStart, shipEnd),
    shipStarts,
    shipTimes: columns.shipTimes.slice(from, to),
    complete: columns.complete.slice(from, to),
    widestId,
    widestPetId,
  };
}

// Packed columns: one buffer for a binary body (the development harness
// sends parts of a list so). A header of eight u32 (a mark, the count, the
// two texts' lengths, the widest ids), then each column at a multiple of 8
// bytes, so the arrays are views on the buffer, not copies.
const PACKED_MARK = 0x4f434f4c; // "OCOL"
const PACKED_HEADER_BYTES = 32;

const align8 = (bytes: number) => Math.ceil(bytes / 8) * 8;

/** The byte length of each column of a list of `count` rows, in packing order. */
function packedSizes(count: number, idBytes: number, shipBytes: number): number[] {
  return [
    count * 8, // idHighs
    count * 8, // petIdHighs
    count * 8, // quantities
    count * 8, // shipTimes
    (count + 1) * 4, // lineStarts
    count * 4, // tabs
    count * 4, // idLows
    count * 4, // petIdLows
    (count + 1) * 4, // shipStarts
    idBytes, // idText
    shipBytes, // shipText
    count, // complete
  ];
}

/** Bytes `packColumns` writes for these columns. */
export function packedLength(columns: OrderColumns): number {
  const sizes = packedSizes(columns.count, columns.idText.length, columns.shipText.length);
  return sizes.reduce((sum, size) => sum + align8(size), PACKED_HEADER_BYTES);
}

/** Writes the columns into `target` at `offset` (a multiple of 8); returns the bytes written. */
export function packColumns(columns: OrderColumns, target: Uint8Array, offset = 0): number {
  const header = new Uint32Array(8);
  header.set([
    PACKED_MARK,
    columns.count,
    columns.idText.length,
    columns.shipText.length,
    columns.widestId,
    columns.widestPetId,
  ]);
  let at = offset;
  const put = (array: ArrayBufferView) => {
    target.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += align8(array.byteLength);
  };
  put(header);
  put(columns.idHighs);
  put(columns.petIdHighs);
  put(columns.quantities);
  put(columns.shipTimes);
  put(columns.lineStarts);
  put(columns.tabs);
  put(columns.idLows);
  put(columns.petIdLows);
  put(columns.shipStarts);
  put(columns.idText);
  put(columns.shipText);
  put(columns.complete);
  return at - offset;
}

/**
 * The columns packed at `offset` in `buffer` (a multiple of 8), as views on
 * it. Throws on a buffer that is not packed columns or is too short.
 */
export function unpackColumns(buffer: ArrayBuffer, offset = 0): OrderColumns {
  if (offset % 8 !== 0 || buffer.byteLength < offset + PACKED_HEADER_BYTES)
    throw new RangeError('not packed order columns');
  const [mark, count, idBytes, shipBytes, widestId, widestPetId] = new Uint32Array(
    buffer,
    offset,
    8,
  ) as unknown as number[];
  const sizes = packedSizes(count!, idBytes!, shipBytes!);
  const total = sizes.reduce((sum, size) => sum + align8(size), PACKED_HEADER_BYTES);
  if (mark !== PACKED_MARK || buffer.byteLength < offset + total)
    throw new RangeError('not packed order columns');
  let at = offset + PACKED_HEADER_BYTES;
  const take = <A>(make: (at: number) => A, size: number): A => {
    const array = make(at);
    at += align8(size);
    return array;
  };
  const n = count!;
  const f64 = (size: number) => take((p) => new Float64Array(buffer, p, size / 8), size);
  const u32 = (size: number) => take((p) => new Uint32Array(buffer, p, size / 4), size);
  const u8 = (size: number) => take((p) => new Uint8Array(buffer, p, size), size);
  const [s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11] = sizes as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const idHighs = f64(s0);
  const petIdHighs = f64(s1);
  const quantities = f64(s2);
  const shipTimes = f64(s3);
  const lineStarts = u32(s4);
  const tabs = u32(s5);
  const idLows = u32(s6);
  const petIdLows = u32(s7);
  const shipStarts = u32(s8);
  const idText = u8(s9);
  const shipText = u8(s10);
  const complete = u8(s11);
  return {
    count: n,
    idText,
    lineStarts,
    tabs,
    idHighs,
    idLows,
    petIdHighs,
    petIdLows,
    quantities,
    shipText,
    shipStarts,
    shipTimes,
    complete,
    widestId: widestId!,
    widestPetId: widestPetId!,
  };
}

/** One column's expected kind and length, for `checkOrderColumns`. */
const COLUMN_SHAPES = [
  ['idText', Uint8Array, undefined],
  ['lineStarts', Uint32Array, 1],
  ['tabs', Uint32Array, 0],
  ['idHighs', Float64Array, 0],
  ['idLows', Uint32Array, 0],
  ['petIdHighs', Float64Array, 0],
  ['petIdLows', Uint32Array, 0],
  ['quantities', Float64Array, 0],
  ['shipText', Uint8Array, undefined],
  ['shipStarts', Uint32Array, 1],
  ['shipTimes', Float64Array, 0],
  ['complete', Uint8Array, 0],
] as const;

const TAB = 0x09;
const NEWLINE = 0x0a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/**
 * `value` as order columns, or a sentence saying what is wrong with it: what
 * another process sent is checked before a table takes it (each array of its
 * kind and length, every offset in order and in range, every id byte a digit
 * or a minus, every complete code known), so a wrong part can never put a
 * row out of place or read past an array.
 */
export function checkOrderColumns(value: unknown): OrderColumns | string {
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
    if (extra !== undefined && array.length !== n + extra)
      return `${name} holds ${array.length} entries for ${n} rows`;
  }
  const { idText, lineStarts, tabs, shipText, shipStarts, complete } = value as OrderColumns;
  if (lineStarts[0] !== 0 || lineStarts[n] !== idText.length)
    return 'lineStarts do not span idText';
  if (shipStarts[0] !== 0 || shipStarts[n] !== shipText.length)
    return 'shipStarts do not span shipText';
  for (let row = 0; row < n; row++) {
    const start = lineStarts[row]!;
    const tab = tabs[row]!;
    const end = lineStarts[row + 1]!;
    // `id \t petId \n`: the tab inside the line, the newline its last byte.
    if (tab < start || tab + 2 > end || idText[tab] !== TAB || idText[end - 1] !== NEWLINE)
      return `row ${row}'s ids are out of place`;
    if (shipStarts[row + 1]! < shipStarts[row]!) return `row ${row}'s ship date is out of place`;
    if (complete[row]! > COMPLETE_ABSENT) return `row ${row}'s complete is not a known code`;
  }
  for (let at = 0; at < idText.length; at++) {
    const byte = idText[at]!;
    if ((byte < ZERO || byte > NINE) && byte !== MINUS && byte !== TAB && byte !== NEWLINE)
      return 'idText holds something other than ids';
  }
  return value as OrderColumns;
}
