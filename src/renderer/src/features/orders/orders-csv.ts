// CSV (RFC 4180) of the orders on screen and of the cancel log: every field
// quoted when it needs to be, CRLF line ends, ids as their exact decimal text
// in quotes (never a number a spreadsheet could round), and free text that
// could start a spreadsheet formula defused with a leading apostrophe.

import type { CancelLogEntry } from '../../../../shared/orders-local.ts';
import type { ReviewMarks } from '../../../../shared/orders-local.ts';
import type { OrderTable } from './order-table.ts';
import { ROW_STATUS_WORDS, type RowStatus } from './row-status.ts';

const LINE_END = '\r\n';
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: quoted (inner quotes doubled) when it holds a comma, quote, line break or edge space. */
export function csvField(value: string | number | boolean | undefined): string {
  if (value === undefined) return '';
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Text typed by a person: a leading =, +, -, @ would run as a formula in a spreadsheet. */
export function csvText(value: string | undefined): string {
  if (value === undefined || value === '') return '';
  return csvField(FORMULA_START.test(value) ? `'${value}` : value);
}

/** An id, always quoted, so it reads as text. */
function csvId(id: string | undefined): string {
  return id === undefined ? '' : `"${id}"`;
}

export const ORDER_CSV_HEADER = [
  'Order ID',
  'Pet ID',
  'Quantity',
  'Ship date',
  'Complete',
  'Reviewed',
  'Note',
  'Status',
] as const;

const ROWS_PER_PART = 10_000;

/**
 * The rows of a view, in its order, as CSV in parts (a Blob takes the parts
 * as they are: no single string of a million lines). Ship dates as the
 * service sent them; Reviewed and Note are the local review marks; Status is
 * what this computer learned from cancels.
 */
export function ordersCsvParts(
  table: OrderTable,
  rows: Uint32Array,
  marks: ReviewMarks,
  statuses: ReadonlyMap<string, RowStatus>,
): string[] {
  const parts = [ORDER_CSV_HEADER.map(csvField).join(',') + LINE_END];
  for (let start = 0; start < rows.length; start += ROWS_PER_PART) {
    const lines: string[] = [];
    const end = Math.min(rows.length, start + ROWS_PER_PART);
    for (let i = start; i < end; i++) {
      const row = rows[i]!;
      const id = table.idAt(row);
      const mark = id === undefined ? undefined : marks[id];
      const status = id === undefined ? undefined : statuses.get(id);
      const complete = table.completeAt(row);
      lines.push(
        [
          csvId(id),
          csvId(table.petIdAt(row)),
          csvField(table.quantityAt(row)),
          csvField(table.shipDateAt(row)),
          complete === undefined ? '' : complete ? 'yes' : 'no',
          mark?.reviewed ? 'yes' : 'no',
          csvText(mark?.note),
          status === undefined ? '' : csvField(ROW_STATUS_WORDS[status]),
        ].join(','),
      );
    }
    parts.push(lines.join(LINE_END) + LINE_END);
  }
  return parts;
}

export function ordersCsv(
  table: OrderTable,
  rows: Uint32Array,
  marks: ReviewMarks,
  statuses: ReadonlyMap<string, RowStatus>,
): string {
  return ordersCsvParts(table, rows, marks, statuses).join('');
}

export const CANCEL_LOG_CSV_HEADER = [
  'Time',
  'Environment',
  'Order ID',
  'Result',
  'Delivery',
  'Message',
] as const;

const RESULT_WORDS: Readonly<Record<CancelLogEntry['result'], string>> = {
  cancelled: 'cancelled',
  'not-found': 'not found',
  gone: 'gone (may or may not have been cancelled)',
  'already-shipped': 'already shipped',
  failed: 'failed',
};

/** The cancel log as CSV, oldest first; times in ISO 8601 (UTC). */
export function cancelLogCsv(entries: readonly CancelLogEntry[]): string {
  const lines = [CANCEL_LOG_CSV_HEADER.map(csvField).join(',')];
  for (const entry of entries) {
    lines.push(
      [
        csvField(new Date(entry.at).toISOString()),
        csvField(entry.environment),
        csvId(entry.orderId),
        csvField(RESULT_WORDS[entry.result]),
        csvField(entry.delivery),
        csvText(entry.message),
      ].join(','),
    );
  }
  return lines.join(LINE_END) + LINE_END;
}
