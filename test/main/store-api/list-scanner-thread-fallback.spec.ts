// A large list whose thread cannot start is read on main, whole and right,
// and the lists after it are read on main from the start: a package without
// the thread's script, or a platform without workers, costs speed, never a
// list. (A file of its own: the module remembers the broken thread.)

import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import {
  ListScannerThread,
  listThreadUsable,
} from '../../../src/main/store-api/list-scanner-thread.ts';
import { OrderListScanner } from '../../../src/shared/order-list-scanner.ts';

function listText(orders: number): string {
  const items: string[] = [];
  for (let i = 0; i < orders; i++) {
    items.push(
      `{"id":${9_007_199_254_740_993n + BigInt(i)},"petId":${i * 3},"quantity":${i % 5},"shipDate":"2026-01-0${(i % 9) + 1}T10:00:00Z","complete":${i % 2 === 0}}`,
    );
  }
  return `[${items.join(',')}]`;
}

describe('a list scanner thread that cannot start', () => {
  it('leaves the list read on main, the same columns, and the next lists are read on main', async () => {
    const bytes = new TextEncoder().encode(listText(120_000));
    expect(listThreadUsable()).toBe(true);
    // A thread whose script fails as it loads, as a missing file would.
    const failing = new Worker('throw new Error("cannot load the scanner")', { eval: true });
    const reader = new ListScannerThread(bytes.length, failing);
    for (let at = 0; at < bytes.length; at += 64 * 1024) {
      await reader.push(bytes.subarray(at, at + 64 * 1024));
      // Chunks keep coming while the thread fails: after the first, it has.
      if (at === 0) await new Promise((resolve) => failing.once('exit', resolve));
    }
    const columns = await reader.finish();
    reader.close();

    const onMain = new OrderListScanner({ expectedBytes: bytes.length });
    onMain.push(bytes);
    const expected = onMain.finish();
    expect(columns.count).toBe(120_000);
    expect(Array.from(columns.idText)).toEqual(Array.from(expected.idText));
    expect(Array.from(columns.idHighs)).toEqual(Array.from(expected.idHighs));
    expect(Array.from(columns.shipTimes)).toEqual(Array.from(expected.shipTimes));
    expect(Array.from(columns.complete)).toEqual(Array.from(expected.complete));
    expect(listThreadUsable()).toBe(false);
  });
});
