// One order list held as columns, built from what main sends the screen of
// the columns it read it into (src/shared/screen-columns.ts) as they arrive: all ids in one ASCII text (a
// line per row, `id \t petId \n`, which is also the search index), numbers
// and flags in typed arrays, ship dates as epoch ms with their text kept
// only where it is not the plain form the time writes back (ship-dates.ts).
// So a million orders are a few large arrays, not a million objects for the
// garbage collector to walk on every pause, and less memory than the JSON
// they came in. A table can be taken while the list is still arriving (its
// first rows), and again as more come. Sort orders (ids read from their
// digits when first sorted) and the last search are built on first need and
// kept, and grow with the list (growing-sort.ts); a search that finds few
// rows has them sorted alone. A view (the filtered, sorted rows) is a typed
// array of row indexes.

import type { Order } from '../../../../../shared/order.ts';
import {
  COMPLETE_ABSENT,
  COMPLETE_FALSE,
  COMPLETE_TRUE,
  type OrderColumns,
} from '../../../../../shared/order-columns.ts';
import { screenColumnsOf, type ScreenColumns } from '../../../../../shared/screen-columns.ts';
import { fitted, joined, resized, type TypedColumn } from '../../../../../shared/typed-arrays.ts';
import {
  ascendingOf,
  growSort,
  ViewMemo,
  type GrowingSorts,
  type KeyedColumn,
  type KeysOf,
  type SortedColumn,
} from './growing-sort.ts';
import { descendingOf } from './integer-sort.ts';
import {
  plainDateText,
  sentDateOf,
  SHIP_AS_SENT,
  SHIP_PLAIN,
  type SentDates,
} from '../../../../../shared/ship-dates.ts';

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

/** A search is digits (an int64 may start with "-"); anything else matches nothing. */
export const SEARCHABLE = /^-?\d*$/;

const MINUS = 45;
const ZERO = 48;

/** What a table holds (see the top of this file). */
interface TableColumns {
  readonly count: number;
  readonly widestId: number;
  readonly widestPetId: number;
  readonly idText: Uint8Array;
  /** count + 1 entries. */
  readonly lineStarts: Uint32Array;
  readonly tabs: Uint32Array;
  /** NaN where absent. */
  readonly quantities: Float64Array;
  /** Epoch ms; NaN where absent. */
  readonly shipTimes: Float64Array;
  /** SHIP_ABSENT, SHIP_PLAIN or SHIP_AS_SENT per row. */
  readonly shipForms: Uint8Array;
  readonly sentDates: SentDates;
  readonly complete: Uint8Array;
  /** 0, 1, 2, …: the rows in the order the service sent them. */
  readonly all: Uint32Array;
}

const latin1 = new TextDecoder('latin1');

/**
 * Builds a table from the parts of a list as they arrive, in arrays sized
 * once for the rows main expects and grown if need be. `snapshot` gives a
 * table of the rows so far at any time (views, no copy); `build` the whole.
 */
export class OrderTableBuilder {
  #count = 0;
  #capacity: number;
  #widestId = 0;
  #widestPetId = 0;
  #idText: Uint8Array;
  #idAt = 0;
  #lineStarts: Uint32Array;
  #tabs: Uint32Array;
  #quantities: Float64Array;
  #shipTimes: Float64Array;
  #shipForms: Uint8Array;
  #complete: Uint8Array;
  #all: Uint32Array;
  #sentRows = new Uint32Array(16);
  #sentStarts = new Uint32Array(17);
  #sentText = new Uint8Array(256);
  #sentCount = 0;
  #sentAt = 0;
  readonly #memo: ViewMemo;

  /** `expected`: the rows the list likely holds (main's guess from its size); the arrays grow past it. */
  constructor(expected = 1024) {
    const capacity = Math.max(16, Math.ceil(expected));
    this.#capacity = capacity;
    this.#idText = new Uint8Array(capacity * 16);
    this.#lineStarts = new Uint32Array(capacity + 1);
    this.#tabs = new Uint32Array(capacity);
    this.#quantities = new Float64Array(capacity);
    this.#shipTimes = new Float64Array(capacity);
    this.#shipForms = new Uint8Array(capacity);
    this.#complete = new Uint8Array(capacity);
    this.#all = new Uint32Array(capacity);
    this.#memo = new ViewMemo(capacity);
  }

