// The results of a bulk cancel as CSV, one row per order, quoted per RFC 4180.

import type { BulkOutcome, BulkResult } from '../../../../shared/bulk-cancel.ts';

export const OUTCOME_WORDS: Readonly<Record<BulkOutcome, string>> = {
  cancelled: 'Cancelled',
  'already-shipped': 'Already shipped',
  'not-found': 'Not found',
  gone: 'Gone (answer lost)',
  failed: 'Failed',
};

function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function bulkResultsCsv(results: readonly BulkResult[]): string {
  const rows = results.map((r) =>
    [r.orderId, OUTCOME_WORDS[r.outcome], new Date(r.at).toISOString(), r.delivery ?? '', r.message]
      .map(cell)
      .join(','),
  );
  return `${['Order ID', 'Result', 'Time (UTC)', 'Reached the service', 'Message'].join(',')}\r\n${rows.map((r) => `${r}\r\n`).join('')}`;
}
