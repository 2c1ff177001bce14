// Sorts that grow with a list as it arrives. The tables of one list share a
// ViewMemo: each column's sort of the rows so far (and of the last search's
// rows), so a table of more rows sorts only the rows that came since, with a
// radix sort of their exact keys (integer-sort.ts), and merges them in.

import { fitted, joined, resized } from '../../../../../shared/typed-arrays.ts';
import { sortedPositions, sortRowsByKeys } from './integer-sort.ts';
import type { SortColumn } from './order-table.ts';

/** The columns sorted by their keys ("complete" is a counting sort of three values). */
export type KeyedColumn = Exclude<SortColumn, 'complete'>;

/** The rows sorted by one column; rows without the value last both ways. */
export interface SortedColumn {
  readonly ascending: Uint32Array;
  /** Built on first need from the ascending order. */
  descending: Uint32Array | undefined;
  /** How many rows have the value (the rest come last). */
  readonly present: number;
}

/**
 * A growing sort's rows and their exact keys, in sorted order, in arrays
 * with room to spare, so the next rows merge in where they are (from the
 * back) instead of into new arrays each time: the value (a time, a
 * quantity) or an id's high part in `highs`, an id's low part in `lows`
 * (see integer-sort.ts). Only the first `count` entries are used.
 */
interface MergeRun {
  readonly rows: Uint32Array;
  readonly highs: Float64Array;
  readonly lows: Uint32Array | undefined;
}

/** Some rows: those with a value (their keys by position) and those without. */
export interface KeysOf {
  readonly present: Uint32Array;
  readonly missing: Uint32Array;
  readonly highs: Float64Array;
  readonly lows: Uint32Array | undefined;
}

/**
 * A column's sort of some rows (all of them, or a search's) as far as the
 * list had come: those with the value, sorted (stable), and those without.
 */
export interface GrowingSort {
  /** The table's rows it is of: the list as far as it had come. */
  readonly upTo: number;
  /** How many of the rows sorted (all of them, or those a search found among the first `upTo`). */
  readonly count: number;
  readonly present: Uint32Array;
  readonly missing: Uint32Array;
  /**
   * `present` (its first entries) with its keys, in its order, to merge the
   * next rows in with one pass in sequence (gathering them by row would miss
   * the cache at every step); dropped once the list is whole.
   */
  readonly run: MergeRun | undefined;
}

/**
 * What the tables of one list share as it arrives: each sort, the last
 * search and its rows' sorts as far as the rows had come, so a table of more
 * rows sorts only the new ones and merges them in, and searches only their
 * text. So the view
 * follows a growing list cheaply, and is ready the moment the list is whole.
 */
export class ViewMemo {
  readonly sorts: GrowingSorts = new Map();
  search: { readonly key: string; readonly count: number; readonly rows: Uint32Array } | undefined;
  /** The last search's rows sorted by each column it was sorted by. */
  searchSorts: { readonly key: string; readonly sorts: GrowingSorts } | undefined;
  /** The list is whole: nothing more will be merged in, so the keys kept for that go. */
  whole = false;

  /** The rows the list likely holds, so a growing sort makes room for them once. */
  readonly expected: number;

  constructor(expected = 0) {
    this.expected = expected;
  }

  /**
   * The list is whole at `count` rows. A sort that has them all drops its
   * keys now; one that is behind keeps them, so the rows that came since are
   * merged in on first need instead of the whole list sorted again.
   */
  settle(count: number): void {
    this.whole = true;
    for (const sorts of [this.sorts, this.searchSorts?.sorts])
      for (const [column, sort] of sorts ?? [])
        if (sort.upTo === count) sorts!.set(column, { ...sort, run: undefined });
  }
}

export type GrowingSorts = Map<KeyedColumn, GrowingSort>;

/** What a growing sort needs of the table it sorts for. */
export interface GrowingTable {
  /** The table's rows: the list as far as it has come. */
  readonly upTo: number;
  readonly memo: ViewMemo;
  /** Of some rows, those with the column's value, with their keys, and those without. */
  readonly keysOf: (rows: Uint32Array) => KeysOf;
}

/**
 * The column's sort of `rows` (a table's, or a search's among them),
 * grown from what the list's earlier tables sorted of them (in `sorts`):
 * the new rows sorted alone with a radix sort of their exact keys
 * (integer-sort.ts), then merged in.
 */
