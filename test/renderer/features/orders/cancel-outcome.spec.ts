// What a failed cancel says, led by what it means for the order: a request
// that never left says not cancelled, one that left without a telling answer
// says may or may not, why, and what to check (also from the real client's
// failures over loopback). A condition behind it (a hold, a ban, the key, no
// connection) is only named: the notice area says it in full, with its time. The service's own words are added only
// where the sentence is generic (a 5xx, an unexpected status).

import { afterEach, describe, expect, test } from 'vitest';
import { RequestGate } from '../../../../src/main/quota/gate.ts';
import { isStoreApiError, StoreClient } from '../../../../src/main/store-api/client.ts';
import { RetryBudget } from '../../../../src/main/store-api/retry-budget.ts';
import { describeCancelFailure } from '../../../../src/renderer/src/features/orders/cancel-outcome.tsx';
import type { Failure } from '../../../../src/shared/failures.ts';
import {
  scriptedServer,
  type Script,
  type ScriptedServer,
} from '../../../support/scripted-server.ts';
import { virtualTiming } from '../../../support/virtual-timing.ts';

const failure = (fields: Partial<Failure> & Pick<Failure, 'kind' | 'message'>): Failure => ({
  delivery: 'answered',
  ...fields,
});

test('a hold or a ban is named without a time (the notice has the gate’s)', () => {
  const limited = failure({
    kind: 'rate-limited',
    message: 'Rate-limited until 07:34:49. The service asked Store Admin to slow down (429).',
    retryAt: 1,
  });
  expect(describeCancelFailure(limited, '42', 'staging')).toBe(
    'Order 42 was not cancelled: requests to Staging are paused.',
  );
  expect(
    describeCancelFailure(failure({ kind: 'banned', message: 'Banned.' }), '42', 'production'),
  ).toBe('Order 42 was not cancelled: the Production API key is banned for a while.');
});

test('a request that left without an answer saying what was done: may or may not, why, and what to check', () => {
  const check = 'Refresh the list to check: if order 7 is still in it, cancel it again.';
  const unknown = (fields: Partial<Failure> & Pick<Failure, 'kind'>) =>
    describeCancelFailure(failure({ message: '', delivery: 'unknown', ...fields }), '7', 'sandbox');
  expect(unknown({ kind: 'network' })).toBe(
    `Order 7 may or may not have been cancelled: the request was sent, but the connection ended before Sandbox answered. ${check}`,
  );
  expect(unknown({ kind: 'timeout' })).toBe(
    `Order 7 may or may not have been cancelled: the request was sent, but Sandbox did not answer in time. ${check}`,
  );
  expect(unknown({ kind: 'server', status: 524 })).toBe(
    `Order 7 may or may not have been cancelled: Sandbox answered (524) without saying whether it was done. ${check}`,
  );
  expect(unknown({ kind: 'rate-limited', retryAt: 1 })).toBe(
    `Order 7 may or may not have been cancelled: an earlier try's answer was lost, and requests to Sandbox are now paused. ${check}`,
  );
});

/** What one cancel through the real client comes to, as the clerk reads it. */
async function cancelThrough(baseUrl: string, attemptTimeoutMs = 30_000): Promise<string> {
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
    return `answered: ${outcome.kind}`;
  } catch (error) {
    if (!isStoreApiError(error)) throw error;
    return describeCancelFailure(error.failure, '7', 'staging');
  }
}

describe('the failures main gives a cancel, over loopback', () => {
  const servers: ScriptedServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  const serve = async (script: Script) => {
    const server = await scriptedServer(script);
    servers.push(server);
    return server;
  };

  test('a refused connection: never reached the service, so not cancelled and safe to try again', async () => {
    const server = await serve(() => undefined);
    await server.close();
    expect(await cancelThrough(server.baseUrl)).toBe(
      'Order 7 was not cancelled: the request never reached Staging, as the connection failed before anything was sent. It is safe to try again once Staging answers.',
    );
    expect(server.requests).toHaveLength(0);
  });

  test('the connection cut after the request arrived: may or may not, and what to check', async () => {
    // The service acts on every try, then the connection drops before its answer.
    const server = await serve((req) => void req.socket.destroy());
    const said = await cancelThrough(server.baseUrl);
    expect(said).toMatch(
      /^Order 7 may or may not have been cancelled: the request was sent, but the connection ended before Staging answered\. /,
    );
    expect(server.requests.length).toBeGreaterThan(0);
  });

  test('no answer in time after the request arrived: may or may not', async () => {
    // Never answers; the attempt's own limit (not the test) ends the wait.
    const server = await serve(() => new Promise<void>(() => undefined));
    const said = await cancelThrough(server.baseUrl, 150);
    expect(said).toMatch(
      /^Order 7 may or may not have been cancelled: the request was sent, but Staging did not answer in time\. /,
    );
  });

  test('a refused connection after an earlier try was cut: may or may not, never "not cancelled"', async () => {
    // The first try arrives and is cut; the service is gone by the retry.
    const server: ScriptedServer = await serve((req) => {
      req.socket.destroy();
      void server.close();
    });
    const said = await cancelThrough(server.baseUrl);
    expect(said).toMatch(/^Order 7 may or may not have been cancelled: /);
    expect(said).not.toContain('was not cancelled');
  });
});

test('the service’s words only where the sentence says nothing specific', () => {
  const server = failure({
    kind: 'server',
    message:
      'Order 9 was not cancelled. The store service had a problem (502). The service said: “upstream down”',
    status: 502,
  });
  expect(describeCancelFailure(server, '9', 'sandbox')).toBe(
    'Order 9 was not cancelled. The store service had a problem (502). The service said: “upstream down”',
  );
  const refused = failure({
    kind: 'unauthorized',
    message:
      'Order 9 was not cancelled. The API key is missing or was not accepted (401). The service said: “Invalid API key”',
    status: 401,
  });
  expect(describeCancelFailure(refused, '9', 'staging')).toBe(
    'Order 9 was not cancelled: the service did not accept the Staging API key.',
  );
});
