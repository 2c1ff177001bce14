// The orders grid's rows, outside React: a pool of row elements placed and
// filled in place, synchronously, when the grid scrolls (in the scroll event,
// before the frame is painted) and when what the rows show changes. A render
// per scroll frame left the frame painted before the rows it needed; this
// costs a few text writes per row that comes into view instead.
//
// An element stays with its order while that order is wanted (in view, a few
// rows around, or the grid's tab stop), as React's keys did, so the focus
// stays on the order it is on; one that leaves is given to another order.
// The elements keep the rows' order in the page (screen readers read it),
// moving as few as they can and never the focused one.

import { rowsInView, rowTop, type GridScroll } from './grid-scroll.ts';
import { rowDataOf, type GridColumn, type RowContent } from './order-cells.ts';

/** Rows rendered beyond the viewport on each side, so a scroll the compositor shows first still has rows. */
export const OVERSCAN = 10;

interface PooledRow {
  readonly element: HTMLDivElement;
  readonly cells: readonly HTMLElement[];
  /** What each cell shows (order-cells.ts signatures). */
  readonly signatures: string[];
  /** The list row it shows, -1 when free. */
  row: number;
  position: number;
  top: number;
  /** What the row element's own attributes say now, so a fill writes only what changes. */
  selected: boolean | undefined;
  tabStop: boolean | undefined;
  className: string;
  /** The content it was last filled from. */
  filledFrom: RowContent | undefined;
}

export class GridRows {
  readonly #body: HTMLElement;
  readonly #columns: readonly GridColumn[];
  readonly #rowHeight: number;
  #content: RowContent | undefined;
  /** By list row. */
  readonly #placed = new Map<number, PooledRow>();
  readonly #free: PooledRow[] = [];
  readonly #byElement = new WeakMap<Element, PooledRow>();
  /** The range placed last, to skip a scroll that changes nothing. */
  #last = { from: 0, to: -1, scrollTop: Number.NaN, scroll: undefined as GridScroll | undefined };

  constructor(body: HTMLElement, columns: readonly GridColumn[], rowHeight: number) {
    this.#body = body;
    this.#columns = columns;
    this.#rowHeight = rowHeight;
  }

  /** What the rows show from now on; `place` then fills every row again. */
  setContent(content: RowContent): void {
    this.#content = content;
    this.#last.scroll = undefined;
  }

  /** The row element at a position of the view, if it is in the page. */
  elementAt(position: number): HTMLElement | undefined {
    const row = this.#content?.rows[position];
    const pooled = row === undefined ? undefined : this.#placed.get(row);
    return pooled?.position === position ? pooled.element : undefined;
  }

  /** The view position of the row element holding `target`, if any. */
  positionOf(target: EventTarget | null): number | undefined {
    if (!(target instanceof Element)) return undefined;
    const element = target.closest('[role="row"]');
    const pooled = element ? this.#byElement.get(element) : undefined;
    return pooled && pooled.row >= 0 ? pooled.position : undefined;
  }

  /** Places and fills the rows for the viewport at `scrollTop`. */
  place(scroll: GridScroll, scrollTop: number): void {
    const content = this.#content;
    if (!content) return;
    const shown = content.rows.length;
    const { first, last } = rowsInView(scroll, scrollTop);
    const from = Math.max(0, first - OVERSCAN);
    const to = Math.min(shown - 1, last + OVERSCAN);
    const scaled = scroll.listHeight > scroll.contentHeight;
    const previous = this.#last;
    // Unscaled, a row's top never changes: a scroll within the same rows has nothing to do.
    if (
      previous.scroll === scroll &&
      previous.from === from &&
      previous.to === to &&
      (!scaled || previous.scrollTop === scrollTop)
    )
      return;
    this.#last = { from, to, scrollTop, scroll };

    // The rows wanted, in the order of the view: the tab stop wherever it is (so the focus never
    // falls out of the grid while scrolling); one far away sits out of sight above the content.
    const tabStop = shown > 0 ? Math.min(content.tabStop, shown - 1) : -1;
    const positions: number[] = [];
    if (tabStop >= 0 && tabStop < from) positions.push(tabStop);
    for (let at = from; at <= to; at++) positions.push(at);
    if (tabStop > to) positions.push(tabStop);
    const wanted = new Map<number, number>();
    for (const at of positions) wanted.set(content.rows[at]!, at);

    const active = this.#body.ownerDocument.activeElement;
    for (const [row, pooled] of this.#placed) {
      if (wanted.has(row)) continue;
      // The focus does not stay on an element that is given to another order (as when React removed it).
      if (active && pooled.element.contains(active) && active instanceof HTMLElement) active.blur();
      this.#placed.delete(row);
      pooled.row = -1;
      this.#free.push(pooled);
    }

    const ordered: PooledRow[] = [];
    let sorted = false;
    for (const at of positions) {
      const row = content.rows[at]!;
      let pooled = this.#placed.get(row);
      if (!pooled) {
        // Free elements are handed out in page order, so rows that all change at once (a search)
        // take them in the order they stand and none moves.
        if (!sorted) {
          sorted = true;
          this.#sortFree();
        }
        pooled = this.#free.pop() ?? this.#make();
        pooled.row = row;
        pooled.filledFrom = undefined;
        pooled.element.hidden = false;
        this.#placed.set(row, pooled);
      }
      const top = at < from || at > to ? -2 * this.#rowHeight : rowTop(scroll, at, scrollTop);
      this.#fill(pooled, content, at, top);
      ordered.push(pooled);
    }
    for (const pooled of this.#free) {
      if (!pooled.element.hidden) pooled.element.hidden = true;
      pooled.filledFrom = undefined;
    }
    this.#order(ordered, active);
  }

