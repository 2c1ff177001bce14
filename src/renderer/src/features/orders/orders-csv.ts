// CSV of the orders on screen and of the cancel log, written with the one CSV
// module (components/csv.ts): ids exact, text that could start a formula
// neutralised, CRLF line ends.

import { OUTCOME_LABELS } from '../../../../shared/bulk-cancel.ts';
import type { CancelLogEntry, ReviewMarks } from '../../../../shared/orders-local.ts';
import { csvCell, csvHeader, csvId, csvLine } from '../../components/csv.ts';
import type { OrderTable } from './table/order-table.ts';
import { ROW_STATUS_WORDS, type RowStatus } from './row-status.ts';

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
  const parts = [csvHeader(ORDER_CSV_HEADER)];
  for (let start = 0; start < rows.length; start += ROWS_PER_PART) {
    let part = '';
    const end = Math.min(rows.length, start + ROWS_PER_PART);
    for (let i = start; i < end; i++) {
      const row = rows[i]!;
      const id = table.idAt(row);
      const mark = id === undefined ? undefined : marks[id];
      const status = id === undefined ? undefined : statuses.get(id);
      const complete = table.completeAt(row);
      part += csvLine([
        csvId(id),
        csvId(table.petIdAt(row)),
        csvCell(table.quantityAt(row)),
        csvCell(table.shipDateAt(row)),
        complete === undefined ? '' : complete ? 'yes' : 'no',
        mark?.reviewed ? 'yes' : 'no',
        csvCell(mark?.note || undefined),
        status === undefined ? '' : csvCell(ROW_STATUS_WORDS[status]),
      ]);
    }
    parts.push(part);
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

/** The cancel log as CSV, oldest first; times in ISO 8601 (UTC). */
export function cancelLogCsv(entries: readonly CancelLogEntry[]): string {
  let csv = csvHeader(CANCEL_LOG_CSV_HEADER);
  for (const entry of entries) {
    csv += csvLine([
      csvCell(new Date(entry.at).toISOString()),
      csvCell(entry.environment),
      csvId(entry.orderId),
      csvCell(OUTCOME_LABELS[entry.result].toLowerCase()),
      csvCell(entry.delivery),
      csvCell(entry.message),
    ]);
  }
  return csv;
}
