import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { StoreClient, type StoreClientOptions } from '../../../src/main/store-api/client.ts';
import { StoreApiError } from '../../../src/main/store-api/errors.ts';
import {
  answer,
  scriptedServer,
  type Script,
  type ScriptedServer,
} from '../../support/scripted-server.ts';
import { virtualTiming, type VirtualTiming } from '../../support/virtual-timing.ts';

const KEY = 'sk_live_do-not-leak-4c1d';
const servers: ScriptedServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: Script): Promise<ScriptedServer> {
  const server = await scriptedServer(script);
  servers.push(server);
  return server;
}

function clientFor(
  server: ScriptedServer,
  overrides: Partial<StoreClientOptions> = {},
  timing: VirtualTiming = virtualTiming(),
) {
  const gate = new RequestGate({ timing });
  const client = new StoreClient({
    baseUrl: server.baseUrl,
    getKey: () => KEY,
    gate,
    budget: new RetryBudget(timing.now),
    timing,
    ...overrides,
  });
  return { client, gate, timing };
}

function limits(
  res: ServerResponse,
  timing: VirtualTiming,
  remaining: number,
  resetInS = 60,
): void {
  res.setHeader('x-ratelimit-limit', '60');
  res.setHeader('x-ratelimit-remaining', String(remaining));
  res.setHeader('x-ratelimit-reset', String(Math.ceil(timing.now() / 1000) + resetInS));
}

async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(StoreApiError);
    return (error as StoreApiError).failure;
  }
  throw new Error('expected the call to fail');
}

const ORDER = { id: 1, petId: 2, quantity: 1, shipDate: '2026-11-20T10:00:00Z', complete: false };

