// What main and the scanner's thread say to each other (list-scanner-thread.ts,
// list-scanner-worker.ts).

import type { OrderColumns } from '../../shared/order-columns.ts';
import { fitted, type TypedColumn } from '../../shared/typed-arrays.ts';

export type ToScanner =
  | {
      readonly kind: 'start';
      readonly expectedBytes: number | undefined;
      /** The ring main copies chunks into (see `ring`). */
      readonly ring: SharedArrayBuffer;
    }
  /** A chunk is the ring's bytes [at, at + length); main writes there again once it is read. */
  | { readonly kind: 'ring'; readonly at: number; readonly length: number }
  /** The chunk's buffer is transferred: it is the scanner thread's from then on. */
  | { readonly kind: 'chunk'; readonly bytes: Uint8Array }
  | { readonly kind: 'finish' }
  /** Answered with 'pong': the thread runs. */
  | { readonly kind: 'ping' };

export type FromScanner =
  /**
   * A chunk of `bytes` bytes is read, and the rows so far are `extent` of
   * the columns on shared buffers last posted (`columns`, posted again only
   * when they have grown into new buffers).
   */
  | {
      readonly kind: 'read';
      readonly bytes: number;
      readonly columns?: OrderColumns;
      readonly extent: RowsExtent;
    }
  /**
   * The list is whole and valid, and its rows are `extent` of the columns
   * last posted (`columns` again only if the end made them grow).
   */
  | {
      readonly kind: 'done';
      readonly columns?: OrderColumns;
      readonly extent: RowsExtent;
      /** Whether the thread collects its garbage now (else main ends it: see the worker). */
      readonly collects: boolean;
    }
  /** The list is not what the interface says (InvalidOrdersError's message). */
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'crashed'; readonly message: string }
  | { readonly kind: 'pong' };

/** How far the rows so far go in their columns. */
export interface RowsExtent {
  readonly count: number;
  readonly idBytes: number;
  readonly shipBytes: number;
  readonly widestId: number;
  readonly widestPetId: number;
}

export function extentOf(rows: OrderColumns): RowsExtent {
  return {
    count: rows.count,
    idBytes: rows.idText.length,
    shipBytes: rows.shipText.length,
    widestId: rows.widestId,
    widestPetId: rows.widestPetId,
  };
}

/** Each column of `columns` cut to `extent` by `cut` (the text columns to their bytes). */
function columnsWithin(
  columns: OrderColumns,
  extent: RowsExtent,
  cut: <A extends TypedColumn>(array: A, length: number) => A,
): OrderColumns {
  const { count, idBytes, shipBytes } = extent;
  return {
    count,
    idText: cut(columns.idText, idBytes),
    lineStarts: cut(columns.lineStarts, count + 1),
    tabs: cut(columns.tabs, count),
    idHighs: cut(columns.idHighs, count),
    idLows: cut(columns.idLows, count),
    petIdHighs: cut(columns.petIdHighs, count),
    petIdLows: cut(columns.petIdLows, count),
    quantities: cut(columns.quantities, count),
    shipText: cut(columns.shipText, shipBytes),
    shipStarts: cut(columns.shipStarts, count + 1),
    shipTimes: cut(columns.shipTimes, count),
    shipForms: cut(columns.shipForms, count),
    complete: cut(columns.complete, count),
    widestId: extent.widestId,
    widestPetId: extent.widestPetId,
  };
}

/** A typed array of the same kind on the whole of `array`'s buffer. */
function onWholeBuffer<A extends TypedColumn>(array: A): A {
  return new (array.constructor as new (buffer: ArrayBufferLike) => A)(array.buffer);
}

/**
 * The first `extent` of columns (any views on their buffers): the rows so
 * far. The thread that writes them wrote the ends of the line and ship-text
 * offsets (index `count`) before it told how far they go.
 */
export function rowsWithin(columns: OrderColumns, extent: RowsExtent): OrderColumns {
  return columnsWithin(
    columns,
    extent,
    (array, length) => onWholeBuffer(array).subarray(0, length) as typeof array,
  );
}

/**
 * The whole list in columns, from the shared columns and how far its rows go:
 * a view on a column where little of it would be wasted, else a copy of its
 * own, as the scanner's own finish fits them (typed-arrays.ts).
 */
export function wholeListWithin(columns: OrderColumns, extent: RowsExtent): OrderColumns {
  return columnsWithin(columns, extent, (array, length) => fitted(onWholeBuffer(array), length));
}
