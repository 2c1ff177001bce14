// Which rows of one order list are ticked for a bulk cancel: a bitmap over
// the list's rows, so "select all shown" at a million orders stays cheap.
// Immutable: each change gives a new selection, for React. Ticks are work in
// progress: a new table of the list (more rows arriving, or a refresh) takes
// them over, by row where the rows are the same and by order id otherwise.

import type { OrderTable } from '../orders/table/order-table.ts';

export type AllState = 'none' | 'some' | 'all';

/** Up to this many ticked orders are found in a new list one by one; more, in one pass over it. */
const FOUND_ONE_BY_ONE = 16;

export class RowSelection {
  readonly #bits: Uint8Array;
  readonly size: number;
  /** The row a shift-click range starts from. */
  readonly anchor: number | undefined;

  static empty(rowCount: number): RowSelection {
    return new RowSelection(new Uint8Array(rowCount), 0, undefined);
  }

  private constructor(bits: Uint8Array, size: number, anchor: number | undefined) {
    this.#bits = bits;
    this.size = size;
    this.anchor = anchor;
  }

  has(row: number): boolean {
    return this.#bits[row] === 1;
  }

  /** Ticks or unticks one row, which becomes the anchor. */
  toggle(row: number): RowSelection {
    return this.#with([row], !this.has(row), row);
  }

  /**
   * Shift-click: every row of the view between the anchor and `position`
   * takes the state the clicked row is given (the opposite of its own).
   */
  range(view: Uint32Array, position: number): RowSelection {
    const row = view[position];
    if (row === undefined) return this;
    const from = this.anchor === undefined ? -1 : view.indexOf(this.anchor);
    if (from < 0) return this.toggle(row);
    const [lo, hi] = from < position ? [from, position] : [position, from];
    return this.#with(view.subarray(lo, hi + 1), !this.has(row), row);
  }

  /** How the rows of `view` stand: none, some or all ticked. */
  stateOf(view: Uint32Array): AllState {
    // Nothing ticked (the usual case): no walk over a million rows each time the view changes.
    if (this.size === 0) return 'none';
    let ticked = 0;
    for (const row of view) ticked += this.#bits[row] ?? 0;
    return ticked === 0 ? 'none' : ticked === view.length ? 'all' : 'some';
  }

  /** "Select all shown": ticks every row of the view, or unticks them when all are ticked. */
  toggleAll(view: Uint32Array): RowSelection {
    return this.#with(view, this.stateOf(view) !== 'all', this.anchor);
  }

  /**
   * The same orders ticked in `to`, another table of the list: row for row
   * when `sameRows` (a table of more rows of the same download), else by
   * order id (a refreshed list). `lost`: the ids of ticked orders that are not
   * in `to`, in list order.
   */
  carriedTo(
    from: OrderTable,
    to: OrderTable,
    sameRows: boolean,
  ): { readonly selection: RowSelection; readonly lost: readonly string[] } {
    const ticked = this.rows();
    const bits = new Uint8Array(to.count);
    if (sameRows) {
      for (const row of ticked) if (row < to.count) bits[row] = 1;
      const size = ticked.filter((row) => row < to.count).length;
      return { selection: new RowSelection(bits, size, this.anchor), lost: [] };
    }
    const ids = ticked.map((row) => from.idAt(row)).filter((id) => id !== undefined);
    const found = rowsOfIds(to, ids);
    for (const row of found.values()) bits[row] = 1;
    const anchorId = this.anchor === undefined ? undefined : from.idAt(this.anchor);
    const anchor = anchorId === undefined ? undefined : found.get(anchorId);
    return {
      selection: new RowSelection(bits, found.size, anchor),
      lost: ids.filter((id) => !found.has(id)),
    };
  }

  /** The ticked rows, in list order. */
  rows(): number[] {
    const rows: number[] = [];
    for (let row = 0; row < this.#bits.length; row++) if (this.#bits[row] === 1) rows.push(row);
    return rows;
  }

  #with(rows: ArrayLike<number>, ticked: boolean, anchor: number | undefined): RowSelection {
    const bits = this.#bits.slice();
    let size = this.size;
    const value = ticked ? 1 : 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      if (row >= bits.length || bits[row] === value) continue;
      bits[row] = value;
      size += ticked ? 1 : -1;
    }
    return new RowSelection(bits, size, anchor);
  }
}

/** The row of each of `ids` that `table` holds (the first, where an id is repeated). */
export function rowsOfIds(table: OrderTable, ids: Iterable<string>): Map<string, number> {
  const wanted = new Set(ids);
  const found = new Map<string, number>();
  if (wanted.size <= FOUND_ONE_BY_ONE) {
    for (const id of wanted) {
      const row = table.rowOfId(id);
      if (row !== undefined) found.set(id, row);
    }
    return found;
  }
  for (let row = 0; row < table.count && found.size < wanted.size; row++) {
    const id = table.idAt(row);
    if (id !== undefined && wanted.has(id) && !found.has(id)) found.set(id, row);
  }
  return found;
}
