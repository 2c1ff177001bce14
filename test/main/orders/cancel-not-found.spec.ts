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
import { BulkCancelQueue } from '../../../src/main/bulk-cancel/queue.ts';
import { BulkJournal } from '../../../src/main/bulk-cancel/journal.ts';
import { OrderChangesTracker } from '../../../src/main/orders/changes.ts';
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
  const cache = new OrderCache(dir);
  const cancelLog = new CancelLog(dir);
  const orders = new OrdersService({
    access: { client: async () => client, scopeOf: () => scope },
    cache,
    cancelLog,
    now: timing.now,
    changes: new OrderChangesTracker(cache, cancelLog),
  });
  return { orders, timing, client, scope };
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

  it('for an order the last list held: "maybe cancelled here" among the changes, as its message says, not "left"', async () => {
    const { orders, timing } = await setup();
    const list = await orders.refresh('staging');
    const [id, elsewhere] = sandbox.orderIds({ status: 'pending' });
    sandbox.setOrderStatus(id!, 'cancelled');
    sandbox.setOrderStatus(elsewhere!, 'cancelled'); // no cancel from here at all
    timing.advance(60_000);
    expect((await orders.cancel('staging', id!)).message).toContain('perhaps by this very cancel');
    expect(await orders.cancelLog('staging')).toMatchObject([
      { orderId: id, result: 'not-found', listedAt: list.receivedAt },
    ]);
    timing.advance(60_000);
    await orders.refresh('staging');
    const changes = await orders.changes('staging');
    const gone = changes.kind === 'compared' ? changes.gone : [];
    expect(gone.map(({ order, how, maybe }) => [order.id, how, maybe])).toEqual(
      expect.arrayContaining([
        [id, 'maybe-cancelled-here', 'not-found-after-listed'],
        [elsewhere, 'left', undefined],
      ]),
    );
    expect(changes.kind === 'compared' && changes.summary.cancelledHere).toBe(0);
  });

  it('met by a bulk cancel: the same label, also when the log is written from the journal after a crash', async () => {
    const { orders, timing, client, scope } = await setup();
    await orders.refresh('staging');
    const [id] = sandbox.orderIds({ status: 'pending' });
    sandbox.setOrderStatus(id!, 'cancelled');
    timing.advance(60_000);
    const hooks = orders.cancelLogHooks(scope);
    const journal = new BulkJournal(dir, scope);
    const queue = new BulkCancelQueue({
      environment: 'staging',
      journal,
      client: async () => client,
      timing,
      earlierCancel: hooks.earlierCancel,
    });
    await queue.start([id!]);
    await queue.idle();
    // No onResult: as if the app died between the journal's line and the log's.
    expect(await orders.cancelLog('staging')).toEqual([]);
    const again = new BulkCancelQueue({
      environment: 'staging',
      journal,
      client: async () => client,
      timing,
    });
    await again.load();
    await hooks.logJournaled(again.results());
    timing.advance(60_000);
    await orders.refresh('staging');
    const changes = await orders.changes('staging');
    const gone = changes.kind === 'compared' ? changes.gone : [];
    expect(gone).toEqual([
      expect.objectContaining({ how: 'maybe-cancelled-here', maybe: 'not-found-after-listed' }),
    ]);
  });
});
