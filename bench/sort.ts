// Sorting 1,000,000 orders from scratch, in Node: a fresh table of the
// sandbox's list (read by the scanner, as main reads it), sorted by each
// numeric column as the page sorts it (order-table.ts: keys read, radix
// passes, rows without the value last) against the platform's own sort of
// the same keys alone (Float64Array#sort, no rows carried), in the same run.
// The page builds these orders while idle once a list is whole
// (prepared-sorts.ts); this is what a click costs before that is done.

import {
  OrderTable,
  type SortColumn,
} from '../src/renderer/src/features/orders/table/order-table.ts';
import { startSandbox } from '../src/main/sandbox/server.ts';
import { OrderListScanner } from '../src/shared/order-list-scanner.ts';
import type { OrderColumns } from '../src/shared/order-columns.ts';
import { median, ms, type BenchLine } from './report.ts';

const KEY = 'demo-enterprise';

async function sandboxColumns(orders: number): Promise<OrderColumns> {
  const sandbox = await startSandbox({
    port: 0,
    orders,
    enterpriseLimits: { perMinute: 100_000, perDay: 10_000_000 },
  });
  try {
    const response = await fetch(`${sandbox.baseUrl}/store/orders`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    const scanner = new OrderListScanner();
    scanner.push(new Uint8Array(await response.arrayBuffer()));
    return scanner.finish();
  } finally {
    await sandbox.close();
  }
}

const COLUMNS: readonly [SortColumn, string, (columns: OrderColumns) => Float64Array][] = [
  ['petId', 'pet ID', (c) => c.petIdHighs.map((high, row) => high * 1e9 + c.petIdLows[row]!)],
  ['shipDate', 'ship date', (c) => c.shipTimes.slice()],
  ['quantity', 'quantity', (c) => c.quantities.slice()],
];

export async function benchSortFromScratch(orders: number, rounds: number): Promise<BenchLine[]> {
  const columns = await sandboxColumns(orders);
  const lines: BenchLine[] = [];
  for (const [column, words, keysOf] of COLUMNS) {
    const ours: number[] = [];
    const platform: number[] = [];
    // A round more than asked: the first warms the code, as a page that has sorted once.
    for (let round = 0; round <= rounds; round++) {
      const table = OrderTable.fromColumns(columns);
      let start = performance.now();
      table.sortedRows({ column, direction: 'ascending' });
      if (round > 0) ours.push(performance.now() - start);
      const keys = keysOf(columns);
      start = performance.now();
      keys.sort();
      if (round > 0) platform.push(performance.now() - start);
    }
    const value = median(ours);
    const baseline = median(platform);
    const label = `sort (Node, from scratch): ${orders.toLocaleString('en')} orders by ${words}`;
    lines.push({
      name: `${label}: radix sort of the rows (Float64Array#sort of the keys alone, baseline: ${ms(baseline)})`,
      value: ms(value),
      figure: { name: `sort.${column}.fromScratch.ms`, value, unit: 'ms', baseline },
      ratio: value / baseline,
    });
  }
  return lines;
}