export function growSort(
  column: KeyedColumn,
  rows: Uint32Array,
  sorts: GrowingSorts,
  { upTo, memo, keysOf }: GrowingTable,
): GrowingSort {
  const count = rows.length;
  const known = sorts.get(column);
  if (known?.upTo === upTo) return known;
  // Grown from what is known, if that is of fewer rows and can still be merged into. The rows
  // sorted then are the first of these: a search finds the same rows again in the same order.
  const from = known && known.upTo < upTo && known.run ? known.count : 0;
  const { present, missing, highs, lows } = keysOf(rows.subarray(from));
  const n = present.length;
  let sorted: Uint32Array;
  let run: MergeRun | undefined;
  const grows = !memo.whole && (!known || known.upTo < upTo);
  if (from === 0 && !grows) {
    // Nothing will be merged into this sort: the rows move through the radix passes themselves.
    sorted = sortRowsByKeys(present, highs, lows);
  } else if (from > 0) {
    const order = sortedPositions(highs, lows, n);
    run = mergeInto(known!.run!, known!.present.length, order, present, highs, lows);
    sorted = run.rows.subarray(0, known!.present.length + n);
    // The list is whole: its sort keeps only the rows, without the room to grow.
    if (memo.whole) sorted = fitted(run.rows, sorted.length);
  } else {
    const order = sortedPositions(highs, lows, n);
    // Room for the rows expected (or twice these) before the arrays are copied.
    const room = Math.max(2 * n, Math.ceil((memo.expected * count) / Math.max(1, upTo)));
    run = {
      rows: new Uint32Array(room),
      highs: new Float64Array(room),
      lows: lows ? new Uint32Array(room) : undefined,
    };
    run = mergeInto(run, 0, order, present, highs, lows);
    sorted = run.rows.subarray(0, n);
  }
  const grownSort: GrowingSort = {
    upTo,
    count,
    present: sorted,
    missing: from > 0 ? joined(known!.missing, missing) : missing.slice(),
    // Kept only while the list may grow: a whole list's sorts are not merged into again.
    run: memo.whole ? undefined : run,
  };
  // A table of an earlier moment (still on screen) does not set the list's memo back.
  if (!known || known.upTo < upTo) sorts.set(column, grownSort);
  return grownSort;
}

/**
 * Merges `count` sorted rows with their keys (by position `order[k]` in
 * `rows`, `highs`, `lows`) into the first `used` entries of `run`, in place
 * from the back; `run`'s rows come first among equals (they came first in
 * the list). Grows `run` when it has no room; returns it.
 */
function mergeInto(
  run: MergeRun,
  used: number,
  order: Uint32Array,
  rows: Uint32Array,
  highs: Float64Array,
  lows: Uint32Array | undefined,
): MergeRun {
  const count = order.length;
  const total = used + count;
  if (total > run.rows.length) {
    const size = Math.max(total, Math.ceil(run.rows.length * 1.5));
    run = {
      rows: resized(run.rows, size, used),
      highs: resized(run.highs, size, used),
      lows: run.lows && resized(run.lows, size, used),
    };
  }
  const { rows: toRows, highs: toHighs, lows: toLows } = run;
  let i = used - 1;
  let j = count - 1;
  for (let k = total - 1; j >= 0; k--) {
    const at = order[j]!;
    const high = highs[at]!;
    const low = lows ? lows[at]! : 0;
    // The known row goes last only if its key is greater: among equals the new row goes after it.
    if (i >= 0 && (toHighs[i]! > high || (toLows && toHighs[i] === high && toLows[i]! > low))) {
      toRows[k] = toRows[i]!;
      toHighs[k] = toHighs[i]!;
      if (toLows) toLows[k] = toLows[i]!;
      i--;
    } else {
      toRows[k] = rows[at]!;
      toHighs[k] = high;
      if (toLows) toLows[k] = low;
      j--;
    }
  }
  return run;
}

/** A sort's rows ascending: those with the value, then those without. */
export function ascendingOf({ present, missing, run }: GrowingSort): SortedColumn {
  // Every row has the value and nothing will merge into `present` again: shared as it is.
  if (!run && missing.length === 0)
    return { ascending: present, descending: undefined, present: present.length };
  const ascending = new Uint32Array(present.length + missing.length);
  ascending.set(present);
  ascending.set(missing, present.length);
  return { ascending, descending: undefined, present: present.length };
}
