// A 429 whose own headers say requests are left (a service shedding load, a
// burst) holds for its Retry-After, not for the rest of the window: the
// gate paces from what the service reports. Found by the soak: one such
// answer stalled every request until the window reset.

import { afterEach, describe, expect, it } from 'vitest';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';
import { virtualTiming } from '../../support/virtual-timing.ts';

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

describe('a 429 that says requests are left', () => {
  it('holds for its Retry-After only, then requests go on in the same window', async () => {
    const timing = virtualTiming({ start: Date.UTC(2026, 10, 22, 9, 0, 5) });
    sandbox = await startSandbox({ port: 0, orders: 20, now: timing.now, faults: '429=1@1' });
    const client = new StoreClient({
      baseUrl: sandbox.baseUrl,
      getKey: () => 'demo-pro',
      gate: new RequestGate({ timing }),
      budget: new RetryBudget(timing.now),
      timing,
      max429Retries: 0,
    });
    // The answer is a 429 with Retry-After: 1 and Remaining: 299.
    await expect(client.checkConnection()).rejects.toMatchObject({
      failure: { kind: 'rate-limited', retryAt: timing.now() + 1000 },
    });
    sandbox.setFaults(undefined);
    timing.advance(1100);
    // A second later the next request goes at once, long before the window resets.
    const before = timing.now();
    await expect(client.listOrders()).resolves.toMatchObject({ orders: expect.any(Array) });
    expect(timing.now() - before).toBeLessThan(1000);
    expect(sandbox.requestLog.map((r) => r.status)).toEqual([429, 200]);
  });
});
