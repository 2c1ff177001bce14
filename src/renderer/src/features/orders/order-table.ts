// One order list, parsed once and held as columns: all ids in one text (a
// line per row, `id \t petId \n`, which is also the search index), the ship
// dates in another, numbers and flags in typed arrays. So a million orders
// are a few large strings and arrays, not a million objects for the garbage
// collector to walk on every pause. What sorting needs (each id as two exact
// doubles, ship dates as epoch ms) is read in the same pass; sort orders and
// the last search are built on first need and kept. A view (the filtered,
// sorted rows) is a typed array of row indexes.

import type { Order } from '../../../../shared/order.ts';
import { descendingOf, keyOfValues, keysOfParts, sortRows, type SortKey } from './integer-sort.ts';
import { shipTimeOf } from './ship-time.ts';

export const SORT_COLUMNS = ['id', 'petId', 'quantity', 'shipDate', 'complete'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export type SortDirection = 'ascending' | 'descending';
export interface SortSpec {
  readonly column: SortColumn;
  readonly direction: SortDirection;
}

/** Where a search looks: either id, or one of them. */
export type SearchScope = 'any' | 'id' | 'petId';
/** Anywhere in the number, or from its first digit. */
export type SearchMode = 'contains' | 'starts-with';
/** "Not complete" is `complete: false`; orders without the field show under "all" only. */
export type CompleteFilter = 'all' | 'complete' | 'not-complete';

export interface ViewQuery {
  readonly search: string;
  readonly scope: SearchScope;
  readonly mode: SearchMode;
  readonly complete: CompleteFilter;
  /** Epoch ms, inclusive. */
  readonly shipFrom?: number;
  /** Epoch ms, exclusive. */
  readonly shipBefore?: number;
  /** Undefined: the order the service sent. */
  readonly sort?: SortSpec;
}

export const DEFAULT_VIEW_QUERY: ViewQuery = {
  search: '',
  scope: 'any',
  mode: 'contains',
  complete: 'all',
};

/** A search is digits (an int64 may start with "-"); anything else matches nothing. */
export const SEARCHABLE = /^-?\d*$/;

const TAB = 9;
const MINUS = 45;
const ZERO = 48;
const NEWLINE = 10;
const COMPLETE_FALSE = 0;
const COMPLETE_TRUE = 1;
const COMPLETE_MISSING = 2;

/** Ids as high * 1e9 + low per row, for sorting; NaN high where there is no id. */
interface DecimalParts {
  readonly highs: Float64Array;
  readonly lows: Float64Array;
}

/** The rows sorted by one column; rows without the value last both ways. */
interface SortedColumn {
  readonly ascending: Uint32Array;
  /** Built on first need from the ascending order and the keys. */
  descending: Uint32Array | undefined;
  /** How many rows have the value (the rest come last). */
  readonly present: number;
  readonly keys: readonly SortKey[] | undefined;
}

/**
 * ASCII text (ids, RFC 3339 dates) written as bytes and decoded once: far
 * cheaper than joining a million strings.
 */
class AsciiWriter {
  bytes: Uint8Array;
  at = 0;
  constructor(estimate: number) {
    this.bytes = new Uint8Array(Math.max(64, estimate));
  }
  /** Makes room for `more` bytes. */
  reserve(more: number): void {
    if (this.at + more <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.at + more));
    grown.set(this.bytes.subarray(0, this.at));
    this.bytes = grown;
  }
  write(text: string): void {
    for (let k = 0; k < text.length; k++) this.bytes[this.at++] = text.charCodeAt(k);
  }
  /**
   * Writes an int64's decimal text and, in the same pass over its digits,
   * reads it as high * 1e9 + low (both exact doubles, see integer-sort.ts).
   */
  writeDecimal(text: string, row: number, parts: DecimalParts): void {
    const bytes = this.bytes;
    const length = text.length;
    const negative = text.charCodeAt(0) === MINUS;
    const split = length - 9;
    let at = this.at;
    let high = 0;
    let low = 0;
    let k = 0;
    if (negative) bytes[at++] = text.charCodeAt(k++);
    for (; k < split; k++) {
      const code = text.charCodeAt(k);
      bytes[at++] = code;
      high = high * 10 + code - ZERO;
    }
    for (; k < length; k++) {
      const code = text.charCodeAt(k);
      bytes[at++] = code;
      low = low * 10 + code - ZERO;
    }
    this.at = at;
    if (negative) {
      // -(h * 1e9 + l) = (-h - 1) * 1e9 + (1e9 - l), keeping 0 <= low < 1e9
      if (low === 0) {
        high = -high;
      } else {
        high = -high - 1;
        low = 1e9 - low;
      }
    }
    parts.highs[row] = high;
    parts.lows[row] = low;
  }
  byte(code: number): void {
    this.bytes[this.at++] = code;
  }
  text(): string {
    return new TextDecoder('latin1').decode(this.bytes.subarray(0, this.at));
  }
}