  /** The free rows, the first in the page last (`pop` takes it first). */
  #sortFree(): void {
    if (this.#free.length < 2) return;
    const children = this.#body.children;
    const indexOf = new Map<Element, number>();
    for (let i = 0; i < children.length; i++) indexOf.set(children[i]!, i);
    this.#free.sort((a, b) => indexOf.get(b.element)! - indexOf.get(a.element)!);
  }

  #make(): PooledRow {
    const element = document.createElement('div');
    element.setAttribute('role', 'row');
    const cells = this.#columns.map((column) => {
      const cell = document.createElement('div');
      cell.setAttribute('role', column.role);
      cell.className = `orders-grid-cell${column.className ? ` ${column.className}` : ''}`;
      return cell;
    });
    element.append(...cells);
    const pooled: PooledRow = {
      element,
      cells,
      signatures: this.#columns.map(() => ''),
      row: -1,
      position: -1,
      top: Number.NaN,
      selected: undefined,
      tabStop: undefined,
      className: '',
      filledFrom: undefined,
    };
    this.#byElement.set(element, pooled);
    this.#body.append(element);
    return pooled;
  }

  #fill(pooled: PooledRow, content: RowContent, position: number, top: number): void {
    const { element } = pooled;
    if (pooled.top !== top) {
      pooled.top = top;
      // top, not a transform: a row never sits far down the content (see grid-scroll.ts), and top stays crisp.
      element.style.top = `${top}px`;
    }
    if (pooled.filledFrom === content && pooled.position === position) return;
    const data = rowDataOf(content, pooled.row);
    if (pooled.position !== position || pooled.filledFrom === undefined) {
      element.setAttribute('aria-rowindex', String(position + 2));
      element.dataset.position = String(position);
    }
    pooled.position = position;
    // Only what changes is written: each write of an attribute a selector names costs a style pass.
    const selected = position === content.position;
    if (pooled.selected !== selected) {
      pooled.selected = selected;
      element.setAttribute('aria-selected', String(selected));
    }
    const tabStop = position === content.tabStop;
    if (pooled.tabStop !== tabStop) {
      pooled.tabStop = tabStop;
      element.tabIndex = tabStop ? 0 : -1;
    }
    const className = `orders-grid-row orders-grid-item${data.status ? ` row-${data.status}` : ''}`;
    if (pooled.className !== className) {
      pooled.className = className;
      element.className = className;
    }
    const columns = this.#columns;
    for (let k = 0; k < columns.length; k++) {
      const column = columns[k]!;
      const signature = column.signature(data);
      if (signature === pooled.signatures[k]) continue;
      pooled.signatures[k] = signature;
      column.draw(pooled.cells[k]!, data);
    }
    pooled.filledFrom = content;
  }

  /**
   * Puts the placed rows in view order in the page, moving the fewest: those
   * outside the longest run already in order (and never the focused one,
   * which a move would blur).
   */
  #order(ordered: readonly PooledRow[], active: Element | null): void {
    const n = ordered.length;
    if (n < 2) return;
    const children = this.#body.children;
    const indexOf = new Map<Element, number>();
    for (let i = 0; i < children.length; i++) indexOf.set(children[i]!, i);
    const at = ordered.map((pooled) => indexOf.get(pooled.element) ?? -1);
    let inOrder = true;
    for (let i = 1; i < n && inOrder; i++) inOrder = at[i]! > at[i - 1]!;
    if (inOrder) return;
    const fixedIndex = active ? ordered.findIndex((p) => p.element.contains(active)) : -1;
    const stays = longestRising(at, fixedIndex);
    for (let i = n - 1; i >= 0; i--) {
      if (stays[i]) continue;
      const next = i + 1 < n ? ordered[i + 1]!.element : null;
      this.#body.insertBefore(ordered[i]!.element, next);
    }
  }
}

/**
 * Which entries of `values` (distinct) form a longest strictly rising run
 * (not necessarily adjacent), including the one at `fixed` when given.
 */
export function longestRising(values: readonly number[], fixed = -1): boolean[] {
  const n = values.length;
  // Entries that cannot sit in a rising run with the fixed one are left out.
  const allowed = (i: number) =>
    fixed < 0 ||
    i === fixed ||
    (i < fixed ? values[i]! < values[fixed]! : values[i]! > values[fixed]!);
  const tails: number[] = [];
  const before = new Array<number>(n).fill(-1);
  for (let i = 0; i < n; i++) {
    if (!allowed(i)) continue;
    const value = values[i]!;
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (values[tails[middle]!]! < value) low = middle + 1;
      else high = middle;
    }
    before[i] = low > 0 ? tails[low - 1]! : -1;
    tails[low] = i;
  }
  const stays = new Array<boolean>(n).fill(false);
  for (let i = tails.length > 0 ? tails[tails.length - 1]! : -1; i >= 0; i = before[i]!)
    stays[i] = true;
  return stays;
}
