// The results of a bulk cancel as CSV, one row per order, written with the
// one CSV module (components/csv.ts).

import type { BulkOutcome, BulkResult } from '../../../../shared/bulk-cancel.ts';
import { csvCell, csvHeader, csvId, csvLine } from '../../components/csv.ts';

export const OUTCOME_WORDS: Readonly<Record<BulkOutcome, string>> = {
  cancelled: 'Cancelled',
  'already-shipped': 'Already shipped',
  'not-found': 'Not found',
  gone: 'Gone (answer lost)',
  failed: 'Failed',
};

const HEADER = ['Order ID', 'Result', 'Time (UTC)', 'Reached the service', 'Message'] as const;

export function bulkResultsCsv(results: readonly BulkResult[]): string {
  let csv = csvHeader(HEADER);
  for (const r of results) {
    csv += csvLine([
      csvId(r.orderId),
      csvCell(OUTCOME_WORDS[r.outcome]),
      csvCell(new Date(r.at).toISOString()),
      csvCell(r.delivery),
      csvCell(r.message),
    ]);
  }
  return csv;
}
