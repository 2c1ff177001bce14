// Which rows of one order list are ticked for a bulk cancel: a bitmap over
// the list's rows, so "select all shown" at a million orders stays cheap.
// Immutable: each change gives a new selection, for React.

export type AllState = 'none' | 'some' | 'all';

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
