// A 404 after a try of the same cancel that may have reached the service
// (a cut connection, a 5xx, a gateway's page) is "gone": this cancel may
// have removed the order. Said with what the first try met, in the words the
// app uses too (src/shared/unsure-words.ts), and a gateway's page is never
// blamed on the store service.

import { afterEach, describe, expect, it } from 'vitest';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';
import { StoreApiError } from '../../../src/main/store-api/errors.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { answer, scriptedServer, type ScriptedServer } from '../../support/scripted-server.ts';
import { virtualTiming } from '../../support/virtual-timing.ts';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const NOT_FOUND = { code: 'order_not_found', message: 'Order not found', status: 404 };

/** nginx's 502 page, when its upstream cut the connection after doing the work. */
function bad502(res: Parameters<typeof answer>[0]): void {
  res.writeHead(502, { 'content-type': 'text/html', server: 'nginx' });
  res.end('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>');
}

async function setup(script: Parameters<typeof scriptedServer>[0], maxRetries = 3) {
  const server = await scriptedServer(script);
  servers.push(server);
  const timing = virtualTiming();
  const client = new StoreClient({
    baseUrl: server.baseUrl,
    getKey: () => 'demo-pro',
    gate: new RequestGate({ timing }),
    budget: new RetryBudget(timing.now),
    timing,
    maxRetries,
  });
  return { server, client, host: new URL(server.baseUrl).host };
}

describe('a cancel whose first try may have reached the service', () => {
  it('a gateway’s 502 page, then 404: gone, and the page is the address’s (or something in between)', async () => {
    const { client, host } = await setup((_req, res, i) =>
      i === 0 ? bad502(res) : answer(res, 404, NOT_FOUND),
    );
    await expect(client.cancelOrder('28')).resolves.toEqual({
      kind: 'gone',
      message: `Order 28 is gone: the address ${host} (or something between it and this computer) answered the first try with 502 Bad Gateway, which does not say whether it was done, so this cancel may or may not have removed it.`,
    });
  });

  it('the service’s own 503, then 404: gone, said of the store service', async () => {
    const { client, host } = await setup((_req, res, i) =>
      i === 0
        ? answer(res, 503, { code: 'unavailable', message: 'Busy', status: 503 })
        : answer(res, 404, NOT_FOUND),
    );
    const outcome = await client.cancelOrder('28');
    expect(outcome.kind).toBe('gone');
    expect(outcome.message).toContain(
      `the store service at ${host} answered the first try with 503 Service Unavailable`,
    );
  });

  it('a gateway’s 502 on every try: may or may not have been cancelled, said of the address, not the service', async () => {
    const { client, host } = await setup((_req, res) => bad502(res), 1);
    const error = await client.cancelOrder('28').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreApiError);
    const { failure } = error as StoreApiError;
    expect(failure).toMatchObject({
      kind: 'server',
      delivery: 'unknown',
      status: 502,
      unsure: { why: 'status', status: 502, between: true },
    });
    expect(failure.message).toBe(
      `Order 28 may or may not have been cancelled: the address ${host} (or something between it and this computer) answered the request with 502 Bad Gateway, which does not say whether it was done. Refresh the list to check: if order 28 is still in it, cancel it again.`,
    );
    expect(failure.message).not.toContain('The store service had a problem');
  });

  it('a 502 page for a list says the address, or something in between, answered it', async () => {
    const { client, host } = await setup((_req, res) => bad502(res), 0);
    await expect(client.listOrders()).rejects.toMatchObject({
      failure: {
        kind: 'server',
        message: `The address ${host} (or something between it and this computer) answered 502 Bad Gateway in place of the store service. Try again in a few minutes.`,
      },
    });
  });
});
