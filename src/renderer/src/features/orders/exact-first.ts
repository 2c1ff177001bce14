// Search puts the order whose id is typed in full first: a clerk who types
// an id wants that order, not the first of the ids that contain its digits.

import type { OrderTable, SearchScope } from './table/order-table.ts';

/** The row of the order whose id is `search` in full, when the search looks at order ids. */
export function exactIdRow(
  table: OrderTable,
  search: string,
  scope: SearchScope,
): number | undefined {
  const id = search.trim();
  if (scope === 'petId' || !/^-?\d+$/.test(id)) return undefined;
  return table.rowOfId(id);
}

/** `rows` with that order moved first, the rest in their order; `rows` itself when it is first or not shown. */
export function exactIdFirst(rows: Uint32Array, exactRow: number | undefined): Uint32Array {
  if (exactRow === undefined) return rows;
  const at = rows.indexOf(exactRow);
  if (at <= 0) return rows;
  const moved = new Uint32Array(rows.length);
  moved[0] = exactRow;
  moved.set(rows.subarray(0, at), 1);
  moved.set(rows.subarray(at + 1), at + 1);
  return moved;
}
