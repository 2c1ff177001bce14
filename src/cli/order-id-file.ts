// The order numbers a bulk cancel from the command line works through: a file
// with one per line, or a CSV with an `id` column (also `Order ID`, as the
// app's own exports write it, ids as `="201"`). Every line is checked before
// anything is sent; a bad one is named by its line number.

import { isInt64Text } from '../shared/order.ts';

export class OrderIdFileError extends Error {}

const ID_HEADERS = new Set(['id', 'order id', 'orderid', 'order_id']);
/** What a bulk cancel takes at once (as the app's IPC does). */
export const MAX_ORDER_IDS = 1_000_000;

/** Rows of CSV text (RFC 4180: quoted fields may hold commas, quotes and line breaks), with the line each starts on. */
export function csvRows(text: string): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && cell.trim() === '') {
      cell = '';
      quoted = true;
    } else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      rows.push({ line: rowLine, cells });
      cells = [];
      cell = '';
      rowLine = ++line;
    } else cell += c;
  }
  if (quoted) throw new OrderIdFileError(`line ${rowLine}: a quoted field is never closed`);
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    rows.push({ line: rowLine, cells });
  }
  return rows;
}

export interface OrderIdList {
  /** Each order once, in the file's order. */
  readonly ids: string[];
  /** Ids given more than once (counted once). */
  readonly duplicates: number;
}

/**
 * A cell's order number: as it is, or as the app's own CSV export writes
 * ids for spreadsheets, `="201"`, so they keep all their digits.
 */
function idText(cell: string): string {
  const value = cell.trim();
  return /^="[^"]*"$/.test(value) ? value.slice(2, -1).trim() : value;
}

/** Reads the order numbers out of a file's text; throws OrderIdFileError naming the first bad lines. */
export function parseOrderIdFile(text: string): OrderIdList {
  const rows = csvRows(text.replace(/^\uFEFF/, '')).filter((row) =>
    row.cells.some((cell) => cell.trim() !== ''),
  );
  if (rows.length === 0) throw new OrderIdFileError('it holds no order numbers');
  const header = rows[0]!.cells.map((cell) => cell.trim().toLowerCase());
  const column = header.findIndex((cell) => ID_HEADERS.has(cell));
  const csv = column >= 0;
  if (!csv && rows.some((row) => row.cells.length > 1)) {
    throw new OrderIdFileError(
      'a CSV needs an "id" column in its first line (or give one order number per line)',
    );
  }
  const bad: string[] = [];
  const ids: string[] = [];
  for (const row of csv ? rows.slice(1) : rows) {
    const value = idText(row.cells[csv ? column : 0] ?? '');
    if (isInt64Text(value)) ids.push(value);
    else if (bad.length < 3)
      bad.push(`line ${row.line}: “${value.slice(0, 40)}” is not an order number`);
    else bad.push('');
  }
  if (bad.length > 0) {
    const more = bad.length > 3 ? ` (and ${bad.length - 3} more)` : '';
    throw new OrderIdFileError(`${bad.slice(0, 3).join('; ')}${more}`);
  }
  if (ids.length === 0) throw new OrderIdFileError('it holds no order numbers');
  const unique = [...new Set(ids)];
  if (unique.length > MAX_ORDER_IDS)
    throw new OrderIdFileError(
      `it holds ${unique.length} orders; at most ${MAX_ORDER_IDS} at once`,
    );
  return { ids: unique, duplicates: ids.length - unique.length };
}
