// Changes since the last refresh, against the real sandbox with churn: its
// orders ship, complete, arrive and are cancelled elsewhere as its clock
// moves, and an order is cancelled from here; each refresh goes through the
// real client and the order cache, and the tracker says what changed. It
// works from the saved lists alone after a restart and offline.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceScope } from '../../../src/main/environments/service-scope.ts';
import { CancelLog } from '../../../src/main/orders/cancel-log.ts';
import { OrderChangesTracker } from '../../../src/main/orders/changes.ts';
import { OrderCache } from '../../../src/main/orders/order-cache.ts';
import { refreshOrderColumns } from '../../../src/main/orders/refresh.ts';
import type { Timing } from '../../../src/main/store-api/clock.ts';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';
import type { OrderChangesView } from '../../../src/shared/order-changes.ts';
import { ordersOf } from '../../../src/shared/order-columns.ts';

const STEP_MS = 60_000;
const scope = serviceScope('sandbox');
let dir: string;
let sandbox: Sandbox | undefined;
let clock: number;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'changes-'));
  clock = Date.UTC(2026, 10, 22, 9, 0, 0);
});
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** The sandbox and the client share one clock the test moves. */
const timing: Timing = {
  now: () => clock,
  random: () => 0.5,
  sleep: async () => undefined,
};

async function setUp(orders = 400) {
  sandbox = await startSandbox({ port: 0, orders, churnEveryMs: STEP_MS, now: () => clock });
  const client = new StoreClient({
    baseUrl: sandbox.baseUrl,
    getKey: () => 'demo-enterprise',
    gate: new RequestGate({ timing }),
    budget: new RetryBudget(timing.now),
    timing,
  });
  const cache = new OrderCache(dir);
  const cancelLog = new CancelLog(dir);
  const tracker = new OrderChangesTracker(cache, cancelLog);
  return { sandbox, client, cache, cancelLog, tracker };
}

function compared(view: OrderChangesView) {
  if (view.kind !== 'compared') throw new Error(`nothing compared: ${view.reason}`);
  return view;
}

describe('OrderChangesTracker against the sandbox with --churn', () => {
  it('says what a churn step and a cancel from here did, with the values before', async () => {
    const { sandbox, client, cache, cancelLog, tracker } = await setUp();
    const first = await refreshOrderColumns(client, cache, 'sandbox');
    expect(await tracker.changes(scope)).toEqual({
      kind: 'nothing-to-compare',
      environment: 'sandbox',
      reason: 'first-list',
    });
    const before = new Map(ordersOf(first.columns).map((order) => [order.id!, order]));

    // Cancelled from here, and logged as the app logs it.
    const [mine] = sandbox.orderIds({ status: 'pending', limit: 1 });
    await client.cancelOrder(mine!);
    await cancelLog.append(scope, {
      at: clock,
      environment: 'sandbox',
      orderId: mine!,
      result: 'cancelled',
      message: `Order ${mine} was cancelled.`,
    });

    clock += STEP_MS;
    const second = await refreshOrderColumns(client, cache, 'sandbox');
    const step = sandbox.churned[0]!;
    expect(sandbox.churned).toHaveLength(1);
    const view = compared(await tracker.changes(scope));

    const after = ordersOf(second.columns);
    expect(view.added.ids).toEqual(step.arrived);
    expect(view.added.rows.map((row) => after[row]!.id)).toEqual(step.arrived);
    expect(new Set(view.gone.map((gone) => gone.order.id))).toEqual(
      new Set([mine, ...step.cancelled]),
    );
    for (const gone of view.gone) {
      expect(gone.order).toEqual(before.get(gone.order.id));
      expect(gone.how).toBe(gone.order.id === mine ? 'cancelled-here' : 'left');
    }
    expect(new Set(view.changed.map((order) => order.id))).toEqual(
      new Set([...step.shipped, ...step.completed]),
    );
    for (const order of view.changed) {
      expect(after[order.row]!.id).toBe(order.id);
      expect(order.before).toEqual(before.get(order.id));
      expect(order.fields).toEqual(step.shipped.includes(order.id) ? ['shipDate'] : ['complete']);
      if (order.fields.includes('shipDate')) {
        // It ships at the step's moment, on the sandbox's clock.
        expect(Date.parse(after[order.row]!.shipDate!)).toBe(clock);
      }
    }
    expect(view.summary).toEqual({
      added: step.arrived.length,
      changed: step.shipped.length + step.completed.length,
      gone: step.cancelled.length + 1,
      cancelledHere: 1,
      since: first.receivedAt,
      at: second.receivedAt,
      count: second.columns.count,
      unidentified: 0,
    });
  });

  it('compares each refresh with the one before, and keeps the changes when a refresh fails', async () => {
    const { sandbox, client, cache, tracker } = await setUp();
    await refreshOrderColumns(client, cache, 'sandbox');
    clock += STEP_MS;
    await refreshOrderColumns(client, cache, 'sandbox');
    const once = compared(await tracker.changes(scope));
    expect(once.summary.added).toBeGreaterThan(0);

    // A second later, before the next churn step: nothing changed since the refresh before.
    clock += 1000;
    await refreshOrderColumns(client, cache, 'sandbox');
    const still = compared(await tracker.changes(scope));
    expect([still.summary.added, still.summary.changed, still.summary.gone]).toEqual([0, 0, 0]);
    expect(still.summary.since).toBe(once.summary.at);

    // A refresh that fails (a cut-off list) replaces neither list, so the changes stay.
    clock += 2 * STEP_MS;
    sandbox.setFaults('malformed@1');
    await expect(refreshOrderColumns(client, cache, 'sandbox')).rejects.toThrow();
    expect(await tracker.changes(scope)).toEqual(still);

    sandbox.setFaults(undefined);
    await refreshOrderColumns(client, cache, 'sandbox');
    const twoSteps = compared(await tracker.changes(scope));
    expect(twoSteps.added.ids).toEqual(sandbox.churned.slice(1).flatMap((step) => step.arrived));
  });

  it('says the same after a restart with the service gone: it works from the saved lists', async () => {
    const { client, cache, cancelLog, tracker } = await setUp();
    await refreshOrderColumns(client, cache, 'sandbox');
    clock += STEP_MS;
    await refreshOrderColumns(client, cache, 'sandbox');
    const seen = await tracker.changes(scope);
    await sandbox!.close();

    const restarted = new OrderChangesTracker(new OrderCache(dir), cancelLog);
    expect(await restarted.changes(scope)).toEqual(seen);
    expect(compared(seen).summary.changed).toBeGreaterThan(0);
  });

  it('says there is nothing to compare before any list, and for another address', async () => {
    const cache = new OrderCache(dir);
    const tracker = new OrderChangesTracker(cache, new CancelLog(dir));
    expect(await tracker.changes(scope)).toMatchObject({ reason: 'no-list' });
    expect(
      await tracker.changes(serviceScope('production', 'https://api.example.com/v1')),
    ).toMatchObject({ kind: 'nothing-to-compare', environment: 'production', reason: 'no-list' });
  });
});
