// A bulk cancel reads the app's one connectivity state: answers lost now and
// then among answers never pause it (each such order goes back in the queue
// and is continued), a service that cannot be reached pauses it, and the
// moment anything gets an answer again it carries on, without waiting for its
// own timer. On the virtual clock, against a real sandbox with faults.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BulkCancelSnapshot } from '../../../src/shared/bulk-cancel.ts';
import { BulkCancelService } from '../../../src/main/bulk-cancel/bulk-cancel-service.ts';
import { Connectivity } from '../../../src/main/environments/connectivity.ts';
import { serviceScope } from '../../../src/main/environments/service-scope.ts';
import { nodeFiles } from '../../../src/main/local-data/local-files.ts';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';
import type { Timing } from '../../../src/main/store-api/clock.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { virtualTiming } from '../../support/virtual-timing.ts';

let dir: string;
const sandboxes: Sandbox[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bulk-reach-'));
});
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
  await rm(dir, { recursive: true, force: true });
});

/**
 * The virtual clock, except that a wait of 10 s or more (the queue's own
 * "try again by itself" timer) never ends unless it is called off: so a job
 * that carries on did so because the service answered again.
 */
function withoutLongWaits(timing: Timing): Timing {
  return {
    ...timing,
    sleep: (ms, signal) =>
      ms < 10_000
        ? timing.sleep(ms, signal)
        : new Promise((_resolve, reject) =>
            signal?.addEventListener('abort', () => reject(signal.reason as Error), {
              once: true,
            }),
          ),
  };
}

async function setup(maxRetries = 3) {
  const clock = virtualTiming();
  const timing = withoutLongWaits(clock);
  const sandbox = await startSandbox({ port: 0, orders: 300, now: clock.now, seed: 8 });
  sandboxes.push(sandbox);
  const connectivity = new Connectivity(clock.now);
  const client = new StoreClient({
    baseUrl: sandbox.baseUrl,
    getKey: () => 'demo-enterprise',
    gate: new RequestGate({ timing }),
    budget: new RetryBudget(clock.now),
    timing,
    maxRetries,
    onAttempt: (outcome) => connectivity.record('sandbox', outcome),
  });
  const service = new BulkCancelService({
    dataDir: dir,
    files: nodeFiles(),
    timing,
    scopeOf: () => serviceScope('sandbox'),
    clientFor: async () => client,
    logHooks: () => ({
      onResult: async () => undefined,
      earlierCancel: async () => undefined,
      logJournaled: async () => undefined,
    }),
    connectivity,
  });
  const seen: BulkCancelSnapshot[] = [];
  service.onChange((environment) => {
    const snapshot = service.snapshotNow(environment);
    if (snapshot) seen.push(snapshot);
  });
  return { sandbox, connectivity, client, service, seen };
}

/** Waits (a bounded number of turns) until the job says `status`. */
async function until(service: BulkCancelService, status: BulkCancelSnapshot['status']) {
  for (let turn = 0; turn < 400; turn++) {
    if ((await service.status('sandbox'))?.status === status) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(
    `the job never became ${status}: ${JSON.stringify(await service.status('sandbox'))}`,
  );
}

describe('a bulk cancel and the one connectivity state', () => {
  it('answers lost now and then: it never pauses, and every order is accounted for', async () => {
    // No retries by the client: each lost answer fails its DELETE, as when the retry budget is spent.
    const { sandbox, service, seen, connectivity } = await setup(0);
    const ids = sandbox.orderIds({ status: 'pending' }).slice(0, 60);
    sandbox.setFaults('reset@0.12');
    await service.start('sandbox', ids);
    await until(service, 'finished');
    const lost = sandbox.requestLog.filter((request) => !request.answered).length;
    expect(lost).toBeGreaterThan(2);
    expect(seen.some((snapshot) => snapshot.status === 'paused')).toBe(false);
    expect(connectivity.isUnreachable('sandbox')).toBe(false);
    const done = (await service.status('sandbox'))!;
    expect(done.counts.cancelled + done.counts.gone).toBe(60);
    expect(ids.every((id) => sandbox.orderStatus(id) === 'cancelled')).toBe(true);
  });

  it('the service unreachable: paused, saying so as the notices do; carries on as soon as anything is answered', async () => {
    const { sandbox, service, connectivity, client } = await setup();
    const ids = sandbox.orderIds({ status: 'pending' }).slice(0, 30);
    sandbox.setFaults('reset@1');
    await service.start('sandbox', ids);
    await until(service, 'paused');
    expect(await service.status('sandbox')).toMatchObject({ pauseReason: 'offline' });
    expect(connectivity.isUnreachable('sandbox')).toBe(true);

    // The service answers again: one answer (here a connection test) and the job goes on.
    sandbox.setFaults(undefined);
    await client.checkConnection();
    expect(connectivity.isUnreachable('sandbox')).toBe(false);
    await until(service, 'finished');
    const done = (await service.status('sandbox'))!;
    expect(done.counts.cancelled + done.counts.gone).toBe(30);
  });
});
