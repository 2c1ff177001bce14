// Main process, 1,000,000 orders from the sandbox: our path (ky through the
// gate, int64-safe parse, validation, atomic cache write) against a baseline
// of plain fetch + JSON.parse of the same body, measured in the same run.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrderCache } from '../src/main/orders/order-cache.ts';
import { refreshOrders } from '../src/main/orders/refresh.ts';
import { RequestGate } from '../src/main/quota/gate.ts';
import { realTiming } from '../src/main/quota/clock.ts';
import { RetryBudget } from '../src/main/quota/retry-budget.ts';
import { startSandbox } from '../src/main/sandbox/server.ts';
import { StoreClient } from '../src/main/store-api/client.ts';
import { parseOrders } from '../src/shared/parse-orders.ts';
import { median, mb, ms, type BenchLine } from './report.ts';

const KEY = 'demo-enterprise';

async function measure(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
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
    const baseline = async (): Promise<void> => {
      const response = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } });
      JSON.parse(await response.text());
    };
    const ours = async (): Promise<void> => {
      await refreshOrders(client, cache, 'production');
    };
    await baseline(); // warm: the sandbox serialises the list once
    await ours();
    const base: number[] = [];
    const mine: number[] = [];
    for (let i = 0; i < rounds; i++) {
      base.push(await measure(baseline));
      mine.push(await measure(ours));
    }
    const b = median(base);
    const o = median(mine);
    const label = `main: ${orders.toLocaleString('en')} orders${bigIds ? ' (ids > 2^53)' : ''}`;

    // Memory: what main holds (the validated body), and the parsed list for comparison.
    const body = (await client.listOrdersBody()).body;
    const bytes = Buffer.byteLength(body);
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage().heapUsed;
    const parsed = parseOrders(body);
    gc?.();
    const held = process.memoryUsage().heapUsed - before;
    if (parsed.length !== orders) throw new Error('parsed list has the wrong length');
    return [
      { name: `${label}: fetch + JSON.parse (baseline)`, value: ms(b) },
      // The bound (2x) is for the sandbox's default list; ids above 2^53 are reported, unbounded.
      {
        name: `${label}: ky + gate + int64 parse + validation + cache write`,
        value: ms(o),
        ratio: o / b,
        ...(bigIds ? {} : { limit: 2 }),
      },
      ...(bigIds
        ? []
        : [
            { name: `${label}: JSON body size`, value: mb(bytes) },
            {
              name: `${label}: main holds the validated body`,
              value: mb(bytes),
              ratio: 1,
              limit: 4,
            },
            {
              name: `${label}: the parsed list, if held${gc ? '' : ' (no --expose-gc: rough)'}`,
              value: mb(held),
              ratio: held / bytes,
              limit: 4,
            },
          ]),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}
