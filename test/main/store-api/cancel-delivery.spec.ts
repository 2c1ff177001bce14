// What the client knows of a cancel that got no telling answer, over real
// loopback connections: a refused connection never reached the service
// (`not-sent`: the order was not cancelled); a connection cut, or no answer in
// time, after the request arrived may or may not have been carried out
// (`unknown`), and so may a refused retry after a try that was cut. The
// renderer's words for a failed cancel follow from this pair (kind, delivery).

import { afterEach, describe, expect, it } from 'vitest';
import type { Failure } from '../../../src/shared/failures.ts';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { isStoreApiError, StoreClient } from '../../../src/main/store-api/client.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { scriptedServer, type Script, type ScriptedServer } from '../../support/scripted-server.ts';
import { virtualTiming } from '../../support/virtual-timing.ts';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(script: Script): Promise<ScriptedServer> {
  const server = await scriptedServer(script);
  servers.push(server);
  return server;
}

/** The failure one cancel of order 7 comes to through the real client. */
async function cancelFailure(baseUrl: string, attemptTimeoutMs = 30_000): Promise<Failure> {
  const timing = virtualTiming();
  const client = new StoreClient({
    baseUrl,
    getKey: () => 'test-key-0123456789',
    gate: new RequestGate({ timing }),
    budget: new RetryBudget(timing.now),
    timing,
    attemptTimeoutMs,
  });
  try {
    const outcome = await client.cancelOrder('7');
    throw new Error(`answered: ${outcome.kind}`);
  } catch (error) {
    if (!isStoreApiError(error)) throw error;
    return error.failure;
  }
}

describe('a cancel without a telling answer', () => {
  it('a refused connection: never sent, on every try', async () => {
    const server = await serve(() => undefined);
    await server.close();
    expect(await cancelFailure(server.baseUrl)).toMatchObject({
      kind: 'network',
      delivery: 'not-sent',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('the connection cut after the request arrived: unknown', async () => {
    const server = await serve((req) => void req.socket.destroy());
    expect(await cancelFailure(server.baseUrl)).toMatchObject({
      kind: 'network',
      delivery: 'unknown',
    });
    expect(server.requests.length).toBeGreaterThan(0);
  });

  it('no answer in time after the request arrived: unknown', async () => {
    // Never answers; the attempt's own limit ends each wait.
    const server = await serve(() => new Promise<void>(() => undefined));
    expect(await cancelFailure(server.baseUrl, 150)).toMatchObject({
      kind: 'timeout',
      delivery: 'unknown',
    });
    expect(server.requests.length).toBeGreaterThan(0);
  });

  it('a refused retry after a try that was cut: still unknown, never "not sent"', async () => {
    // The first try arrives and is cut; the service is gone by the retry.
    const server: ScriptedServer = await serve((req) => {
      req.socket.destroy();
      void server.close();
    });
    expect(await cancelFailure(server.baseUrl)).toMatchObject({
      kind: 'network',
      delivery: 'unknown',
    });
    expect(server.requests).toHaveLength(1);
  });
});
