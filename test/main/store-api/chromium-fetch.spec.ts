// The store client over Chromium's network stack, as the app runs it: the
// fetch is the Electron stand-in's net.fetch (tools/electron-standin), which
// fails as Electron's does (net::ERR_… messages, a redirect under
// redirect: 'manual' cancelled rather than handed back). Each failure is one
// sentence, says whether anything was sent, and is not retried when it
// would fail the same way again.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import { makeSandboxTls } from '../../../src/main/sandbox/tls.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';
import { StoreApiError } from '../../../src/main/store-api/errors.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { net } from '../../../tools/electron-standin/electron/net.ts';
import { scriptedServer, type ScriptedServer } from '../../support/scripted-server.ts';
import { virtualTiming } from '../../support/virtual-timing.ts';

let tls: Sandbox;
let redirecting: ScriptedServer;

beforeAll(async () => {
  const made = await makeSandboxTls();
  tls = await startSandbox({ port: 0, orders: 3, tls: { key: made.key, cert: made.cert } });
  redirecting = await scriptedServer((_req, res) => {
    res.writeHead(302, { location: '/v1/elsewhere' });
    res.end();
  });
});
afterAll(async () => {
  await Promise.all([tls.close(), redirecting.close()]);
});

/** As src/main/index.ts hands net.fetch to the client. */
const chromiumFetch: typeof fetch = (input, init) =>
  net.fetch(input instanceof URL ? input.href : input, init);

function clientAt(baseUrl: string) {
  const timing = virtualTiming();
  const client = new StoreClient({
    baseUrl,
    getKey: () => 'demo-pro',
    gate: new RequestGate({ timing }),
    budget: new RetryBudget(timing.now),
    timing,
    fetch: chromiumFetch,
  });
  return { client, timing };
}

async function failureOf(promise: Promise<unknown>) {
  const error: unknown = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StoreApiError);
  return (error as StoreApiError).failure;
}

describe('the store client over Chromium’s fetch', () => {
  it('says an untrusted certificate in one sentence naming the host, sends nothing and does not retry', async () => {
    const { client, timing } = clientAt(`https://localhost:${tls.port}/v1`);
    expect(await failureOf(client.cancelOrder('7'))).toEqual({
      kind: 'network',
      delivery: 'not-sent',
      message: `The store service at localhost:${tls.port} showed a certificate this computer does not trust, so nothing was sent.`,
    });
    expect(timing.sleeps).toEqual([]);
    expect(tls.requestLog).toEqual([]);
    expect(tls.orderStatus('7')).not.toBe('cancelled');
  });

  it('names a refused connection as never sent', async () => {
    const closed = await scriptedServer(() => undefined);
    const port = new URL(closed.origin).port;
    await closed.close();
    const { client } = clientAt(`http://127.0.0.1:${port}/v1`);
    const failure = await failureOf(client.cancelOrder('7'));
    expect(failure).toMatchObject({
      kind: 'network',
      delivery: 'not-sent',
      message: `Could not reach the store service at 127.0.0.1:${port}: the connection was refused.`,
    });
  });

  it('reports a redirect it cannot see as not followed: the key never leaves, a DELETE may have been done', async () => {
    const { client, timing } = clientAt(redirecting.baseUrl);
    expect(await failureOf(client.listOrders())).toEqual({
      kind: 'redirect',
      delivery: 'answered',
      message:
        'The store service’s address sent Store Admin somewhere else instead of answering: perhaps this network’s sign-in page. Store Admin did not go there, so the API key was not sent. Sign in to the network in a browser, then retry.',
    });
    expect(await failureOf(client.cancelOrder('7'))).toMatchObject({
      kind: 'redirect',
      delivery: 'unknown',
    });
    // One request each: not retried, not followed.
    expect(redirecting.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/store/orders',
      'DELETE /v1/store/orders/7',
    ]);
    expect(timing.sleeps).toEqual([]);
  });
});
