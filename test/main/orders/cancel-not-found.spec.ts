// A 404 to a cancel claims no more than is known: an order the last list
// held "no longer exists" (it existed then; it may have been this very
// cancel, if something in between sent it twice), never "there was nothing
// to cancel"; an order no list held was not found. Through the orders
// service, as the app and the command line cancel.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceScope } from '../../../src/main/environments/service-scope.ts';
import { CancelLog } from '../../../src/main/orders/cancel-log.ts';
import { OrderCache } from '../../../src/main/orders/order-cache.ts';
import { OrdersService } from '../../../src/main/orders/orders-service.ts';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { formatHourMinute } from '../../../src/shared/display-format.ts';
import { virtualTiming } from '../../support/virtual-timing.ts';

let dir: string;
let sandbox: Sandbox;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cancel-404-'));
});
afterEach(async () => {
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function setup() {
  const timing = virtualTiming({ start: Date.UTC(2026, 10, 22, 9, 30, 0) });
  sandbox = await startSandbox({ port: 0, orders: 30, now: timing.now });
  const client = new StoreClient({
    baseUrl: sandbox.baseUrl,
    getKey: () => 'demo-pro',
    gate: new RequestGate({ timing }),
    budget: new RetryBudget(timing.now),
    timing,
  });
  const scope = serviceScope('staging', sandbox.baseUrl);
  const orders = new OrdersService({
    access: { client: async () => client, scopeOf: () => scope },
    cache: new OrderCache(dir),
    cancelLog: new CancelLog(dir),
    now: timing.now,
  });
  return { orders, timing };
}

/** Store Admin's own sentence, without the service's words after it. */
const ours = (message: string) => message.split(' The service said: ')[0];

describe('a 404 to a cancel', () => {
  it('for an order the last list held: it no longer exists, and may have been this cancel', async () => {
    const { orders, timing } = await setup();
    const list = await orders.refresh('staging');
    const [id, other] = sandbox.orderIds({ status: 'pending' });
    // Cancelled since, elsewhere (or by a retry of this very request that a gateway sent).
    sandbox.setOrderStatus(id!, 'cancelled');
    sandbox.setOrderStatus(other!, 'cancelled');
    timing.advance(5 * 60_000);
    const result = await orders.cancel('staging', id!);
    expect(result.kind).toBe('not-found');
    expect(ours(result.message)).toBe(
      `Order ${id} no longer exists: it was in the list of ${formatHourMinute(list.receivedAt)} and has been cancelled or removed since (perhaps by this very cancel, if the network sent it twice).`,
    );
    expect(result.message).not.toContain('nothing to cancel');
    // Said the same for a second one, from the same list (read once, kept while memory allows).
    expect((await orders.cancel('staging', other!)).message).toContain('no longer exists');
    expect(await orders.cancelLog('staging')).toMatchObject([
      { orderId: id, result: 'not-found', message: result.message },
      { orderId: other },
    ]);
  });

  it('for an order no list held: not found, nothing to cancel', async () => {
    const { orders } = await setup();
    await orders.refresh('staging');
    const result = await orders.cancel('staging', '990001');
    expect(result.kind).toBe('not-found');
    expect(ours(result.message)).toBe(
      'Order 990001 was not found, so there was nothing to cancel.',
    );
  });

  it('without a saved list: not found, as before', async () => {
    const { orders } = await setup();
    const [id] = sandbox.orderIds({ status: 'pending' });
    sandbox.setOrderStatus(id!, 'cancelled');
    expect(ours((await orders.cancel('staging', id!)).message)).toBe(
      `Order ${id} was not found, so there was nothing to cancel.`,
    );
  });
});
