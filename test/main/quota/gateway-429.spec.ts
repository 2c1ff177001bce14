// A 429 from something between this computer and the service (nginx's
// limit_req, an API gateway) is not the service's quota: it comes as a web
// page, or without the rate-limit headers the service sends on every answer.
// It holds for its Retry-After, or for a short pause that grows with repeats
// (seconds, never the service's window), and never says the quota is used
// up. Found from outside: one such answer held the CLI until the day
// window's reset while the service reported 295 of 300 left.

import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  GATEWAY_BACKOFF_CAP_MS,
  GATEWAY_BACKOFF_MS,
  GATEWAY_SPACING_MS,
  RequestGate,
  RESUME_JITTER_MS,
} from '../../../src/main/quota/gate.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';
import { StoreApiError } from '../../../src/main/store-api/errors.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { answer, scriptedServer, type ScriptedServer } from '../../support/scripted-server.ts';
import { virtualTiming, type VirtualTiming } from '../../support/virtual-timing.ts';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** nginx's own 429 page (limit_req_status 429), as Debian's nginx sends it. */
const NGINX_429 =
  '<html>\r\n<head><title>429 Too Many Requests</title></head>\r\n<body>\r\n<center><h1>429 Too Many Requests</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';

function gateway429(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(429, { 'content-type': 'text/html', server: 'nginx/1.22.1', ...headers });
  res.end(NGINX_429);
}

/** The service's answer: 295 of 300 left, its binding window the day's (hours away). */
function serviceOk(res: ServerResponse, timing: VirtualTiming): void {
  answer(res, 200, [], {
    'x-ratelimit-limit': '300',
    'x-ratelimit-remaining': '295',
    'x-ratelimit-reset': String(Math.ceil(timing.now() / 1000) + 9 * 3600),
  });
}

async function setup(script: (res: ServerResponse, index: number) => void, max429Retries = 0) {
  const timing = virtualTiming();
  const server = await scriptedServer((_req, res, index) => script(res, index));
  servers.push(server);
  const gate = new RequestGate({ timing });
  const client = new StoreClient({
    baseUrl: server.baseUrl,
    getKey: () => 'demo-pro',
    gate,
    budget: new RetryBudget(timing.now),
    timing,
    max429Retries,
  });
  return { timing, server, gate, client };
}

async function failureOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreApiError);
  return (error as StoreApiError).failure;
}