describe('StoreClient: Retry-After and the gate', () => {
  it('waits a short delay-seconds Retry-After at the gate, then retries once', async () => {
    const timing = virtualTiming();
    const server = await serve((_req, res, i) => {
      // The window resets with the Retry-After: a spent window held past it is another test's.
      limits(res, timing, i === 0 ? 0 : 59, i === 0 ? 3 : 60);
      if (i === 0)
        answer(
          res,
          429,
          { code: 'rate_limited', message: 'Slow down', status: 429 },
          { 'retry-after': '3' },
        );
      else answer(res, 200, [ORDER]);
    });
    const { client } = clientFor(server, {}, timing);
    const start = timing.now();
    const list = await client.listOrders();
    expect(list.orders).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    expect(timing.now() - start).toBeGreaterThanOrEqual(3_000);
    expect(timing.now() - start).toBeLessThan(10_000);
  });

  it('reads an HTTP-date Retry-After against the Date header', async () => {
    const timing = virtualTiming();
    const server = await serve((_req, res) => {
      // The server's clock runs an hour ahead; it asks for 2 minutes by its clock.
      const serverNow = timing.now() + 3_600_000;
      answer(res, 429, '', {
        date: new Date(serverNow).toUTCString(),
        'retry-after': new Date(serverNow + 120_000).toUTCString(),
      });
    });
    const { client, gate } = clientFor(server, {}, timing);
    const failure = await failureOf(client.listOrders());
    expect(failure.kind).toBe('rate-limited');
    expect(failure.retryAt).toBe(timing.now() + 120_000);
    expect(gate.snapshot().holdUntil).toBe(timing.now() + 120_000);
    expect(failure.message).toMatch(/^Rate-limited until \d\d:\d\d:\d\d\./);
  });

  it('reads an epoch-valued Retry-After as a time, not a 56-year delay', async () => {
    const timing = virtualTiming();
    const server = await serve((_req, res) => {
      answer(res, 429, '', { 'retry-after': String(Math.floor(timing.now() / 1000) + 90) });
    });
    const { client } = clientFor(server, {}, timing);
    const failure = await failureOf(client.listOrders());
    expect(failure.retryAt).toBe(Math.floor(timing.now() / 1000) * 1000 + 90_000);
  });

  it('falls back from a garbage Retry-After to X-RateLimit-Reset', async () => {
    const timing = virtualTiming();
    const server = await serve((_req, res) => {
      limits(res, timing, 0, 45);
      answer(res, 429, 'Too many', { 'retry-after': 'in a while' });
    });
    const { client } = clientFor(server, {}, timing);
    const failure = await failureOf(client.listOrders());
    expect(failure.retryAt).toBe((Math.ceil(timing.now() / 1000) + 45) * 1000);
  });

  it('does not believe a Retry-After that would hold for ever (and never shows NaN)', async () => {
    const timing = virtualTiming();
    for (const huge of ['99999999999999999999999', '999999999']) {
      const server = await serve((_req, res) => {
        limits(res, timing, 0, 45);
        answer(res, 429, '', { 'retry-after': huge });
      });
      const { client, gate } = clientFor(server, {}, timing);
      const failure = await failureOf(client.listOrders());
      // Garbage: the day window's X-RateLimit-Reset is used instead.
      expect(failure.retryAt).toBe((Math.ceil(timing.now() / 1000) + 45) * 1000);
      expect(gate.snapshot().holdUntil).toBe(failure.retryAt);
      expect(failure.message).toMatch(/^Rate-limited until \d\d:\d\d:\d\d\./);
      expect(failure.message).not.toContain('NaN');
    }
  });

  it('holds for a day, never a quick retry, when Retry-After and X-RateLimit-Reset are both past a day', async () => {
    const timing = virtualTiming({ random: () => 0.999 });
    const server = await serve((_req, res) => {
      res.setHeader('x-ratelimit-limit', '60');
      res.setHeader('x-ratelimit-remaining', '0');
      res.setHeader('x-ratelimit-reset', '99999999999');
      answer(res, 429, '', { 'retry-after': '999999999' });
    });
    const { client, gate } = clientFor(server, {}, timing);
    const failure = await failureOf(client.listOrders());
    expect(failure.retryAt! - timing.now()).toBe(24 * 3_600_000);
    expect(server.requests).toHaveLength(1);
    expect(gate.snapshot().resetAt).toBeUndefined();
  });

  it("believes a wait up to the day window's reset when that is later than 24 hours", async () => {
    const timing = virtualTiming();
    const resetInS = 24 * 3600 + 300; // the day window, 5 minutes past 24 hours
    const server = await serve((_req, res) => {
      limits(res, timing, 0, resetInS);
      answer(res, 429, '', { 'retry-after': String(resetInS) });
    });
    const { client } = clientFor(server, {}, timing);
    const failure = await failureOf(client.listOrders());
    expect(failure.retryAt).toBe(timing.now() + resetInS * 1000);
  });

  it('falls back to backoff when neither header is usable', async () => {
    const timing = virtualTiming({ random: () => 0.999 });
    const server = await serve((_req, res) => answer(res, 429, '', { 'retry-after': '??' }));
    const { client } = clientFor(server, { maxInlineWaitMs: 0 }, timing);
    const failure = await failureOf(client.listOrders());
    expect(failure.kind).toBe('rate-limited');
    expect(failure.retryAt! - timing.now()).toBeGreaterThanOrEqual(1_000);
    expect(failure.retryAt! - timing.now()).toBeLessThanOrEqual(30_000);
  });

  it('sends nothing at all while the gate is shut, however many calls come (429 storm)', async () => {
    const timing = virtualTiming();
    const server = await serve((_req, res) => {
      limits(res, timing, 0);
      answer(
        res,
        429,
        { code: 'rate_limited', message: 'Too many requests', status: 429 },
        { 'retry-after': '60' },
      );
    });
    const { client } = clientFor(server, {}, timing);
    const calls = [
      ...Array.from({ length: 20 }, () => client.listOrders()),
      ...Array.from({ length: 20 }, (_, i) => client.cancelOrder(String(i + 1))),
    ];
    const failures = await Promise.all(calls.map(failureOf));
    expect(server.requests).toHaveLength(1);
    expect(new Set(failures.map((f) => f.kind))).toEqual(new Set(['rate-limited']));
    // Later calls are still refused locally while the wait is longer than an inline wait (10 s).
    timing.advance(45_000);
    await failureOf(client.cancelOrder('7'));
    expect(server.requests).toHaveLength(1);
  });

  it('holds back when Remaining reaches 0 until the reset, without a 429', async () => {
    const timing = virtualTiming();
    const server = await serve((_req, res) => {
      limits(res, timing, 0, 120);
      answer(res, 200, [ORDER]);
    });
    const { client } = clientFor(server, {}, timing);
    await client.listOrders();
    const failure = await failureOf(client.listOrders());
    expect(failure).toMatchObject({ kind: 'rate-limited', delivery: 'not-sent' });
    expect(failure.message).toContain('quota for this period is used up. Nothing was sent.');
    expect(server.requests).toHaveLength(1);
  });

  it('says plainly when the key is banned and sends nothing more', async () => {
    const timing = virtualTiming();
    const server = await serve((_req, res) => {
      answer(
        res,
        429,
        { code: 'api_key_banned', message: 'Key banned for 15 minutes', status: 429 },
        { 'retry-after': '900' },
      );
    });
    const { client, gate } = clientFor(server, {}, timing);
    const failure = await failureOf(client.cancelOrder('5'));
    expect(failure.kind).toBe('banned');
    expect(failure.message).toContain('temporarily banned');
    expect(gate.snapshot().holdReason).toBe('banned');
    await failureOf(client.listOrders());
    expect(server.requests).toHaveLength(1);
  });
});

