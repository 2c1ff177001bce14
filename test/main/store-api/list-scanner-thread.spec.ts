// The order-list scanner on a thread of its own reads a list as the scanner
// on main does: the same columns, the rows so far while it downloads, the
// same refusals in the same words; and through the client against the
// sandbox, a list read on the thread is the list read on main.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import { realTiming } from '../../../src/main/store-api/clock.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';
import { StoreApiError } from '../../../src/main/store-api/errors.ts';
import {
  ListScannerThread,
  sharedBytesHeld,
} from '../../../src/main/store-api/list-scanner-thread.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import type { OrderColumns } from '../../../src/shared/order-columns.ts';
import {
  InvalidOrdersError,
  OrderListScanner,
  WEB_PAGE,
} from '../../../src/shared/order-list-scanner.ts';

/** A list in several forms: plain orders, ids above 2^53, dates with offsets, keys out of order. */
function listText(orders: number): string {
  const items: string[] = [];
  for (let i = 0; i < orders; i++) {
    const id = i % 7 === 0 ? `${9_007_199_254_740_993n + BigInt(i)}` : `${i + 1}`;
    const day = String((i % 28) + 1).padStart(2, '0');
    if (i % 11 === 0) {
      items.push(
        `{ "complete": true, "shipDate": "2026-03-${day}T08:30:00.250+02:00", "id": ${id}, "extra": [1, {"a": null}] }`,
      );
    } else {
      items.push(
        `{"id":${id},"petId":${i * 3},"quantity":${i % 5},"shipDate":"2026-01-${day}T10:00:00Z","complete":false}`,
      );
    }
  }
  return `[${items.join(',')}]`;
}

function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

function onMain(bytes: Uint8Array, size: number): OrderColumns {
  const scanner = new OrderListScanner({ expectedBytes: bytes.length });
  for (const chunk of chunksOf(bytes, size)) scanner.push(chunk);
  return scanner.finish();
}

/** Plain arrays of the columns, to compare whatever buffers they are on. */
function plain(columns: OrderColumns): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(columns).map(([key, value]) => [
      key,
      ArrayBuffer.isView(value) ? Array.from(value as Uint8Array) : value,
    ]),
  );
}

const threads: ListScannerThread[] = [];
afterEach(() => {
  for (const thread of threads.splice(0)) thread.close();
});

function thread(expectedBytes: number | undefined): ListScannerThread {
  const started = new ListScannerThread(expectedBytes);
  threads.push(started);
  return started;
}

