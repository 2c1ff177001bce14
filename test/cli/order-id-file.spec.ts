// The app's own CSV exports (written by its one CSV writer, ids as ="201" so a
// spreadsheet keeps every digit) are what `orders cancel --from` reads back:
// the round trip through the writer, and through the real command.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseOrderIdFile } from '../../src/cli/order-id-file.ts';
import { EXIT } from '../../src/cli/run.ts';
import { bulkResultsCsv } from '../../src/renderer/src/features/bulk-cancel/bulk-results-csv.ts';
import { cancelLogCsv } from '../../src/renderer/src/features/orders/orders-csv.ts';
import type { CancelLogEntry } from '../../src/shared/orders-local.ts';
import { runCliProcess } from '../support/cli-process.ts';
import { craftedStore } from '../support/crafted-store.ts';

const BIG = '9223372036854775807';
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const entry = (orderId: string, message: string): CancelLogEntry => ({
  at: Date.UTC(2026, 10, 22, 9, 0),
  environment: 'production',
  orderId,
  result: 'failed',
  message,
  delivery: 'not-sent',
});

describe('the app’s CSV exports, read back by orders cancel --from', () => {
  it('reads the ids of the cancel log’s and a bulk cancel’s exports exactly', () => {
    const log = cancelLogCsv([
      entry('201', 'Rate-limited until 09:01:00, "then" again'),
      entry(BIG, '=cmd|'),
      entry('-7', 'a line\nbreak'),
    ]);
    expect(log).toContain('"=""201"""');
    expect(parseOrderIdFile(log)).toEqual({ ids: ['201', BIG, '-7'], duplicates: 0 });

    const results = bulkResultsCsv([
      { orderId: '202', outcome: 'failed', message: 'x, y', at: 0, delivery: 'unknown' },
      { orderId: '202', outcome: 'failed', message: 'again', at: 1 },
      { orderId: '203', outcome: 'gone', message: 'Order 203 is gone', at: 2 },
    ]);
    expect(parseOrderIdFile(results)).toEqual({ ids: ['202', '203'], duplicates: 1 });
  });

  it('still names a cell that only looks like an exported id', () => {
    expect(() => parseOrderIdFile('Order ID\r\n="20x1"\r\n')).toThrow(/line 2: “20x1”/);
  });

  it('cancels the orders of the app’s own export, run as the command', async () => {
    const store = await craftedStore({ '201': 'pending', '202': 'shipped' });
    cleanups.push(() => store.close());
    const dir = mkdtempSync(join(tmpdir(), 'store-admin-export-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'cancel-log.csv');
    writeFileSync(file, cancelLogCsv([entry('201', 'not sent'), entry('202', 'not sent')]));
    const run = await runCliProcess(
      ['orders', 'cancel', '--from', file, '--json', '--base-url', store.baseUrl],
      { STORE_ADMIN_API_KEY: 'crafted-key-0123456789', STORE_ADMIN_DATA_DIR: dir },
    );
    expect(run.stderr).not.toContain('is not an order number');
    expect(run.code).toBe(EXIT.ok);
    expect(JSON.parse(run.stdout)).toMatchObject({
      counts: { cancelled: 1, 'already-shipped': 1 },
    });
  });
});