describe('StoreClient: answers to a refused key', () => {
  it("never takes a 401's rate-limit headers as the key's quota", async () => {
    const timing = virtualTiming();
    // A 401 carries the bucket of requests without a valid key: Free limits, all spent.
    const server = await serve((_req, res) => {
      limits(res, timing, 0, 50);
      answer(res, 401, { code: 'invalid_key', message: 'Unknown key', status: 401 });
    });
    const { client, gate } = clientFor(server, {}, timing);
    expect(await failureOf(client.listOrders())).toMatchObject({ kind: 'unauthorized' });
    expect(gate.snapshot()).toEqual({ known: false });
    // Nothing holds the next request back on the strength of that answer.
    expect(gate.openAt()).toEqual({ at: timing.now() });
  });
});

describe('StoreClient: "Try now" through a hold', () => {
  it('sends exactly one request through a hold; its answer lifts it, and pacing goes on', async () => {
    const timing = virtualTiming();
    const server = await serve((_req, res, i) => {
      limits(res, timing, 40 - i);
      if (i === 0) answer(res, 429, '', { 'retry-after': '3600' });
      else answer(res, 200, [ORDER]);
    });
    const { client, gate } = clientFor(server, {}, timing);
    await failureOf(client.listOrders());
    expect(gate.openAt().reason).toBe('server-429');
    await failureOf(client.listOrders());
    expect(server.requests).toHaveLength(1);

    const check = await client.tryNow();
    expect(check.message).toContain('The service answered');
    expect(server.requests).toHaveLength(2);
    expect(gate.snapshot().holdUntil).toBeUndefined();
    expect(gate.snapshot()).toMatchObject({ remaining: 39 });
    expect((await client.listOrders()).orders).toHaveLength(1);
  });

  it('keeps the hold the service asks for again, and lets only one try out at a time', async () => {
    const timing = virtualTiming();
    const server = await serve((_req, res, i) =>
      answer(res, 429, '', { 'retry-after': i === 0 ? '3600' : '600' }),
    );
    const { client, gate } = clientFor(server, { max429Retries: 0 }, timing);
    await failureOf(client.listOrders());
    const tries = await Promise.allSettled([client.tryNow(), client.tryNow()]);
    expect(tries.map((t) => t.status)).toEqual(['rejected', 'rejected']);
    // One went through; the other waited behind it and then met the new hold.
    expect(server.requests).toHaveLength(2);
    // The answer to the try replaces the old hold with the service's new wish.
    expect(gate.snapshot().holdUntil).toBe(timing.now() + 600_000);
  });
});