/** A list as columns (see the top of this file). */
interface OrderColumns {
  readonly count: number;
  readonly widestId: number;
  readonly widestPetId: number;
  readonly ids: string;
  readonly lineStarts: Uint32Array;
  readonly tabs: Uint32Array;
  readonly quantities: Float64Array;
  readonly shipText: string;
  readonly shipStarts: Uint32Array;
  readonly complete: Uint8Array;
  readonly shipTimes: Float64Array;
  readonly idParts: DecimalParts;
  readonly petIdParts: DecimalParts;
}

function grown<A extends Uint32Array | Float64Array | Uint8Array>(array: A, size: number): A {
  const next = new (array.constructor as new (length: number) => A)(size);
  next.set(array);
  return next;
}

/**
 * Builds a table from orders given in parts (a list read a slice at a time),
 * in arrays sized for the count the service reported and grown if need be.
 */
export class OrderTableBuilder {
  #count = 0;
  #capacity: number;
  #widestId = 0;
  #widestPetId = 0;
  readonly #ids: AsciiWriter;
  readonly #ships: AsciiWriter;
  #lineStarts: Uint32Array;
  #tabs: Uint32Array;
  #quantities: Float64Array;
  #shipStarts: Uint32Array;
  #complete: Uint8Array;
  #shipTimes: Float64Array;
  #idHighs: Float64Array;
  #idLows: Float64Array;
  #petHighs: Float64Array;
  #petLows: Float64Array;

  constructor(expected: number) {
    const capacity = Math.max(1, expected);
    this.#capacity = capacity;
    // Typical ids are under 8 digits and ship dates 20 characters; the writers grow past that.
    this.#ids = new AsciiWriter(capacity * 16);
    this.#ships = new AsciiWriter(capacity * 20);
    this.#lineStarts = new Uint32Array(capacity + 1);
    this.#tabs = new Uint32Array(capacity);
    this.#quantities = new Float64Array(capacity);
    this.#shipStarts = new Uint32Array(capacity + 1);
    this.#complete = new Uint8Array(capacity);
    this.#shipTimes = new Float64Array(capacity);
    this.#idHighs = new Float64Array(capacity);
    this.#idLows = new Float64Array(capacity);
    this.#petHighs = new Float64Array(capacity);
    this.#petLows = new Float64Array(capacity);
  }

  get count(): number {
    return this.#count;
  }

