import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { call, callRoot, expectError, openSandbox, rateHeaders } from './sandbox-harness.ts';

/** Send raw bytes and read until the server closes (or a little while passes). */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      received += data;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.setTimeout(2000, () => socket.destroy());
    // Half-close after the request, so a server waiting for more bytes sees the end.
    socket.end(request);
  });
}

describe('routing', () => {
  it('answers 404 not_found for unknown paths under /v1', async () => {
    const sandbox = await openSandbox({ orders: 5 });
    for (const path of [
      '',
      '/',
      '/store',
      '/store/orders/',
      '/store/orders/1/items',
      '/store/inventory',
      '/pets',
    ]) {
      const response = await call(sandbox, path, { method: 'GET' });
      rateHeaders(response);
      await expectError(response, 404, 'not_found');
    }
  });

  it('answers 404 outside /v1 without asking for a key', async () => {
    const sandbox = await openSandbox({ orders: 5 });
    for (const path of ['/', '/store/orders', '/v2/store/orders', '/v1x']) {
      const response = await callRoot(sandbox, path, { key: null });
      rateHeaders(response);
      await expectError(response, 404, 'not_found');
    }
  });

  it('ignores a query string', async () => {
    const sandbox = await openSandbox({ orders: 5 });
    const response = await call(sandbox, '/store/orders?limit=2&page=3');
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBe(5);
  });

  it.each([
    ['/store/orders', 'DELETE', 'GET, HEAD'],
    ['/store/orders', 'POST', 'GET, HEAD'],
    ['/store/orders', 'PUT', 'GET, HEAD'],
    ['/store/orders/1', 'GET', 'DELETE'],
    ['/store/orders/1', 'PATCH', 'DELETE'],
    ['/store/orders/not-an-id', 'POST', 'DELETE'],
    ['/pets/1', 'POST', 'GET, HEAD'],
    ['/pets/1', 'OPTIONS', 'GET, HEAD'],
  ])('answers 405 with Allow for %s %s', async (path, method, allow) => {
    const sandbox = await openSandbox({ orders: 5 });
    const response = await call(sandbox, path, { method });
    expect(response.headers.get('Allow')).toBe(allow);
    rateHeaders(response);
    await expectError(response, 405, 'method_not_allowed');
  });

  it('puts the rate-limit headers, Date and no-store on every kind of answer', async () => {
    const sandbox = await openSandbox({ orders: 5 });
    const [pending] = sandbox.orderIds({ status: 'pending', limit: 1 });
    const [shipped] = sandbox.orderIds({ status: 'shipped', limit: 1 });
    const answers = [
      await call(sandbox, '/store/orders'), // 200
      await call(sandbox, `/store/orders/${pending}`, { method: 'DELETE' }), // 204
      await call(sandbox, '/store/orders/x', { method: 'DELETE' }), // 400
      await call(sandbox, '/store/orders', { key: null }), // 401
      await call(sandbox, '/nowhere'), // 404
      await call(sandbox, '/store/orders', { method: 'POST' }), // 405
      await call(sandbox, `/store/orders/${shipped}`, { method: 'DELETE' }), // 409
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 204, 400, 401, 404, 405, 409]);
    for (const response of answers) {
      rateHeaders(response);
      expect(response.headers.get('Date')).toMatch(/GMT$/);
      expect(response.headers.get('Cache-Control')).toBe('no-store');
    }
    // The keyed ones count down one bucket: six requests made with demo-free.
    expect(rateHeaders(answers[6] as Response).remaining).toBe(54);
  });

  it('answers a request Node cannot parse with a JSON 400 and stays up', async () => {
    const sandbox = await openSandbox({ orders: 5 });
    const answer = await rawExchange(sandbox.port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toMatch(/\r\nContent-Type: application\/json\r\n/);
    expect(answer).toMatch(/\r\nX-RateLimit-Limit: 60\r\n/);
    expect(answer).toMatch(/\r\nX-RateLimit-Remaining: 60\r\n/);
    expect(answer).toMatch(/\r\nX-RateLimit-Reset: [0-9]+\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      code: 'bad_request',
      status: 400,
    });
    expect((await call(sandbox, '/store/orders')).status).toBe(200);
  });

  it('survives odd but parseable requests', async () => {
    const sandbox = await openSandbox({ orders: 5 });
    const absolute = await rawExchange(
      sandbox.port,
      `GET http://127.0.0.1:${sandbox.port}/v1/store/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-free\r\nConnection: close\r\n\r\n`,
    );
    expect(absolute).toMatch(/^HTTP\/1\.1 400 /);
    const withBody = await call(sandbox, '/store/orders/1', {
      method: 'DELETE',
      headers: { 'Content-Type': 'application/json' },
    });
    expect([204, 409]).toContain(withBody.status);
    const hugeHeader = await rawExchange(
      sandbox.port,
      `GET /v1/store/orders HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(hugeHeader).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(hugeHeader).toContain('"code":"headers_too_large"');
    const truncated = await rawExchange(sandbox.port, 'GET /v1/store/ord');
    expect(truncated).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect((await call(sandbox, '/store/orders')).status).toBe(200);
  });

  it('logs each request with method, path, plan, status and time, and can clear the log', async () => {
    let clock = 1_800_000_000_000;
    const sandbox = await openSandbox({ orders: 5, now: () => clock });
    await call(sandbox, '/store/orders?x=1', { key: 'demo-business' });
    clock += 5;
    await call(sandbox, '/store/orders', { key: 'nope' });
    expect(sandbox.requestLog).toEqual([
      {
        method: 'GET',
        path: '/v1/store/orders',
        plan: 'business',
        status: 200,
        at: 1_800_000_000_000,
        faults: [],
        answered: true,
      },
      {
        method: 'GET',
        path: '/v1/store/orders',
        plan: undefined,
        status: 401,
        at: 1_800_000_000_005,
        faults: [],
        answered: true,
      },
    ]);
    sandbox.clearRequestLog();
    expect(sandbox.requestLog).toEqual([]);
  });

  it('closes while a client still holds a keep-alive connection', async () => {
    const sandbox = await openSandbox({ orders: 5 });
    expect((await call(sandbox, '/store/orders')).status).toBe(200);
    await sandbox.close();
    await sandbox.close();
    await expect(call(sandbox, '/store/orders')).rejects.toThrow();
  });

  it('answers its own failures with a 500 Error body and keeps serving', async () => {
    const sandbox = await openSandbox({
      orders: 1,
      faults: 'latency=10@1',
      sleep: () => Promise.reject(new Error('clock broke')),
    });
    const failed = await call(sandbox, '/store/orders');
    rateHeaders(failed);
    expect(await expectError(failed, 500, 'internal_error')).toMatch(/clock broke/);
    sandbox.setFaults(undefined);
    expect((await call(sandbox, '/store/orders')).status).toBe(200);
  });

  it('rejects bad options', async () => {
    await expect(openSandbox({ minuteMs: 0 })).rejects.toThrow(/minuteMs/);
    await expect(openSandbox({ orders: -1 })).rejects.toThrow(/orders/);
    await expect(openSandbox({ port: 70_000 })).rejects.toThrow(/port/);
    await expect(openSandbox({ faults: 'boom@1' })).rejects.toThrow(/unknown kind "boom"/);
    await expect(openSandbox({ retryAfterFormat: 'minutes' as 'seconds' })).rejects.toThrow(
      /retryAfterFormat/,
    );
  });
});
