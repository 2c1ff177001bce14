// What the changes since the last refresh say about the rows of the list on
// screen, built once per list: each row's mark (new, changed) in a byte per
// row, the changed orders' values before by row, and the rows a Changes
// filter keeps. The rows main names are positions in the list it compared,
// so they apply only to that very list (its time and its size).

import type { ChangedOrder, OrderChangesView } from '../../../../shared/order-changes.ts';

export type ChangeMark = 'new' | 'changed';
/** The Changes filter: every order, or only those new, changed or gone since the last refresh. */
export type ChangesFilter = 'all' | 'new' | 'changed' | 'gone';

const NEW = 1;
const CHANGED = 2;

export interface ChangeLookup {
  readonly view: Extract<OrderChangesView, { kind: 'compared' }>;
  markOf(row: number): ChangeMark | undefined;
  changedOf(row: number): ChangedOrder | undefined;
  /** The rows of `rows` the filter keeps, in their order ('gone' keeps none: those are listed apart). */
  keep(rows: Uint32Array, filter: ChangesFilter): Uint32Array;
}

const built = new WeakMap<object, ChangeLookup>();

/**
 * The lookup for a list of `count` orders received at `receivedAt`, or
 * undefined when the changes were worked out for another list.
 */
export function changeLookupOf(
  view: OrderChangesView | undefined,
  receivedAt: number,
  count: number,
): ChangeLookup | undefined {
  if (view?.kind !== 'compared') return undefined;
  if (view.summary.at !== receivedAt || view.summary.count !== count) return undefined;
  const known = built.get(view);
  if (known) return known;
  const marks = new Uint8Array(count);
  for (const row of view.added.rows) if (row < count) marks[row] = NEW;
  const changedByRow = new Map<number, ChangedOrder>();
  for (const order of view.changed) {
    if (order.row >= count) continue;
    marks[order.row] = CHANGED;
    changedByRow.set(order.row, order);
  }
  const lookup: ChangeLookup = {
    view,
    markOf: (row) => (marks[row] === NEW ? 'new' : marks[row] === CHANGED ? 'changed' : undefined),
    changedOf: (row) => changedByRow.get(row),
    keep(rows, filter) {
      if (filter === 'all') return rows;
      const wanted = filter === 'new' ? NEW : filter === 'changed' ? CHANGED : -1;
      const kept = new Uint32Array(rows.length);
      let n = 0;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        if (marks[row] === wanted) kept[n++] = row;
      }
      return kept.slice(0, n);
    },
  };
  built.set(view, lookup);
  return lookup;
}

/** The rows the Changes filter keeps; without changes known for the list, all or none. */
export function keepChanges(
  rows: Uint32Array,
  filter: ChangesFilter,
  lookup: ChangeLookup | undefined,
): Uint32Array {
  if (lookup) return lookup.keep(rows, filter);
  return filter === 'all' ? rows : new Uint32Array(0);
}