  #ensure(rows: number): void {
    if (rows <= this.#capacity) return;
    const capacity = Math.max(rows, this.#capacity * 2);
    this.#lineStarts = grown(this.#lineStarts, capacity + 1);
    this.#tabs = grown(this.#tabs, capacity);
    this.#quantities = grown(this.#quantities, capacity);
    this.#shipStarts = grown(this.#shipStarts, capacity + 1);
    this.#complete = grown(this.#complete, capacity);
    this.#shipTimes = grown(this.#shipTimes, capacity);
    this.#idHighs = grown(this.#idHighs, capacity);
    this.#idLows = grown(this.#idLows, capacity);
    this.#petHighs = grown(this.#petHighs, capacity);
    this.#petLows = grown(this.#petLows, capacity);
    this.#capacity = capacity;
  }

  append(orders: readonly Order[]): void {
    const first = this.#count;
    this.#ensure(first + orders.length);
    const ids = this.#ids;
    const ships = this.#ships;
    let idsLength = 0;
    let shipLength = 0;
    for (const order of orders) {
      idsLength += (order.id?.length ?? 0) + (order.petId?.length ?? 0) + 2;
      shipLength += order.shipDate?.length ?? 0;
    }
    ids.reserve(idsLength);
    ships.reserve(shipLength);
    const idParts = { highs: this.#idHighs, lows: this.#idLows };
    const petParts = { highs: this.#petHighs, lows: this.#petLows };
    const lineStarts = this.#lineStarts;
    const tabs = this.#tabs;
    const shipStarts = this.#shipStarts;
    const shipTimes = this.#shipTimes;
    const quantities = this.#quantities;
    const completes = this.#complete;
    let widestId = this.#widestId;
    let widestPetId = this.#widestPetId;
    for (let k = 0; k < orders.length; k++) {
      const order = orders[k]!;
      const i = first + k;
      const id = order.id;
      const petId = order.petId;
      lineStarts[i] = ids.at;
      if (id === undefined) {
        idParts.highs[i] = Number.NaN;
      } else {
        ids.writeDecimal(id, i, idParts);
        if (id.length > widestId) widestId = id.length;
      }
      tabs[i] = ids.at;
      ids.byte(TAB);
      if (petId === undefined) {
        petParts.highs[i] = Number.NaN;
      } else {
        ids.writeDecimal(petId, i, petParts);
        if (petId.length > widestPetId) widestPetId = petId.length;
      }
      ids.byte(NEWLINE);
      shipStarts[i] = ships.at;
      const shipDate = order.shipDate;
      if (shipDate === undefined) {
        shipTimes[i] = Number.NaN;
      } else {
        ships.write(shipDate);
        shipTimes[i] = shipTimeOf(shipDate);
      }
      quantities[i] = order.quantity ?? Number.NaN;
      const complete = order.complete;
      completes[i] =
        complete === undefined ? COMPLETE_MISSING : complete ? COMPLETE_TRUE : COMPLETE_FALSE;
    }
    this.#widestId = widestId;
    this.#widestPetId = widestPetId;
    this.#count = first + orders.length;
  }

  build(): OrderTable {
    const count = this.#count;
    this.#lineStarts[count] = this.#ids.at;
    this.#shipStarts[count] = this.#ships.at;
    const exact = <A extends Uint32Array | Float64Array | Uint8Array>(
      array: A,
      length: number,
    ): A => (array.length === length ? array : (array.slice(0, length) as A));
    return new OrderTable({
      count,
      widestId: this.#widestId,
      widestPetId: this.#widestPetId,
      ids: this.#ids.text(),
      lineStarts: exact(this.#lineStarts, count + 1),
      tabs: exact(this.#tabs, count),
      quantities: exact(this.#quantities, count),
      shipText: this.#ships.text(),
      shipStarts: exact(this.#shipStarts, count + 1),
      complete: exact(this.#complete, count),
      shipTimes: exact(this.#shipTimes, count),
      idParts: { highs: exact(this.#idHighs, count), lows: exact(this.#idLows, count) },
      petIdParts: { highs: exact(this.#petHighs, count), lows: exact(this.#petLows, count) },
    });
  }
}

export class OrderTable {
  readonly count: number;
  /** Characters of the longest order id and pet id, so their columns can fit them. */
  readonly widestId: number;
  readonly widestPetId: number;
  /** `id \t petId \n` per row; an absent id is an empty one. */
  readonly #ids: string;
  /** Where each row's line starts in #ids; one more entry for the end. */
  readonly #lineStarts: Uint32Array;
  /** Where each row's tab is in #ids. */
  readonly #tabs: Uint32Array;
  /** NaN where absent. */
  readonly #quantities: Float64Array;
  /** All ship dates as sent, one after another. */
  readonly #shipText: string;
  /** Where each row's ship date starts in #shipText; one more entry for the end. */
  readonly #shipStarts: Uint32Array;
  readonly #complete: Uint8Array;
  /** Epoch ms; NaN where absent. */
  readonly #shipTimes: Float64Array;
  readonly #idParts: DecimalParts;
  readonly #petIdParts: DecimalParts;

  #all: Uint32Array | undefined;
  readonly #sorted = new Map<SortColumn, SortedColumn>();
  #lastSearch: { readonly key: string; readonly rows: Uint32Array } | undefined;

  /** A table of orders given all at once. */
  static fromOrders(orders: readonly Order[]): OrderTable {
    const builder = new OrderTableBuilder(orders.length);
    builder.append(orders);
    return builder.build();
  }

  constructor(columns: OrderColumns) {
    this.count = columns.count;
    this.widestId = columns.widestId;
    this.widestPetId = columns.widestPetId;
    this.#ids = columns.ids;
    this.#lineStarts = columns.lineStarts;
    this.#tabs = columns.tabs;
    this.#quantities = columns.quantities;
    this.#shipText = columns.shipText;
    this.#shipStarts = columns.shipStarts;
    this.#complete = columns.complete;
    this.#shipTimes = columns.shipTimes;
    this.#idParts = columns.idParts;
    this.#petIdParts = columns.petIdParts;
  }

  idAt(row: number): string | undefined {
    const start = this.#lineStarts[row]!;
    const tab = this.#tabs[row]!;
    return tab > start ? this.#ids.slice(start, tab) : undefined;
  }

  petIdAt(row: number): string | undefined {
    const start = this.#tabs[row]! + 1;
    const end = this.#lineStarts[row + 1]! - 1;
    return end > start ? this.#ids.slice(start, end) : undefined;
  }

  quantityAt(row: number): number | undefined {
    const quantity = this.#quantities[row]!;
    return Number.isNaN(quantity) ? undefined : quantity;
  }

  /** The ship date as the service sent it (ISO 8601). */
  shipDateAt(row: number): string | undefined {
    const start = this.#shipStarts[row]!;
    const end = this.#shipStarts[row + 1]!;
    return end > start ? this.#shipText.slice(start, end) : undefined;
  }

  completeAt(row: number): boolean | undefined {
    const code = this.#complete[row];
    return code === COMPLETE_MISSING ? undefined : code === COMPLETE_TRUE;
  }

  orderAt(row: number): Order {
    return {
      id: this.idAt(row),
      petId: this.petIdAt(row),
      quantity: this.quantityAt(row),
      shipDate: this.shipDateAt(row),
      complete: this.completeAt(row),
    };
  }

  /** The first row with this order id, found in the id text at once. */
  rowOfId(id: string): number | undefined {
    if (id === '' || id.includes('\t') || id.includes('\n')) return undefined;
    let at: number;
    if (this.#ids.startsWith(`${id}\t`)) {
      at = 0;
    } else {
      const found = this.#ids.indexOf(`\n${id}\t`);
      if (found < 0) return undefined;
      at = found + 1;
    }
    // Binary search of the line that starts there.
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const start = this.#lineStarts[middle]!;
      if (start === at) return middle;
      if (start < at) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** Every row, in the order the service sent them. */
  allRows(): Uint32Array {
    if (!this.#all) {
      const all = new Uint32Array(this.count);
      for (let i = 0; i < all.length; i++) all[i] = i;
      this.#all = all;
    }
    return this.#all;
  }

  /** Epoch ms of each row's ship date; NaN where there is none. */
  shipTimes(): Float64Array {
    return this.#shipTimes;
  }

  /** The rows sorted by a column (stable: ties keep the service's order); rows without the value last. */
  sortedRows(sort: SortSpec): Uint32Array {
    const column = this.#sortedColumn(sort.column);
    if (sort.direction === 'ascending') return column.ascending;
    if (!column.descending) {
      const { ascending, present, keys } = column;
      const descending = new Uint32Array(this.count);
      descending.set(descendingOf(ascending.subarray(0, present), keys!));
      descending.set(ascending.subarray(present), present);
      column.descending = descending;
    }
    return column.descending;
  }

  #sortedColumn(column: SortColumn): SortedColumn {
    let sorted = this.#sorted.get(column);
    if (!sorted) {
      sorted = column === 'complete' ? this.#sortComplete() : this.#sortIntegers(column);
      this.#sorted.set(column, sorted);
    }
    return sorted;
  }

  #sortIntegers(column: Exclude<SortColumn, 'complete'>): SortedColumn {
    const count = this.count;
    const present = new Uint32Array(count);
    const missing = new Uint32Array(count);
    let n = 0;
    let m = 0;
    let keys: SortKey[];
    if (column === 'id' || column === 'petId') {
      const { highs, lows } = column === 'id' ? this.#idParts : this.#petIdParts;
      for (let i = 0; i < count; i++) {
        if (Number.isNaN(highs[i]!)) missing[m++] = i;
        else present[n++] = i;
      }
      keys = keysOfParts(highs, lows, present.subarray(0, n));
    } else {
      const values = column === 'shipDate' ? this.shipTimes() : this.#quantities;
      for (let i = 0; i < count; i++) {
        if (Number.isNaN(values[i]!)) missing[m++] = i;
        else present[n++] = i;
      }
      keys = [keyOfValues(values, present.subarray(0, n))];
    }
    const ascending = new Uint32Array(count);
    ascending.set(sortRows(present.subarray(0, n), keys));
    ascending.set(missing.subarray(0, m), n);
    return { ascending, descending: undefined, present: n, keys };
  }

  #sortComplete(): SortedColumn {
    // Three values, a counting sort each way; "not given" last both ways.
    const codes = this.#complete;
    const counts = [0, 0, 0];
    for (let i = 0; i < codes.length; i++) counts[codes[i]!]! += 1;
    const [no, yes] = counts as [number, number, number];
    const bySlots = (slots: number[]) => {
      const rows = new Uint32Array(codes.length);
      for (let i = 0; i < codes.length; i++) rows[slots[codes[i]!]!++] = i;
      return rows;
    };
    return {
      ascending: bySlots([0, no, no + yes]),
      descending: bySlots([yes, 0, no + yes]),
      present: no + yes,
      keys: undefined,
    };
  }

  /**
   * Rows whose id or pet id (per `scope`) contains, or starts with, the
   * digits of `query`, in the service's order. Undefined for an empty query.
   */
  search(query: string, scope: SearchScope, mode: SearchMode): Uint32Array | undefined {
    const needle = query.trim();
    if (needle === '') return undefined;
    if (!SEARCHABLE.test(needle)) return new Uint32Array(0);
    const key = `${scope}:${mode}:${needle}`;
    if (this.#lastSearch?.key === key) return this.#lastSearch.rows;

    const text = this.#ids;
    const starts = this.#lineStarts;
    const tabs = this.#tabs;
    const found = new Uint32Array(this.count);
    let n = 0;
    let row = 0;
    let from = 0;
    const length = needle.length;
    for (;;) {
      const at = text.indexOf(needle, from);
      if (at < 0) break;
      while (starts[row + 1]! <= at) row++;
      const tab = tabs[row]!;
      // A needle holds no tab or newline, so a match lies within one of the two ids.
      const inId = at + length <= tab;
      const accepted =
        mode === 'contains'
          ? scope === 'any' || (scope === 'id') === inId
          : at === starts[row]
            ? scope !== 'petId'
            : at === tab + 1 && scope !== 'id';
      if (accepted) {
        found[n++] = row;
        from = starts[row + 1]!;
      } else {
        from = at + 1;
      }
    }
    const rows = found.slice(0, n);
    this.#lastSearch = { key, rows };
    return rows;
  }

  /** The rows a query shows, in the order it shows them. */
  view(query: ViewQuery): Uint32Array {
    const matches = this.search(query.search, query.scope, query.mode);
    const filter = this.#filter(query);
    if (!query.sort) {
      if (!matches && !filter) return this.allRows();
      return keep(matches ?? this.allRows(), filter);
    }
    const sorted = this.sortedRows(query.sort);
    if (!matches) return keep(sorted, filter);
    // Mark the rows the search found (and the filters keep), then walk the sorted order once.
    const hit = new Uint8Array(this.count);
    let wanted = 0;
    for (let i = 0; i < matches.length; i++) {
      const row = matches[i]!;
      if (!filter || filter(row)) {
        hit[row] = 1;
        wanted++;
      }
    }
    const out = new Uint32Array(wanted);
    for (let i = 0, n = 0; n < wanted; i++) {
      const row = sorted[i]!;
      if (hit[row] === 1) out[n++] = row;
    }
    return out;
  }

  #filter(query: ViewQuery): ((row: number) => boolean) | undefined {
    const codes = this.#complete;
    const wanted =
      query.complete === 'all'
        ? undefined
        : query.complete === 'complete'
          ? COMPLETE_TRUE
          : COMPLETE_FALSE;
    const { shipFrom, shipBefore } = query;
    const dated = shipFrom !== undefined || shipBefore !== undefined;
    if (wanted === undefined && !dated) return undefined;
    if (!dated) return (row) => codes[row] === wanted;
    const times = this.shipTimes();
    const from = shipFrom ?? -Infinity;
    const before = shipBefore ?? Infinity;
    // NaN (no ship date) fails both comparisons: out whenever a date bound is set.
    return (row) => {
      const time = times[row]!;
      return time >= from && time < before && (wanted === undefined || codes[row] === wanted);
    };
  }

  /**
   * Builds, ahead of need, what sorting and filtering use, one step per call;
   * false when nothing is left. Run in idle time so the first click is quick.
   */
  prepareStep(step: number): boolean {
    const steps = SORT_COLUMNS.flatMap((column) =>
      (['ascending', 'descending'] as const).map(
        (direction) => () => void this.sortedRows({ column, direction }),
      ),
    );
    steps[step]?.();
    return step + 1 < steps.length;
  }
}

function keep(rows: Uint32Array, test: ((row: number) => boolean) | undefined): Uint32Array {
  if (!test) return rows;
  const out = new Uint32Array(rows.length);
  let n = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (test(row)) out[n++] = row;
  }
  return out.slice(0, n);
}