  get count(): number {
    return this.#count;
  }

  #reserve(rows: number, idBytes: number): void {
    if (rows > this.#capacity) {
      const size = Math.max(rows, Math.ceil(this.#capacity * 1.5));
      const used = this.#count;
      this.#lineStarts = resized(this.#lineStarts, size + 1, used + 1);
      this.#tabs = resized(this.#tabs, size, used);
      this.#quantities = resized(this.#quantities, size, used);
      this.#shipTimes = resized(this.#shipTimes, size, used);
      this.#shipForms = resized(this.#shipForms, size, used);
      this.#complete = resized(this.#complete, size, used);
      this.#all = resized(this.#all, size, used);
      this.#capacity = size;
    }
    if (idBytes > this.#idText.length) {
      // Sized for the rows expected at the bytes per row so far.
      const perRow = (this.#idAt + idBytes) / Math.max(1, rows);
      const size = Math.max(
        idBytes,
        Math.ceil(perRow * this.#capacity * 1.02),
        this.#idText.length * 1.5,
      );
      this.#idText = resized(this.#idText, Math.ceil(size), this.#idAt);
    }
  }

  /** Adds rows `from` to `from + part.count`; `from` must be the count so far. */
  append(from: number, part: ScreenColumns): void {
    if (from !== this.#count) throw new RangeError(`rows from ${from} came after ${this.#count}`);
    const n = part.count;
    const row0 = this.#count;
    const base = this.#idAt;
    this.#reserve(row0 + n, base + part.idText.length);
    this.#idText.set(part.idText, base);
    const lineStarts = this.#lineStarts;
    const tabs = this.#tabs;
    const all = this.#all;
    for (let k = 0; k < n; k++) {
      lineStarts[row0 + k] = part.lineStarts[k]! + base;
      tabs[row0 + k] = part.tabs[k]! + base;
      all[row0 + k] = row0 + k;
    }
    this.#idAt = base + part.idText.length;
    lineStarts[row0 + n] = this.#idAt;
    this.#quantities.set(part.quantities, row0);
    this.#shipTimes.set(part.shipTimes, row0);
    this.#complete.set(part.complete, row0);
    this.#shipForms.set(part.shipForms, row0);
    const { sentRows, sentStarts, sentText } = part;
    for (let s = 0; s < sentRows.length; s++)
      this.#keepSent(row0 + sentRows[s]!, sentText.subarray(sentStarts[s], sentStarts[s + 1]));
    if (part.widestId > this.#widestId) this.#widestId = part.widestId;
    if (part.widestPetId > this.#widestPetId) this.#widestPetId = part.widestPetId;
    this.#count = row0 + n;
  }

  #keepSent(row: number, text: Uint8Array): void {
    const k = this.#sentCount;
    if (k + 1 >= this.#sentRows.length) {
      this.#sentRows = resized(this.#sentRows, this.#sentRows.length * 2, k);
      this.#sentStarts = resized(this.#sentStarts, this.#sentStarts.length * 2, k + 1);
    }
    if (this.#sentAt + text.length > this.#sentText.length)
      this.#sentText = resized(
        this.#sentText,
        Math.max(this.#sentText.length * 2, this.#sentAt + text.length),
        this.#sentAt,
      );
    this.#sentRows[k] = row;
    this.#sentStarts[k] = this.#sentAt;
    this.#sentText.set(text, this.#sentAt);
    this.#sentAt += text.length;
    this.#sentCount = k + 1;
    this.#sentStarts[k + 1] = this.#sentAt;
  }

  #columns(shape: <A extends TypedColumn>(array: A, length: number) => A): TableColumns {
    const count = this.#count;
    const sent = this.#sentCount;
    return {
      count,
      widestId: this.#widestId,
      widestPetId: this.#widestPetId,
      idText: shape(this.#idText, this.#idAt),
      lineStarts: shape(this.#lineStarts, count + 1),
      tabs: shape(this.#tabs, count),
      quantities: shape(this.#quantities, count),
      shipTimes: shape(this.#shipTimes, count),
      shipForms: shape(this.#shipForms, count),
      sentDates: {
        rows: shape(this.#sentRows, sent),
        starts: shape(this.#sentStarts, sent + 1),
        text: shape(this.#sentText, this.#sentAt),
      },
      complete: shape(this.#complete, count),
      all: shape(this.#all, count),
    };
  }

  /** The rows so far, as a table of views on the arrays being filled. */
  snapshot(): OrderTable {
    return new OrderTable(
      this.#columns((array, length) => array.subarray(0, length) as typeof array),
      this.#memo,
    );
  }

  /** The whole list's table, in arrays fitted to it. */
  build(): OrderTable {
    this.#memo.settle(this.#count);
    return new OrderTable(this.#columns(fitted), this.#memo);
  }
}

/** Rows a search found, in the service's order, and the key that names the search. */
interface Found {
  readonly key: string;
  readonly rows: Uint32Array;
  /** What was searched for, and how, when the search was a valid one. */
  readonly needle?: string;
  readonly scope?: SearchScope;
  readonly mode?: SearchMode;
}

/** Whether every row `found` (for `was`) holds would also be found for `needle`: a keystroke that extends the query. */
function narrows(was: Found, needle: string, scope: SearchScope, mode: SearchMode): boolean {
  if (was.needle === undefined || was.scope !== scope || was.mode !== mode) return false;
  return mode === 'contains' ? needle.includes(was.needle) : needle.startsWith(was.needle);
}

export class OrderTable {
  readonly count: number;
  /** Characters of the longest order id and pet id, so their columns can fit them. */
  readonly widestId: number;
  readonly widestPetId: number;
  readonly #columns: TableColumns;
  /** The id text decoded, for searching it: built on first need. */
  #text: string | undefined;

  readonly #sorted = new Map<SortColumn, SortedColumn>();
  #lastSearch: Found | undefined;
  #lastFoundSort:
    | { readonly key: string; readonly column: SortColumn; readonly sorted: SortedColumn }
    | undefined;
  readonly #memo: ViewMemo;

  /** A table of a whole list given as columns (see OrderTableBuilder for one that arrives in parts). */
  static fromColumns(columns: OrderColumns): OrderTable {
    const builder = new OrderTableBuilder(columns.count);
    builder.append(0, screenColumnsOf(columns, 0));
    return builder.build();
  }

  /** `memo`: shared with the other tables of the same list as it arrives. */
  constructor(columns: TableColumns, memo = new ViewMemo()) {
    this.count = columns.count;
    this.widestId = columns.widestId;
    this.widestPetId = columns.widestPetId;
    this.#columns = columns;
    this.#memo = memo;
  }

  #ascii(from: number, to: number): string {
    return String.fromCharCode(...this.#columns.idText.subarray(from, to));
  }

  /** The ids' text (`id \t petId \n` per row), decoded once. */
  #searchText(): string {
    this.#text ??= latin1.decode(this.#columns.idText);
    return this.#text;
  }

  idAt(row: number): string | undefined {
    const start = this.#columns.lineStarts[row]!;
    const tab = this.#columns.tabs[row]!;
    return tab > start ? this.#ascii(start, tab) : undefined;
  }

  petIdAt(row: number): string | undefined {
    const start = this.#columns.tabs[row]! + 1;
    const end = this.#columns.lineStarts[row + 1]! - 1;
    return end > start ? this.#ascii(start, end) : undefined;
  }

  quantityAt(row: number): number | undefined {
    const quantity = this.#columns.quantities[row]!;
    return Number.isNaN(quantity) ? undefined : quantity;
  }

  /** The ship date as the service sent it (RFC 3339). */
  shipDateAt(row: number): string | undefined {
    const form = this.#columns.shipForms[row];
    if (form === SHIP_PLAIN) return plainDateText(this.#columns.shipTimes[row]!);
    if (form === SHIP_AS_SENT) return sentDateOf(this.#columns.sentDates, row);
    return undefined;
  }

  completeAt(row: number): boolean | undefined {
    const code = this.#columns.complete[row];
    return code === COMPLETE_ABSENT ? undefined : code === COMPLETE_TRUE;
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
    const text = this.#searchText();
    let at: number;
    if (text.startsWith(`${id}\t`)) {
      at = 0;
    } else {
      const found = text.indexOf(`\n${id}\t`);
      if (found < 0) return undefined;
      at = found + 1;
    }
    // Binary search of the line that starts there.
    const lineStarts = this.#columns.lineStarts;
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const start = lineStarts[middle]!;
      if (start === at) return middle;
      if (start < at) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** Every row, in the order the service sent them. */
  allRows(): Uint32Array {
    return this.#columns.all;
  }

  /** Epoch ms of each row's ship date; NaN where there is none. */
  shipTimes(): Float64Array {
    return this.#columns.shipTimes;
  }

  /** Whether two rows hold the same value in the column (ids compared as text: it is canonical). */
  #equalIn(column: KeyedColumn): (a: number, b: number) => boolean {
    if (column === 'quantity' || column === 'shipDate') {
      const values = column === 'quantity' ? this.#columns.quantities : this.#columns.shipTimes;
      return (a, b) => values[a] === values[b];
    }
    const { idText: text, lineStarts, tabs } = this.#columns;
    const pet = column === 'petId';
    return (a, b) => {
      const aStart = pet ? tabs[a]! + 1 : lineStarts[a]!;
      const bStart = pet ? tabs[b]! + 1 : lineStarts[b]!;
      const length = (pet ? lineStarts[a + 1]! - 1 : tabs[a]!) - aStart;
      if ((pet ? lineStarts[b + 1]! - 1 : tabs[b]!) - bStart !== length) return false;
      for (let k = 0; k < length; k++) if (text[aStart + k] !== text[bStart + k]) return false;
      return true;
    };
  }

  /**
   * Of `rows`, those holding a value in the column, with their exact keys by
   * position (ids read from their digits as high * 1e9 + low, times and
   * quantities as they are), and those without. One pass, a loop per kind
   * of column (no call per row).
   */
  #keysOf(column: KeyedColumn, rows: Uint32Array): KeysOf {
    const size = rows.length;
    const present = new Uint32Array(size);
    const missing = new Uint32Array(size);
    const highs = new Float64Array(size);
    let n = 0;
    let m = 0;
    if (column === 'quantity' || column === 'shipDate') {
      const values = column === 'quantity' ? this.#columns.quantities : this.#columns.shipTimes;
      for (let k = 0; k < size; k++) {
        const row = rows[k]!;
        const value = values[row]!;
        if (Number.isNaN(value)) {
          missing[m++] = row;
        } else {
          present[n] = row;
          highs[n++] = value;
        }
      }
      return {
        present: present.subarray(0, n),
        missing: missing.subarray(0, m),
        highs,
        lows: undefined,
      };
    }
    const { idText: text, lineStarts, tabs } = this.#columns;
    // An id is lineStarts[row] to tabs[row]; a pet id tabs[row] + 1 to lineStarts[row + 1] - 1.
    const pet = column === 'petId';
    const starts = pet ? tabs : lineStarts;
    const ends = pet ? lineStarts : tabs;
    const startAfter = pet ? 1 : 0;
    const endRow = pet ? 1 : 0;
    const lows = new Uint32Array(size);
    for (let k = 0; k < size; k++) {
      const row = rows[k]!;
      const start = starts[row]! + startAfter;
      const end = ends[row + endRow]! - endRow;
      if (end <= start) {
        missing[m++] = row;
        continue;
      }
      const negative = text[start] === MINUS;
      const split = end - 9;
      let high = 0;
      let low = 0;
      let at = negative ? start + 1 : start;
      for (; at < split; at++) high = high * 10 + text[at]! - ZERO;
      for (; at < end; at++) low = low * 10 + text[at]! - ZERO;
      if (negative) {
        // -(h * 1e9 + l) = (-h - 1) * 1e9 + (1e9 - l), keeping 0 <= low < 1e9
        if (low === 0) {
          high = -high;
        } else {
          high = -high - 1;
          low = 1e9 - low;
        }
      }
      present[n] = row;
      highs[n] = high;
      lows[n++] = low;
    }
    return { present: present.subarray(0, n), missing: missing.subarray(0, m), highs, lows };
  }

  /** The column's sort of `rows` (this table's, or a search's), grown from the list's earlier tables. */
  #growSort(column: KeyedColumn, rows: Uint32Array, sorts: GrowingSorts) {
    return growSort(column, rows, sorts, {
      upTo: this.count,
      memo: this.#memo,
      keysOf: (some) => this.#keysOf(column, some),
    });
  }

  /**
   * Builds a column's ascending order ahead of need (see prepared-sorts.ts),
   * so the first sort by it costs only a render. Whether there was work to do.
   */
  prepareSort(column: SortColumn): boolean {
    if (this.#sorted.has(column)) return false;
    this.#sortedColumn(column);
    return true;
  }

  /** The rows sorted by a column (stable: ties keep the service's order); rows without the value last. */
  sortedRows(sort: SortSpec): Uint32Array {
    return this.#directed(sort, this.#sortedColumn(sort.column));
  }

  /** A sort in the direction asked for: the descending order is built from the ascending on first need. */
  #directed({ column, direction }: SortSpec, sorted: SortedColumn): Uint32Array {
    if (direction === 'ascending') return sorted.ascending;
    if (!sorted.descending) {
      const { ascending, present } = sorted;
      const descending = new Uint32Array(ascending.length);
      const complete = this.#columns.complete;
      descending.set(
        descendingOf(
          ascending.subarray(0, present),
          column === 'complete' ? (a, b) => complete[a] === complete[b] : this.#equalIn(column),
        ),
      );
      descending.set(ascending.subarray(present), present);
      sorted.descending = descending;
    }
    return sorted.descending;
  }

  #sortedColumn(column: SortColumn): SortedColumn {
    let sorted = this.#sorted.get(column);
    if (!sorted) {
      sorted =
        column === 'complete'
          ? this.#sortComplete()
          : ascendingOf(this.#growSort(column, this.allRows(), this.#memo.sorts));
      this.#sorted.set(column, sorted);
    }
    return sorted;
  }

  /**
   * The rows a search found, sorted by a column: with few of them, cheaper
   * than walking the sort of the whole list (which is not built until asked
   * for without a search), and grown with them as the list arrives.
   */
  #sortedFound(column: SortColumn, found: Found): SortedColumn {
    const last = this.#lastFoundSort;
    if (last?.key === found.key && last.column === column) return last.sorted;
    let sorted: SortedColumn;
    if (column === 'complete') {
      sorted = this.#sortComplete(found.rows);
    } else {
      let memo = this.#memo.searchSorts;
      if (memo?.key !== found.key)
        this.#memo.searchSorts = memo = { key: found.key, sorts: new Map() };
      sorted = ascendingOf(this.#growSort(column, found.rows, memo.sorts));
    }
    this.#lastFoundSort = { key: found.key, column, sorted };
    return sorted;
  }

  /** `rows` (all of them by default) by complete. */
  #sortComplete(rows = this.allRows()): SortedColumn {
    // Three values, a counting sort each way; "not given" last both ways.
    const codes = this.#columns.complete;
    const counts = [0, 0, 0];
    for (let i = 0; i < rows.length; i++) counts[codes[rows[i]!]!]! += 1;
    const [no, yes] = counts as [number, number, number];
    const bySlots = (slots: number[]) => {
      const sorted = new Uint32Array(rows.length);
      for (let i = 0; i < rows.length; i++) sorted[slots[codes[rows[i]!]!]!++] = rows[i]!;
      return sorted;
    };
    return {
      ascending: bySlots([0, no, no + yes]),
      descending: bySlots([yes, 0, no + yes]),
      present: no + yes,
    };
  }

  /**
   * Rows whose id or pet id (per `scope`) contains, or starts with, the
   * digits of `query`, in the service's order. Undefined for an empty query.
   * A list still arriving is searched in its new rows only, the rest
   * remembered from its earlier tables.
   */
  search(query: string, scope: SearchScope, mode: SearchMode): Uint32Array | undefined {
    return this.#found(query, scope, mode)?.rows;
  }

  /** What `search` finds, with the key that names the search. */
  #found(query: string, scope: SearchScope, mode: SearchMode): Found | undefined {
    const needle = query.trim();
    if (needle === '') return undefined;
    const key = `${scope}:${mode}:${needle}`;
    if (!SEARCHABLE.test(needle)) return { key, rows: new Uint32Array(0) };
    const last = this.#lastSearch;
    if (last?.key === key) return last;
    const known = this.#memo.search;
    const from = known?.key === key && known.count <= this.count ? known.count : 0;
    let rows: Uint32Array;
    if (from === 0 && last && narrows(last, needle, scope, mode)) {
      // A keystroke that extends the query looks only in the rows the last one found.
      rows = this.#searchAmong(last.rows, needle, scope, mode);
    } else {
      const found = this.#searchRows(needle, scope, mode, from, this.count);
      // Found rows never change: a search that found nothing new shares the last one's.
      rows = from === 0 ? found : found.length === 0 ? known!.rows : joined(known!.rows, found);
    }
    this.#lastSearch = { key, rows, needle, scope, mode };
    if (!known || known.key !== key || known.count < this.count)
      this.#memo.search = { key, count: this.count, rows };
    return this.#lastSearch;
  }

  /** The rows from `from` to `to` that the search finds. */
  #searchRows(
    needle: string,
    scope: SearchScope,
    mode: SearchMode,
    from: number,
    to: number,
  ): Uint32Array {
    const { lineStarts: starts, tabs, idText } = this.#columns;
    // Positions below are in the whole text; `base` is where the searched part starts in it.
    const base = starts[from]!;
    const text =
      from === 0 && to === this.count
        ? this.#searchText()
        : latin1.decode(idText.subarray(base, starts[to]));
    const found = new Uint32Array(to - from);
    let n = 0;
    let row = from;
    let at = 0;
    const length = needle.length;
    for (;;) {
      const hit = text.indexOf(needle, at);
      if (hit < 0) break;
      const position = hit + base;
      while (starts[row + 1]! <= position) row++;
      const tab = tabs[row]!;
      // A needle holds no tab or newline, so a match lies within one of the two ids.
      const inId = position + length <= tab;
      const accepted =
        mode === 'contains'
          ? scope === 'any' || (scope === 'id') === inId
          : position === starts[row]
            ? scope !== 'petId'
            : position === tab + 1 && scope !== 'id';
      if (accepted) {
        found[n++] = row;
        at = starts[row + 1]! - base;
      } else {
        at = hit + 1;
      }
    }
    return found.slice(0, n);
  }

  /** Of `rows`, those the search finds, read from the id bytes row by row (no text decoded). */
  #searchAmong(
    rows: Uint32Array,
    needle: string,
    scope: SearchScope,
    mode: SearchMode,
  ): Uint32Array {
    const { lineStarts: starts, tabs, idText: text } = this.#columns;
    const length = needle.length;
    const wanted = new Uint8Array(length);
    for (let k = 0; k < length; k++) wanted[k] = needle.charCodeAt(k);
    const anywhere = mode === 'contains';
    const inId = scope !== 'petId';
    const inPetId = scope !== 'id';
    const found = new Uint32Array(rows.length);
    let n = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const tab = tabs[row]!;
      // The id is text[start, tab), the pet id text[tab + 1, end - 1).
      if (
        (inId && holds(text, wanted, starts[row]!, tab, anywhere)) ||
        (inPetId && holds(text, wanted, tab + 1, starts[row + 1]! - 1, anywhere))
      )
        found[n++] = row;
    }
    return found.slice(0, n);
  }

  /** The rows a query shows, in the order it shows them. */
  view(query: ViewQuery): Uint32Array {
    const found = this.#found(query.search, query.scope, query.mode);
    const matches = found?.rows;
    const filter = this.#filter(query);
    if (!query.sort) {
      if (!matches && !filter) return this.allRows();
      return keep(matches ?? this.allRows(), filter);
    }
    // Few rows found, and the whole list not sorted yet by this column: sort only them.
    if (found && !this.#sorted.has(query.sort.column) && found.rows.length * 2 <= this.count)
      return keep(this.#directed(query.sort, this.#sortedFound(query.sort.column, found)), filter);
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
    const codes = this.#columns.complete;
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
}

/** Whether `text[from, to)` holds `wanted`: anywhere in it, or from its start. */
function holds(
  text: Uint8Array,
  wanted: Uint8Array,
  from: number,
  to: number,
  anywhere: boolean,
): boolean {
  const length = wanted.length;
  const last = anywhere ? to - length : Math.min(from, to - length);
  const first = wanted[0];
  for (let at = from; at <= last; at++) {
    if (text[at] !== first) continue;
    let k = 1;
    while (k < length && text[at + k] === wanted[k]) k++;
    if (k === length) return true;
  }
  return false;
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
