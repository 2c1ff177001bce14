// Main process, 1,000,000 orders from the sandbox: the refresh pipeline (ky
// through the gate, the streaming scanner into columns, validation, the cache
// file written as the bytes arrive) against a baseline of plain fetch +
// JSON.parse of the same body, measured in the same run; and the bytes main
// holds for the list once it is loaded, measured with the garbage collector
// run before and after, never assumed.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { OrderCache } from '../src/main/orders/order-cache.ts';
import { refreshOrderColumns, refreshOrders } from '../src/main/orders/refresh.ts';
import { RequestGate } from '../src/main/quota/gate.ts';
import { realTiming } from '../src/main/store-api/clock.ts';
import { RetryBudget } from '../src/main/store-api/retry-budget.ts';
import { startSandbox } from '../src/main/sandbox/server.ts';
import { StoreClient } from '../src/main/store-api/client.ts';
import { median, mb, ms, type BenchLine } from './report.ts';

const KEY = 'demo-enterprise';

// The collector, also when Node was started without --expose-gc.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

async function measure(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/**
 * The heap plus memory outside it: array buffers (Buffers, typed arrays) and
 * external strings (Node keeps a large decoded text outside the heap). The
 * collector runs until the figure settles: memory outside the heap is freed
 * by finalizers that run after a collection, a turn later.
 */
async function bytesInUse(): Promise<number> {
  let last = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 10; round++) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
    const { heapUsed, external } = process.memoryUsage();
    const now = heapUsed + external;
    if (Math.abs(last - now) < 256 * 1024) return now;
    last = now;
  }
  return last;
}

/** What holding the result of `load` costs. */
async function heldBytes(load: () => Promise<unknown>): Promise<number> {
  const before = await bytesInUse();
  const held = await load();
  const after = await bytesInUse();
  // Keep `held` alive until after the second reading.
  if (held === undefined) throw new Error('nothing loaded');
  return after - before;
}

export async function benchMainList(
  orders: number,
  rounds: number,
  bigIds: boolean,
): Promise<BenchLine[]> {
  const sandbox = await startSandbox({
    port: 0,
    orders,
    bigIds,
    enterpriseLimits: { perMinute: 100_000, perDay: 10_000_000 },
  });
  const dir = mkdtempSync(join(tmpdir(), 'bench-cache-'));
  try {
    const url = `${sandbox.baseUrl}/store/orders`;
    const client = new StoreClient({
      baseUrl: sandbox.baseUrl,
      getKey: () => KEY,
      gate: new RequestGate({ timing: realTiming }),
      budget: new RetryBudget(Date.now),
    });
    const cache = new OrderCache(dir);
    const baseline = async (): Promise<unknown> => {
      const response = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } });
      return JSON.parse(await response.text());
    };
    const columns = () => refreshOrderColumns(client, cache, 'production');
    // What orders:list does until the renderer takes columns: the same, keeping the text too.
    const withText = () => refreshOrders(client, cache, 'production');
    const pipelines = bigIds ? [baseline, columns] : [baseline, columns, withText];
    for (const run of pipelines) await run(); // warm: the sandbox serialises the list once
    const times = pipelines.map((): number[] => []);
    for (let i = 0; i < rounds; i++) {
      // Interleaved, so a busy moment of the machine falls on all of them alike.
      for (const [k, run] of pipelines.entries()) times[k]!.push(await measure(run));
    }
    const [base, scanner, text] = times.map(median) as [number, number, number | undefined];
    const label = `main: ${orders.toLocaleString('en')} orders${bigIds ? ' (ids > 2^53)' : ''}`;
    const prefix = bigIds ? 'main.list.bigIds' : 'main.list';
    const lines: BenchLine[] = [
      {
        name: `${label}: fetch + JSON.parse (baseline)`,
        value: ms(base),
        figure: { name: `${prefix}.baseline.ms`, value: base, unit: 'ms' },
      },
      {
        name: `${label}: ky + gate + streaming scan to columns + validation + cache write`,
        value: ms(scanner),
        figure: { name: `${prefix}.ratio`, value: scanner, unit: 'ms', baseline: base },
        ratio: scanner / base,
        limit: 1,
      },
    ];
    if (bigIds || text === undefined) return lines;

    const bodyBytes = (await client.listOrdersBody()).bytes;
    const held = await heldBytes(columns);
    const heldWithText = await heldBytes(withText);
    const heldParsed = await heldBytes(baseline);
    return [
      ...lines,
      {
        name: `${label}: the same, keeping the text for orders:list of today`,
        value: ms(text),
        figure: { name: 'main.list.withText.ratio', value: text, unit: 'ms', baseline: base },
        ratio: text / base,
      },
      {
        name: `${label}: JSON body size`,
        value: mb(bodyBytes),
        figure: { name: 'main.list.body.bytes', value: bodyBytes, unit: 'bytes' },
      },
      {
        name: `${label}: main holds the list as columns (heap + array buffers, measured)`,
        value: mb(held),
        figure: { name: 'memory.main.ratio', value: held, unit: 'bytes', baseline: bodyBytes },
        ratio: held / bodyBytes,
      },
      {
        name: `${label}: main holds columns + text (orders:list of today)`,
        value: mb(heldWithText),
        figure: {
          name: 'memory.main.withText.ratio',
          value: heldWithText,
          unit: 'bytes',
          baseline: bodyBytes,
        },
        ratio: heldWithText / bodyBytes,
      },
      {
        name: `${label}: JSON.parse's objects, if held (for comparison)`,
        value: mb(heldParsed),
        figure: {
          name: 'memory.main.jsonParse.ratio',
          value: heldParsed,
          unit: 'bytes',
          baseline: bodyBytes,
        },
        ratio: heldParsed / bodyBytes,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}