describe('StoreClient: backoff for 5xx and resets', () => {
  it('retries 5xx with full-jitter backoff, then succeeds', async () => {
    const timing = virtualTiming({ random: () => 0.5 });
    const server = await serve((_req, res, i) => {
      if (i < 2) answer(res, i === 0 ? 503 : 502, 'Bad gateway');
      else answer(res, 200, [ORDER]);
    });
    const { client } = clientFor(server, {}, timing);
    await client.listOrders();
    expect(server.requests).toHaveLength(3);
    // base 500 ms, doubling: half of 500, then half of 1000
    expect(timing.sleeps).toEqual([250, 500]);
  });

  it('caps the number of retries and reports the status in plain words', async () => {
    const timing = virtualTiming();
    const server = await serve((_req, res) => answer(res, 500, ''));
    const { client } = clientFor(server, { maxRetries: 2 }, timing);
    const failure = await failureOf(client.listOrders());
    expect(server.requests).toHaveLength(3);
    expect(failure).toMatchObject({ kind: 'server', status: 500 });
    expect(failure.message).toContain('though Store Admin tried 3 times');
  });

  it('a problem met at the only try allowed says so without counting tries', async () => {
    const timing = virtualTiming();
    const server = await serve((_req, res) =>
      answer(res, 503, { code: 'unavailable', message: 'Service problem', status: 503 }),
    );
    const { client } = clientFor(server, { maxRetries: 0 }, timing);
    const failure = await failureOf(client.listOrders());
    expect(server.requests).toHaveLength(1);
    expect(failure.message).toBe(
      'The store service had a problem (503) and did not finish the request. Try again in a few minutes.',
    );
    expect(failure.message).not.toMatch(/\b1 tr(y|ies)\b/);
  });

  it('retries a connection reset, then succeeds', async () => {
    const server = await serve((req, res, i) => {
      if (i === 0) req.socket.destroy();
      else answer(res, 200, [ORDER]);
    });
    const { client } = clientFor(server);
    const list = await client.listOrders();
    expect(list.orders[0]?.id).toBe('1');
    expect(server.requests).toHaveLength(2);
  });

  it('spends a global retry budget, so a storm becomes fast failures', async () => {
    const timing = virtualTiming();
    const server = await serve((_req, res) => answer(res, 503, ''));
    const gate = new RequestGate({ timing });
    const budget = new RetryBudget(timing.now, { windowMs: 60_000, ratio: 0, minPerWindow: 4 });
    const client = new StoreClient({
      baseUrl: server.baseUrl,
      getKey: () => KEY,
      gate,
      budget,
      timing,
    });
    for (let i = 0; i < 5; i++) await failureOf(client.listOrders());
    // 5 first attempts plus the 4 retries the budget allows, not 5 × 4.
    expect(server.requests).toHaveLength(9);
  });

  it('says a refused connection was never sent', async () => {
    const server = await serve((_req, res) => answer(res, 200, []));
    const { client } = clientFor(server, { maxRetries: 1 });
    await server.close();
    const failure = await failureOf(client.cancelOrder('3'));
    expect(failure).toMatchObject({ kind: 'network', delivery: 'not-sent' });
    expect(failure.message).toContain('refused');
  });
});

