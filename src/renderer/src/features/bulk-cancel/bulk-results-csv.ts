// The results of a bulk cancel as CSV, one row per order, written with the
// one CSV module (components/csv.ts).

import { OUTCOME_LABELS, type BulkResult } from '../../../../shared/bulk-cancel.ts';
import { csvCell, csvHeader, csvId, csvLine } from '../../components/csv.ts';

const HEADER = ['Order ID', 'Result', 'Time (UTC)', 'Reached the service', 'Message'] as const;

export function bulkResultsCsv(results: readonly BulkResult[]): string {
  let csv = csvHeader(HEADER);
  for (const r of results) {
    csv += csvLine([
      csvId(r.orderId),
      csvCell(OUTCOME_LABELS[r.outcome]),
      csvCell(new Date(r.at).toISOString()),
      csvCell(r.delivery),
      csvCell(r.message),
    ]);
  }
  return csv;
}