describe('a gateway’s 429', () => {
  it('holds for seconds, not until the service’s day window resets, and never calls the quota used up', async () => {
    const { timing, gate, client } = await setup((res, i) =>
      i === 0 ? serviceOk(res, timing) : gateway429(res),
    );
    await client.listOrders();
    const failure = await failureOf(client.listOrders());
    expect(failure.kind).toBe('rate-limited');
    // First of a row: about GATEWAY_BACKOFF_MS (virtual random 0.5: three quarters of it).
    expect(failure.retryAt! - timing.now()).toBe(0.75 * GATEWAY_BACKOFF_MS);
    expect(failure.message).toContain(
      'A gateway between this computer and the store service is limiting requests: the address',
    );
    expect(failure.message).not.toContain('quota for this period is used up');
    expect(failure.message).not.toContain('banned');
    // The service's figures stand; the hold is the gateway's.
    expect(gate.snapshot()).toMatchObject({
      remaining: 295,
      holdReason: 'gateway-429',
      holdUntil: failure.retryAt,
    });
    expect(gate.openAt()).toEqual({ at: failure.retryAt, reason: 'gateway-429' });
  });

  it('grows its pause with each one in a row, up to seconds, and starts again once the service answers', async () => {
    let serviceAnswers = false;
    const { timing, client } = await setup((res) =>
      serviceAnswers ? serviceOk(res, timing) : gateway429(res),
    );
    const holds: number[] = [];
    for (let i = 0; i < 8; i++) {
      const failure = await failureOf(client.listOrders({ maxWaitMs: 60_000 }));
      holds.push(failure.retryAt! - timing.now());
      timing.set(failure.retryAt!);
    }
    const step = (n: number) => Math.min(GATEWAY_BACKOFF_CAP_MS, GATEWAY_BACKOFF_MS * 2 ** n);
    expect(holds).toEqual(holds.map((_, n) => 0.75 * step(n)));
    expect(Math.max(...holds)).toBeLessThanOrEqual(GATEWAY_BACKOFF_CAP_MS);
    serviceAnswers = true;
    await client.listOrders({ maxWaitMs: 60_000 });
    serviceAnswers = false;
    const again = await failureOf(client.listOrders({ maxWaitMs: 60_000 }));
    expect(again.retryAt! - timing.now()).toBe(0.75 * GATEWAY_BACKOFF_MS);
  });

  it('holds for the Retry-After it gives', async () => {
    const { timing, gate, client } = await setup((res) => gateway429(res, { 'retry-after': '7' }));
    const failure = await failureOf(client.listOrders());
    expect(failure.retryAt).toBe(timing.now() + 7_000);
    expect(gate.snapshot().holdReason).toBe('gateway-429');
  });

  it('is a 429 without the service’s headers too, also with a JSON body', async () => {
    const { timing, gate, client } = await setup((res, i) =>
      i === 0
        ? serviceOk(res, timing)
        : answer(res, 429, { message: 'API rate limit exceeded' }, { 'retry-after': '2' }),
    );
    await client.listOrders();
    const failure = await failureOf(client.listOrders());
    expect(failure.retryAt).toBe(timing.now() + 2_000);
    expect(gate.snapshot()).toMatchObject({ remaining: 295, holdReason: 'gateway-429' });
  });

  it('retries once at the gate when the hold is short, then the service answers', async () => {
    const { server, timing, gate, client } = await setup(
      (res, i) => (i === 1 ? gateway429(res) : serviceOk(res, timing)),
      1,
    );
    await client.listOrders();
    const before = timing.now();
    await expect(client.listOrders()).resolves.toMatchObject({ orders: [] });
    expect(server.requests).toHaveLength(3);
    // The hold, then the lone request after it (a pause of half the jitter).
    expect(timing.now() - before).toBe(0.75 * GATEWAY_BACKOFF_MS + 500);
    expect(gate.openAt().reason).toBeUndefined();
  });

  it('tells the service’s own 429 apart: its headers and JSON, a hold until its Retry-After', async () => {
    const { timing, gate, client } = await setup((res) =>
      answer(
        res,
        429,
        { code: 'rate_limited', message: 'Rate limit exceeded', status: 429 },
        {
          'retry-after': '30',
          'x-ratelimit-limit': '300',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(Math.ceil(timing.now() / 1000) + 30),
        },
      ),
    );
    const failure = await failureOf(client.listOrders());
    expect(failure.message).toContain('The service asked Store Admin to slow down (429)');
    expect(gate.snapshot()).toMatchObject({ remaining: 0, holdReason: 'server-429' });
  });

  it('spaces the requests after it, narrowing the spacing with each answer of the service until there is none', async () => {
    const timing = virtualTiming();
    const gate = new RequestGate({ timing });
    const reading = () => ({ limit: 300, remaining: 290, resetAt: timing.now() + 60_000 });
    (await gate.acquire({ maxWaitMs: 0 })).release(reading());
    const until = (await gate.acquire({ maxWaitMs: 0 })).releaseGatewayLimited();
    const sentAt: number[] = [];
    const waiters = Array.from({ length: 25 }, () =>
      gate.acquire({ maxWaitMs: 60_000, priority: 'background' }).then((ticket) => {
        sentAt.push(timing.now());
        ticket.release(reading());
      }),
    );
    await Promise.all(waiters);
    // The first alone after the hold and a random pause; then spaced, a tenth less each time.
    expect(sentAt[0]).toBe(until + 0.5 * RESUME_JITTER_MS);
    const gaps = sentAt.slice(1).map((at, i) => at - sentAt[i]!);
    let spacing = GATEWAY_SPACING_MS;
    for (const gap of gaps) {
      spacing = spacing < GATEWAY_SPACING_MS / 4 ? 0 : Math.floor(spacing * 0.9);
      expect(gap).toBe(spacing);
    }
    expect(gaps.at(-1)).toBe(0);
  });
});
