import { describe, expect, it } from 'vitest';
import { call, callRoot, expectError, openSandbox, rateHeaders } from './sandbox-harness.ts';

describe('injected faults', () => {
  it('latency delays the answer by the given milliseconds', async () => {
    const sandbox = await openSandbox({ orders: 3, faults: 'latency=150@1' });
    const started = performance.now();
    const response = await call(sandbox, '/store/orders');
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(sandbox.requestLog.at(-1)?.faults).toEqual(['latency']);
  });

  it('latency waits through the injected sleep', async () => {
    const waits: number[] = [];
    const sandbox = await openSandbox({
      orders: 3,
      faults: 'latency=5000@1',
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect((await call(sandbox, '/store/orders')).status).toBe(200);
    expect(waits).toEqual([5000]);
  });

  it('429=N answers a burst of N requests 429 with a Retry-After of a second, doing nothing', async () => {
    const sandbox = await openSandbox({ orders: 10, faults: '429=3@1' });
    const [pending] = sandbox.orderIds({ status: 'pending', limit: 1 });
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(await call(sandbox, `/store/orders/${pending}`, { method: 'DELETE' }));
    for (const answer of answers) {
      expect(answer.headers.get('retry-after')).toBe('1');
      await expectError(answer, 429, 'rate_limited');
    }
    expect(sandbox.orderStatus(pending ?? '')).toBe('pending');
    expect(sandbox.requestLog.map((r) => r.faults)).toEqual([['429'], ['429'], ['429']]);
    // At rate 0.5 a new burst starts only sometimes; each one is three long.
    sandbox.setFaults('429=3@0.5');
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await call(sandbox, '/store/orders')).status);
    const runs = statuses
      .join('')
      .split(/200/)
      .filter((run) => run !== '');
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((run) => run.length % 9 === 0 || statuses.join('').endsWith(run))).toBe(true);
  });

  it('5xx answers 503 before doing anything, still counted and with rate-limit headers', async () => {
    const sandbox = await openSandbox({ orders: 10, faults: '5xx@1' });
    const [pending] = sandbox.orderIds({ status: 'pending', limit: 1 });
    const first = await call(sandbox, `/store/orders/${pending}`, { method: 'DELETE' });
    expect(rateHeaders(first)).toMatchObject({ limit: 60, remaining: 59 });
    await expectError(first, 503, 'service_unavailable');
    expect(sandbox.orderStatus(pending ?? '')).toBe('pending');
    const second = await call(sandbox, '/store/orders');
    expect(rateHeaders(second).remaining).toBe(58);
    await expectError(second, 503, 'service_unavailable');
  });

  it('reset processes the request, then drops the connection without an answer', async () => {
    const sandbox = await openSandbox({ orders: 10, faults: 'reset@1' });
    const [pending = ''] = sandbox.orderIds({ status: 'pending', limit: 1 });
    await expect(call(sandbox, `/store/orders/${pending}`, { method: 'DELETE' })).rejects.toThrow();
    // The lost-response case: the client saw a socket error, yet the order is cancelled.
    expect(sandbox.orderStatus(pending)).toBe('cancelled');
    expect(sandbox.requestLog.filter((entry) => entry.method === 'DELETE')).toEqual([
      expect.objectContaining({ status: 204, answered: false, faults: ['reset'] }),
    ]);
    sandbox.setFaults(undefined);
    expect(await (await call(sandbox, '/store/orders')).text()).not.toContain(`"id":${pending},`);
    await expectError(
      await call(sandbox, `/store/orders/${pending}`, { method: 'DELETE' }),
      404,
      'order_not_found',
    );
  });

  it('malformed answers the list with 200 and a truncated JSON array', async () => {
    const sandbox = await openSandbox({ orders: 50 });
    const whole = await (await call(sandbox, '/store/orders')).text();
    sandbox.setFaults('malformed@1');
    const response = await call(sandbox, '/store/orders');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    const text = await response.text();
    expect(Number(response.headers.get('Content-Length'))).toBe(Buffer.byteLength(text));
    expect(text.startsWith('[{')).toBe(true);
    expect(whole.startsWith(text)).toBe(true);
    expect(text.length).toBeLessThan(whole.length);
    expect(() => JSON.parse(text) as unknown).toThrow(SyntaxError);
    // Only the list is affected: a cancel still answers normally.
    const [pending] = sandbox.orderIds({ status: 'pending', limit: 1 });
    expect((await call(sandbox, `/store/orders/${pending}`, { method: 'DELETE' })).status).toBe(
      204,
    );
  });

  it('malformed breaks even an empty list', async () => {
    const sandbox = await openSandbox({ orders: 0, faults: 'malformed@1' });
    expect(await (await call(sandbox, '/store/orders')).text()).toBe('[');
  });

  it('applies faults only under /v1 and not to requests already limited', async () => {
    const sandbox = await openSandbox({ orders: 0, faults: '5xx@1', minuteMs: 60_000 });
    await expectError(await callRoot(sandbox, '/health'), 404, 'not_found');
    for (let i = 0; i < 59; i++) await call(sandbox, '/store/orders');
    await expectError(await call(sandbox, '/store/orders'), 429, 'rate_limited');
  });

  it('rolls the same faults for the same seed, and restarts the rolls on setFaults', async () => {
    const statuses = async (seed: number) => {
      const sandbox = await openSandbox({
        orders: 1,
        seed,
        faults: '5xx@0.5',
        keys: [{ plan: 'business', key: 'b' }],
      });
      const seen: number[] = [];
      for (let i = 0; i < 30; i++)
        seen.push((await call(sandbox, '/store/orders', { key: 'b' })).status);
      sandbox.setFaults('5xx@0.5');
      const again: number[] = [];
      for (let i = 0; i < 30; i++)
        again.push((await call(sandbox, '/store/orders', { key: 'b' })).status);
      expect(again).toEqual(seen);
      return seen;
    };
    const first = await statuses(4);
    expect(first).toContain(200);
    expect(first).toContain(503);
    expect(await statuses(4)).toEqual(first);
    expect(await statuses(5)).not.toEqual(first);
  });

  it('combines kinds: latency then 503', async () => {
    const waits: number[] = [];
    const sandbox = await openSandbox({
      orders: 1,
      faults: [
        { kind: 'latency', ms: 30, rate: 1 },
        { kind: '5xx', rate: 1 },
      ],
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    await expectError(await call(sandbox, '/store/orders'), 503, 'service_unavailable');
    expect(waits).toEqual([30]);
    expect(sandbox.faults).toEqual([
      { kind: 'latency', ms: 30, rate: 1 },
      { kind: '5xx', rate: 1 },
    ]);
  });

  it('rejects a bad spec at start-up and at runtime, keeping the faults it had', async () => {
    await expect(openSandbox({ faults: 'latency=abc@0.5' })).rejects.toThrow(
      'Invalid fault spec "latency=abc@0.5": rule "latency=abc@0.5" needs a delay in whole milliseconds',
    );
    const sandbox = await openSandbox({ orders: 1, faults: '5xx@1' });
    expect(() => sandbox.setFaults('5xx@2')).toThrow(/above 1/);
    expect(sandbox.faults).toEqual([{ kind: '5xx', rate: 1 }]);
    expect((await call(sandbox, '/store/orders')).status).toBe(503);
    sandbox.setFaults('');
    expect((await call(sandbox, '/store/orders')).status).toBe(200);
  });
});