describe('StoreClient: cancel', () => {
  it('reports a 404 after a lost answer as gone, never as cancelled', async () => {
    // Order 424242 never existed: the first connection is cut, the retry gets 404.
    const server = await serve((req, res, i) => {
      if (i === 0) req.socket.destroy();
      else answer(res, 404, { code: 'order_not_found', message: 'Order not found', status: 404 });
    });
    const { client } = clientFor(server);
    const outcome = await client.cancelOrder('424242');
    expect(outcome).toEqual({
      kind: 'gone',
      message:
        'Order 424242 is gone: the first try was sent, but the connection ended before the store service at ' +
        `${new URL(server.baseUrl).host} answered, so this cancel may or may not have removed it.`,
    });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'DELETE /v1/store/orders/424242',
      'DELETE /v1/store/orders/424242',
    ]);
  });

  it('says "already cancelled at HH:MM" when the cancel log knows the service cancelled it', async () => {
    const server = await serve((req, res, i) => {
      if (i === 0) req.socket.destroy();
      else answer(res, 404, { code: 'order_not_found', message: 'Order not found', status: 404 });
    });
    const { client } = clientFor(server);
    const at = new Date(2026, 10, 22, 9, 7, 30).getTime();
    let asked = 0;
    const earlierCancel = async () => {
      asked += 1;
      return { cancelledAt: at };
    };
    expect(await client.cancelOrder('77', { earlierCancel })).toEqual({
      kind: 'not-found',
      message: 'Order 77 was already cancelled at 09:07, so there was nothing left to cancel.',
    });
    expect(asked).toBe(1);
  });

  it('asks the cancel log only on a 404', async () => {
    const server = await serve((_req, res) => answer(res, 204));
    const { client } = clientFor(server);
    let asked = 0;
    const outcome = await client.cancelOrder('5', {
      earlierCancel: async () => {
        asked += 1;
        return undefined;
      },
    });
    expect(outcome.kind).toBe('cancelled');
    expect(asked).toBe(0);
  });

  it('reports a plain 404 as not found, 409 as already shipped, 204 as cancelled', async () => {
    const server = await serve((req, res) => {
      if (req.url?.endsWith('/1')) answer(res, 204);
      else if (req.url?.endsWith('/2'))
        answer(res, 404, { code: 'order_not_found', message: 'Order 2 not found', status: 404 });
      else answer(res, 409); // the 409 body is not specified: here it is empty
    });
    const { client } = clientFor(server);
    expect(await client.cancelOrder('1')).toMatchObject({ kind: 'cancelled' });
    // Never "no longer exists": the id may never have been listed. The service's
    // words add nothing here, so they are not repeated.
    expect(await client.cancelOrder('2')).toEqual({
      kind: 'not-found',
      message: 'Order 2 was not found, so there was nothing to cancel.',
    });
    const shipped = await client.cancelOrder('3');
    expect(shipped.kind).toBe('already-shipped');
    expect(shipped.message).toContain('already shipped');
  });

  it('turns a 401 with an HTML body into a plain message that points to Settings', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(401, { 'content-type': 'text/html' });
      res.end('<html><body><h1>401 Authorization Required</h1></body></html>');
    });
    const { client } = clientFor(server);
    const failure = await failureOf(client.cancelOrder('8'));
    expect(failure.kind).toBe('unauthorized');
    expect(failure.message).toContain('Check the key in Settings');
    expect(failure.message).not.toContain('<html>');
  });

  it('uses the service message of a JSON Error body, and reads an empty 429 body', async () => {
    const server = await serve((_req, res, i) => {
      if (i === 0)
        answer(res, 401, { code: 'invalid_key', message: 'API key revoked', status: 401 });
      else answer(res, 429, '', { 'retry-after': '120' });
    });
    const { client } = clientFor(server);
    expect(await failureOf(client.cancelOrder('1'))).toMatchObject({
      code: 'invalid_key',
      message: expect.stringContaining('API key revoked'),
    });
    expect(await failureOf(client.cancelOrder('1'))).toMatchObject({
      kind: 'rate-limited',
      delivery: 'answered',
    });
  });

  it('refuses an id that is not an int64 before sending anything', async () => {
    const server = await serve((_req, res) => answer(res, 204));
    const { client } = clientFor(server);
    for (const bad of ['1.5', '-', '12a', '9223372036854775808', '../orders']) {
      expect(await failureOf(client.cancelOrder(bad))).toMatchObject({
        kind: 'invalid-input',
        delivery: 'not-sent',
      });
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('StoreClient: responses and redirects', () => {
  it('keeps int64 ids exact above 2^53', async () => {
    const body =
      '[{"id":9007199254740993,"petId":18014398509481985,"quantity":1,"shipDate":"2026-01-01T00:00:00Z","complete":true}]';
    const server = await serve((req, res) => {
      if (req.method === 'DELETE') answer(res, 204);
      else answer(res, 200, body, { 'content-type': 'application/json' });
    });
    const { client } = clientFor(server);
    const { orders } = await client.listOrders();
    expect(orders[0]).toMatchObject({ id: '9007199254740993', petId: '18014398509481985' });
    await client.cancelOrder(orders[0]!.id!);
    expect(server.requests[1]?.url).toBe('/v1/store/orders/9007199254740993');
  });

  it('hands over the validated body exactly as sent, with its count', async () => {
    const body =
      '[{"id":9007199254740993,"petId":2,"quantity":1,"shipDate":"2026-01-01T00:00:00Z","complete":true},{"id":2}]';
    const server = await serve((_req, res) =>
      answer(res, 200, body, { 'content-type': 'application/json' }),
    );
    const { client } = clientFor(server);
    expect(await client.listOrdersBody()).toMatchObject({ body, count: 2, bytes: body.length });
    const broken = await serve((_req, res) =>
      answer(res, 200, '[{"id":1},{"id":"x"}]', { 'content-type': 'application/json' }),
    );
    expect(await failureOf(clientFor(broken).client.listOrdersBody())).toMatchObject({
      kind: 'invalid-response',
    });
  });

  it('rejects a body that is not what the interface says, whole', async () => {
    const bodies = [
      '{"orders":[]}',
      '[{"id":"one"}]',
      '[{"id":1,"complete":"yes"}]',
      '[{"id":1,"shipDate":"tomorrow"}]',
      '[1,2]',
      '[{"id":1}',
      '',
    ];
    for (const body of bodies) {
      const server = await serve((_req, res) =>
        answer(res, 200, body, { 'content-type': 'application/json' }),
      );
      const { client } = clientFor(server);
      const failure = await failureOf(client.listOrders());
      expect(failure.kind, body).toBe('invalid-response');
      expect(failure.message).toContain('Nothing was replaced');
    }
  });

  it('does not follow a redirect to another origin, and the other origin never sees the key', async () => {
    const elsewhere = await serve((_req, res) => answer(res, 200, []));
    const server = await serve((_req, res) =>
      answer(res, 302, '', { location: `${elsewhere.baseUrl}/store/orders` }),
    );
    const { client } = clientFor(server);
    const failure = await failureOf(client.listOrders());
    expect(failure.kind).toBe('redirect');
    expect(failure.message).toBe(
      `The store service’s address sent Store Admin to another site (${new URL(elsewhere.baseUrl).host}) instead of answering: perhaps this network’s sign-in page. Store Admin did not go there, so the API key was not sent. Sign in to the network in a browser, then retry.`,
    );
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('follows a same-origin redirect with the key', async () => {
    const server = await serve((req, res) => {
      if (req.url === '/v1/store/orders') answer(res, 301, '', { location: '/v1/store/orders/' });
      else answer(res, 200, [ORDER]);
    });
    const { client } = clientFor(server);
    await client.listOrders();
    expect(server.requests[1]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('reports download progress with the total when the service sends Content-Length', async () => {
    const body = JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ ...ORDER, id: i + 1 })));
    const server = await serve((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      });
      res.end(body);
    });
    const { client } = clientFor(server);
    const seen: Array<{ receivedBytes: number; totalBytes?: number }> = [];
    const list = await client.listOrders({ onProgress: (p) => seen.push(p) });
    expect(list.orders).toHaveLength(5000);
    expect(seen.at(-1)).toEqual({
      receivedBytes: Buffer.byteLength(body),
      totalBytes: Buffer.byteLength(body),
    });
  });

  it('never puts the key in a failure', async () => {
    const server = await serve((req, res) =>
      answer(res, 401, { code: 'x', message: `bad ${req.headers.authorization}`, status: 401 }),
    );
    const { client } = clientFor(server);
    const failure = await failureOf(client.listOrders());
    // A hostile server echoing the header back is the one way in; the message is the server's own words,
    // so the client must scrub the key from it.
    expect(JSON.stringify(failure)).not.toContain(KEY);
  });

  it('fails with no-key and sends nothing when no key is set', async () => {
    const server = await serve((_req, res) => answer(res, 200, []));
    const { client } = clientFor(server, { getKey: () => undefined });
    expect(await failureOf(client.listOrders())).toMatchObject({
      kind: 'no-key',
      delivery: 'not-sent',
    });
    expect(server.requests).toHaveLength(0);
  });
});

describe('StoreClient: what an answer to a cancel says was done', () => {
  it('calls only the answers the interface defines "answered"; any other leaves the cancel unknown', async () => {
    const defined = [400, 401, 429];
    const undefinedAnswers = [200, 202, 403, 418, 500, 501, 502, 503, 504, 505, 520, 524];
    for (const status of [...defined, ...undefinedAnswers]) {
      const server = await serve((_req, res) =>
        answer(res, status, { code: 'x', message: 'no', status }, { 'retry-after': '3600' }),
      );
      const { client } = clientFor(server, { maxRetries: 0 });
      const failure = await failureOf(client.cancelOrder('201'));
      expect(failure.delivery, String(status)).toBe(
        defined.includes(status) ? 'answered' : 'unknown',
      );
      if (!defined.includes(status))
        expect(failure.message).toContain('may or may not have been cancelled');
    }
  });

  it('leaves a redirected cancel unknown, wherever the redirect points', async () => {
    for (const location of [
      'https://elsewhere.example/v1/store/orders/201',
      '/v1/store/orders/x',
    ]) {
      const server = await serve((_req, res) => answer(res, 302, '', { location }));
      const { client } = clientFor(server);
      const failure = await failureOf(client.cancelOrder('201'));
      expect(failure).toMatchObject({ kind: 'redirect', delivery: 'unknown' });
    }
  });

  it('retries a 520 or 524 and calls the 404 after it gone, never not found', async () => {
    for (const status of [520, 524]) {
      const server = await serve((_req, res, i) =>
        i === 0
          ? answer(res, status, 'origin timed out')
          : answer(res, 404, { code: 'not_found', message: 'Order not found', status: 404 }),
      );
      const { client } = clientFor(server);
      const outcome = await client.cancelOrder('201');
      expect(outcome.kind, String(status)).toBe('gone');
      expect(server.requests).toHaveLength(2);
    }
  });

  it('calls a 404 gone when the cancel log holds an earlier cancel whose answer said nothing', async () => {
    const server = await serve((_req, res) =>
      answer(res, 404, { code: 'not_found', message: 'Order not found', status: 404 }),
    );
    const { client } = clientFor(server);
    const at = new Date(2026, 10, 22, 9, 7, 30).getTime();
    const outcome = await client.cancelOrder('201', {
      earlierCancel: async () => ({ unknownAt: at }),
    });
    expect(outcome).toEqual({
      kind: 'gone',
      message:
        'Order 201 is gone; the cancel sent at 09:07 got no answer that said what the service did, so that cancel may or may not have removed it.',
    });
  });
});

describe('StoreClient: waits it does not hold a call open for', () => {
  it('fails at once when a short Retry-After meets a window spent until a reset a minute away', async () => {
    const timing = virtualTiming();
    const server = await serve((_req, res) => {
      limits(res, timing, 0, 60);
      answer(
        res,
        429,
        { code: 'rate_limited', message: 'Slow down', status: 429 },
        { 'retry-after': '1' },
      );
    });
    const { client } = clientFor(server, {}, timing);
    const failure = await failureOf(client.listOrders());
    expect(failure).toMatchObject({ kind: 'rate-limited', retryAt: timing.now() + 60_000 });
    expect(server.requests).toHaveLength(1);
    expect(timing.sleeps.filter((ms) => ms > 0)).toEqual([]);
  });

  it('never answers an absurd Retry-After with a quick retry: it holds for a day', async () => {
    const timing = virtualTiming();
    // The service's own 429 (its figures, no reset): a gateway's would be held for seconds.
    const server = await serve((_req, res) =>
      answer(res, 429, '', {
        'retry-after': '86401',
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '0',
      }),
    );
    const { client, gate } = clientFor(server, {}, timing);
    const failure = await failureOf(client.listOrders());
    expect(failure.retryAt).toBe(timing.now() + 24 * 3_600_000);
    expect(server.requests).toHaveLength(1);
    expect(gate.openAt().at).toBe(timing.now() + 24 * 3_600_000);
    expect(await failureOf(client.listOrders())).toMatchObject({ delivery: 'not-sent' });
    expect(server.requests).toHaveLength(1);
  });
});