describe('ListScannerThread', () => {
  it('reads lists into the same columns as the scanner on main, whatever the chunks, one after another', async () => {
    const bytes = new TextEncoder().encode(listText(3000));
    for (const size of [1, 7, 4096, bytes.length]) {
      // A one-byte chunk at a time for part of the list only: a whole list of them is slow.
      const body = size === 1 ? bytes.subarray(0, 2000) : bytes;
      const reader = thread(bytes.length);
      const pieces = chunksOf(body, size);
      for (const piece of pieces) await reader.push(piece);
      if (size === 1) {
        await expect(reader.finish()).rejects.toThrow(InvalidOrdersError);
      } else {
        expect(plain(await reader.finish())).toEqual(plain(onMain(bytes, size)));
      }
      // The next list is read on the thread this one was, if it read its list whole.
      reader.close();
    }
  });

  it('reads a list longer than the ring its chunks go through, round and round', async () => {
    // About 14 MB in chunks of an odd size: the ring (8 MB) is written over many times, at
    // shifting places, while the thread reads behind.
    const bytes = new TextEncoder().encode(listText(150_000));
    const reader = thread(bytes.length);
    for (const chunk of chunksOf(bytes, 100_003)) await reader.push(chunk);
    expect(plain(await reader.finish())).toEqual(plain(onMain(bytes, bytes.length)));
  });

  it('reads the chunks in their order when one too large for the ring comes between small ones', async () => {
    // Small chunks wait in the ring to go over as one batch; a chunk over 2 MB goes on its own
    // buffer, after them.
    const bytes = new TextEncoder().encode(listText(120_000));
    const sizes = [30_001, 70_000, 2_600_000, 9_999, 3_000_000, 50_000];
    const reader = thread(bytes.length);
    for (let at = 0, k = 0; at < bytes.length; k++) {
      const size = sizes[k % sizes.length]!;
      await reader.push(bytes.subarray(at, at + size));
      at += size;
    }
    expect(plain(await reader.finish())).toEqual(plain(onMain(bytes, bytes.length)));
  });

  it('keeps nothing of a list once main has let go of it, list after list', async () => {
    // Six lists of 37 MB (400,000 orders) read on one thread, in a process of its own. The columns
    // are on buffers both threads share, freed only once both have collected them: before the
    // thread collected after each list, every list stayed (about 230 MB more after six; 8 MB now).
    const { stdout } = await promisify(execFile)(process.execPath, [
      // The file's own path on any system (a URL's pathname reads /C:/… on Windows).
      fileURLToPath(new URL('../../support/list-thread-memory.ts', import.meta.url)),
      '6',
      '400000',
    ]);
    const { before, after } = JSON.parse(stdout) as { before: number; after: number };
    expect(after - before).toBeLessThan(60);
  });

  it('counts the shared buffers main holds of a list, and none once main lets go of it', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const settled = async (): Promise<number> => {
      for (let round = 0; round < 20; round++) {
        collect();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return sharedBytesHeld();
    };
    const before = await settled();
    // Read and held in a function of its own: once it returns, main holds nothing of the list.
    await (async () => {
      const bytes = new TextEncoder().encode(listText(20_000));
      const reader = new ListScannerThread(bytes.length);
      for (const chunk of chunksOf(bytes, 64 * 1024)) await reader.push(chunk);
      const columns = await reader.finish();
      reader.close();
      // V8 counts these buffers as the thread's memory: main's figure must include them.
      const held = await settled();
      expect(columns.idHighs.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(held - before).toBeGreaterThanOrEqual(
        columns.idHighs.byteLength + columns.idLows.byteLength + columns.idText.byteLength,
      );
    })();
    expect(await settled()).toBe(before);
  });

  it('has the first rows at once, read on main while the thread has told of none', async () => {
    const bytes = new TextEncoder().encode(listText(20_000));
    const whole = onMain(bytes, bytes.length);
    const reader = thread(bytes.length);
    // No message from the thread can have come between a push and its answer (no turn of the loop).
    await reader.push(bytes.subarray(0, 64 * 1024));
    const first = reader.rowsSoFar();
    expect(reader.count).toBeGreaterThan(0);
    expect(first.count).toBe(reader.count);
    const k = first.count - 1;
    expect([first.idHighs[k], first.idLows[k], first.shipTimes[k]]).toEqual([
      whole.idHighs[k],
      whole.idLows[k],
      whole.shipTimes[k],
    ]);
    await reader.push(bytes.subarray(64 * 1024));
    expect(plain(await reader.finish())).toEqual(plain(whole));
  });

  it('refuses a list at once when its first bytes already say it is not one', async () => {
    const reader = thread(10_000_000);
    await expect(reader.push(new TextEncoder().encode('<html><body>Sign in'))).rejects.toThrow(
      new InvalidOrdersError(WEB_PAGE),
    );
    await expect(reader.finish()).rejects.toThrow(WEB_PAGE);
  });

  it('reads the next list on a thread closed twice after its list', async () => {
    const bytes = new TextEncoder().encode(listText(200));
    const first = thread(bytes.length);
    await first.push(bytes);
    await first.finish();
    first.close();
    first.close();
    const next = thread(bytes.length);
    await next.push(bytes);
    expect(plain(await next.finish())).toEqual(plain(onMain(bytes, bytes.length)));
  });

  it('tells the rows so far as they are read, each row as it will be in the whole list', async () => {
    const bytes = new TextEncoder().encode(listText(20_000));
    const whole = onMain(bytes, bytes.length);
    const reader = thread(bytes.length);
    const seen: OrderColumns[] = [];
    const inMain = new OrderListScanner({ expectedBytes: bytes.length });
    for (const chunk of chunksOf(bytes, 64 * 1024)) {
      await reader.push(chunk);
      await reader.read();
      inMain.push(chunk);
      seen.push(reader.rowsSoFar());
      // Every order the bytes so far hold whole is a row, as on main.
      expect(seen.at(-1)!.count).toBe(inMain.count);
    }
    await reader.finish();
    expect(seen.at(0)!.count).toBeGreaterThan(0);
    for (const rows of seen) {
      const k = rows.count - 1;
      expect(rows.lineStarts.length).toBe(rows.count + 1);
      expect(rows.lineStarts[rows.count]).toBe(rows.idText.length);
      expect(rows.idHighs[k]).toBe(whole.idHighs[k]);
      expect(rows.idLows[k]).toBe(whole.idLows[k]);
      expect(rows.shipTimes[k]).toBe(whole.shipTimes[k]);
      expect(Array.from(rows.idText.subarray(rows.lineStarts[k], rows.lineStarts[k + 1]))).toEqual(
        Array.from(whole.idText.subarray(whole.lineStarts[k], whole.lineStarts[k + 1])),
      );
    }
  });

  it('refuses what the scanner on main refuses, in the same words, and keeps refusing', async () => {
    const good = listText(500);
    const cases = [
      good.replace('"quantity":3', '"quantity":3.5'),
      good.replace('"id":2,', '"id":"two",'),
      `<html>${good}`,
      good.replace('2026-01-05T10:00:00Z', '2026-01-05 ten'),
      `${good},`,
    ];
    for (const text of cases) {
      const bytes = new TextEncoder().encode(text);
      let said = '';
      try {
        onMain(bytes, 1000);
      } catch (error) {
        said = (error as Error).message;
      }
      expect(said).not.toBe('');
      const reader = thread(bytes.length);
      const refused = (async () => {
        for (const chunk of chunksOf(bytes, 1000)) await reader.push(chunk);
        return reader.finish();
      })();
      await expect(refused).rejects.toThrow(new InvalidOrdersError(said));
      await expect(reader.push(bytes)).rejects.toThrow(said);
    }
  });
});

describe('A large list through the client', () => {
  let sandbox: Sandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  function client(threadFrom: number): StoreClient {
    return new StoreClient({
      baseUrl: sandbox!.baseUrl,
      getKey: () => 'demo-enterprise',
      gate: new RequestGate({ timing: realTiming }),
      budget: new RetryBudget(Date.now),
      listThreadFromBytes: threadFrom,
    });
  }

  it('is the same list read on its own thread as on main', async () => {
    sandbox = await startSandbox({ port: 0, orders: 30_000, bigIds: true });
    const onThread = await client(0).listOrderColumns();
    const onMainThread = await client(Number.POSITIVE_INFINITY).listOrderColumns();
    expect(onThread.columns.count).toBe(30_000);
    expect(plain(onThread.columns)).toEqual(plain(onMainThread.columns));
  });

  it('refuses a malformed list read on its own thread with the plain message of one read on main', async () => {
    sandbox = await startSandbox({
      port: 0,
      orders: 2000,
      faults: 'malformed@1',
    });
    const failure = async (threadFrom: number) => {
      const error = await client(threadFrom)
        .listOrderColumns()
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(StoreApiError);
      return (error as StoreApiError).failure.message;
    };
    expect(await failure(0)).toBe(await failure(Number.POSITIVE_INFINITY));
  });
});
