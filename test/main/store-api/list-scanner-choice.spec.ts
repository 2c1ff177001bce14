// A list whose size is not known before it arrives is read on main until
// enough has come, then on a thread that is handed what came so far: the
// columns are the same as main's alone, whatever the chunks, and a list
// refused by its first bytes fails at once, before any thread starts.

import { afterEach, describe, expect, it } from 'vitest';
import {
  listScannerFor,
  type ListScanner,
} from '../../../src/main/store-api/list-scanner-choice.ts';
import type { OrderColumns } from '../../../src/shared/order-columns.ts';
import { InvalidOrdersError, OrderListScanner } from '../../../src/shared/order-list-scanner.ts';

function listText(orders: number): Uint8Array {
  const items: string[] = [];
  for (let i = 0; i < orders; i++)
    items.push(
      i % 5 === 0
        ? `{"id":${9_007_199_254_740_993n + BigInt(i)},"complete":true}`
        : `{"id":${i + 1},"petId":${i * 3},"quantity":${i % 5},"shipDate":"2026-01-0${(i % 9) + 1}T10:00:00Z","complete":false}`,
    );
  return new TextEncoder().encode(`[${items.join(',')}]`);
}

const plain = (columns: OrderColumns) =>
  Object.fromEntries(
    Object.entries(columns).map(([k, v]) => [
      k,
      ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v,
    ]),
  );

const scanners: ListScanner[] = [];
afterEach(() => {
  for (const scanner of scanners.splice(0)) scanner.close();
});

describe('a list of unknown size, chosen for by what arrives', () => {
  it.each([1_000, 64 * 1024, 700_000])(
    'reads the same columns as main alone, in chunks of %i bytes',
    async (size) => {
      const bytes = listText(30_000);
      const main = new OrderListScanner();
      main.push(bytes);
      const scanner = listScannerFor(undefined, 200_000);
      scanners.push(scanner);
      const counts: number[] = [];
      for (let at = 0; at < bytes.length; at += size) {
        await scanner.push(bytes.subarray(at, at + size));
        counts.push(scanner.count);
        expect(scanner.rowsSoFar().count).toBe(scanner.count);
      }
      // The rows so far never go back, also as the thread takes over.
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      expect(plain(await scanner.finish())).toEqual(plain(main.finish()));
    },
  );

  it('refuses a web page by its first bytes, at once', async () => {
    const scanner = listScannerFor(undefined, 200_000);
    scanners.push(scanner);
    await expect(
      Promise.resolve(scanner.push(new TextEncoder().encode('<!doctype html><html>'))),
    ).rejects.toThrow(InvalidOrdersError);
  });
});
