// Main process, 1,000,000 orders from the sandbox: the refresh pipeline (ky
// through the gate, the streaming scanner into columns on a thread of its
// own, validation, the cache file written as the bytes arrive; and the same
// with the list read on main) against a baseline of plain fetch +
// JSON.parse of the same body, and against the byte floor (fetch reading the
// body and dropping it), measured in the same run; and the bytes the
// columns would take if main kept them, measured with the garbage collector
// run before and after, never assumed. (Main hands them to the renderer and
// keeps nothing: what it holds then is measured in renderer.ts.)

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrderCache } from '../src/main/orders/order-cache.ts';
import { refreshOrderColumns } from '../src/main/orders/refresh.ts';
import { RequestGate } from '../src/main/quota/gate.ts';
import { realTiming } from '../src/main/store-api/clock.ts';
import { RetryBudget } from '../src/main/store-api/retry-budget.ts';
import { startSandbox } from '../src/main/sandbox/server.ts';
import { StoreClient } from '../src/main/store-api/client.ts';
import { bytesInUse, heldBytes } from './memory.ts';
import { median, mb, ms, type BenchLine } from './report.ts';

/**
 * The ms `run` takes, started on a collected heap: none of the runs pays for
 * the garbage another left (JSON.parse's million objects are the baseline's).
 */
async function measure(run: () => Promise<unknown>): Promise<number> {
  await bytesInUse();
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const KEY = 'demo-enterprise';

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
    // The same pipeline with every list read on main, beside it: what the scanner's own thread buys.
    const onMainClient = new StoreClient({
      baseUrl: sandbox.baseUrl,
      getKey: () => KEY,
      gate: new RequestGate({ timing: realTiming }),
      budget: new RetryBudget(Date.now),
      listThreadFromBytes: Number.POSITIVE_INFINITY,
    });
    const cache = new OrderCache(dir);
    const baseline = async (): Promise<unknown> => {
      const response = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } });
      return JSON.parse(await response.text());
    };
    // The byte floor: fetch reading the same body and dropping it.
    const floor = async (): Promise<unknown> => {
      const response = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } });
      let bytes = 0;
      for await (const chunk of response.body!) bytes += (chunk as Uint8Array).byteLength;
      return bytes;
    };
    const columns = () => refreshOrderColumns(client, cache, 'production');
    const onMain = () => refreshOrderColumns(onMainClient, cache, 'production');
    const pipelines = [baseline, columns, floor, onMain];
    for (const run of pipelines) await run(); // warm: the sandbox serialises the list once
    const times = pipelines.map((): number[] => []);
    for (let i = 0; i < rounds; i++) {
      // Interleaved, so a busy moment of the machine falls on all of them alike.
      for (const [k, run] of pipelines.entries()) {
        times[k]!.push(await measure(run));
        // The list the refresh replaced leaves the disk after its answer, not in the next run.
        await cache.settled();
      }
    }
    const [base, scanner, bytes, mainOnly] = times.map(median) as [number, number, number, number];
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
        limit: 0.6,
      },
      {
        name: `${label}: the same, the list read on main (no thread of its own)`,
        value: ms(mainOnly),
        figure: { name: `${prefix}.onMain.ratio`, value: mainOnly, unit: 'ms', baseline: base },
        ratio: mainOnly / base,
      },
    ];
    if (bigIds) return lines;
    lines.push(
      {
        name: `${label}: fetch reading the body and dropping it (the byte floor)`,
        value: ms(bytes),
        figure: { name: 'main.list.floor.ms', value: bytes, unit: 'ms' },
      },
      {
        name: `${label}: the pipeline over the byte floor`,
        value: `${(scanner / bytes).toFixed(2)}x`,
        figure: { name: 'main.list.floor.ratio', value: scanner, unit: 'ms', baseline: bytes },
        ratio: scanner / bytes,
        limit: 2.5,
      },
    );

    const bodyBytes = (await client.listOrdersBody()).bytes;
    const held = await heldBytes(columns);
    const heldParsed = await heldBytes(baseline);
    return [
      ...lines,
      {
        name: `${label}: JSON body size`,
        value: mb(bodyBytes),
        figure: { name: 'main.list.body.bytes', value: bodyBytes, unit: 'bytes' },
      },
      {
        name: `${label}: the columns, if main kept them (it hands them over; see memory.main.ratio)`,
        value: mb(held),
        figure: {
          name: 'memory.main.columns.ratio',
          value: held,
          unit: 'bytes',
          baseline: bodyBytes,
        },
        ratio: held / bodyBytes,
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
