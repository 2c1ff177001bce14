import { describe, expect, it } from 'vitest';
import { virtualTiming } from '../../support/virtual-timing.ts';
import { call, expectError, idsInText, openSandbox, rateHeaders } from './sandbox-harness.ts';

interface Order {
  id: number;
  petId: number;
  quantity: number;
  shipDate: string;
  complete: boolean;
}

describe('GET /store/orders', () => {
  it('answers the whole collection as a JSON array of Orders with a Content-Length', async () => {
    const sandbox = await openSandbox({ orders: 250 });
    const response = await call(sandbox, '/store/orders');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('Content-Length'))).toBe(bytes.length);
    const orders = JSON.parse(bytes.toString('utf8')) as Order[];
    expect(orders).toHaveLength(250);
    for (const order of orders) {
      expect(Object.keys(order).sort()).toEqual([
        'complete',
        'id',
        'petId',
        'quantity',
        'shipDate',
      ]);
      expect(Number.isSafeInteger(order.id)).toBe(true);
      expect(Number.isSafeInteger(order.petId)).toBe(true);
      expect(Number.isInteger(order.quantity)).toBe(true);
      expect(Number.isNaN(Date.parse(order.shipDate))).toBe(false);
      expect(typeof order.complete).toBe('boolean');
      expect(order).not.toHaveProperty('status');
    }
  });

  it('sends the list at the bandwidth asked for, a slice at a time, the same bytes', async () => {
    const timing = virtualTiming();
    const paced = await openSandbox({
      orders: 2000,
      bytesPerSecond: 100_000,
      now: timing.now,
      sleep: (ms) => timing.sleep(ms),
    });
    const free = await openSandbox({ orders: 2000 });
    const body = Buffer.from(await (await call(paced, '/store/orders')).arrayBuffer());
    expect(body.equals(Buffer.from(await (await call(free, '/store/orders')).arrayBuffer()))).toBe(
      true,
    );
    // Slices of at most 64 KiB, each sent when its last byte is due at 100 kB/s: the waits add
    // up to the body's time, and none is longer than a whole slice's.
    const total = timing.sleeps.reduce((sum, ms) => sum + ms, 0);
    expect(total).toBeCloseTo((body.length / 100_000) * 1000, 0);
    expect(timing.sleeps.length).toBeGreaterThanOrEqual(Math.ceil(body.length / 65_536));
    expect(Math.max(...timing.sleeps)).toBeLessThanOrEqual((65_536 / 100_000) * 1000 + 0.01);
  });

  it('is deterministic from the seed', async () => {
    const [a, b, c] = await Promise.all([
      openSandbox({ orders: 100, seed: 7 }),
      openSandbox({ orders: 100, seed: 7 }),
      openSandbox({ orders: 100, seed: 8 }),
    ]);
    const body = async (s: typeof a) => (await call(s, '/store/orders')).text();
    const first = await body(a);
    expect(await body(b)).toBe(first);
    expect(await body(c)).not.toBe(first);
  });

  it('mixes pending and shipped orders about 60/40, and only shipped ones are complete', async () => {
    const sandbox = await openSandbox({ orders: 2000 });
    const pending = sandbox.orderIds({ status: 'pending' });
    const shipped = sandbox.orderIds({ status: 'shipped' });
    expect(pending.length + shipped.length).toBe(2000);
    expect(pending.length / 2000).toBeGreaterThan(0.55);
    expect(pending.length / 2000).toBeLessThan(0.65);
    const orders = (await (await call(sandbox, '/store/orders')).json()) as Order[];
    const pendingSet = new Set(pending);
    expect(orders.some((o) => o.complete)).toBe(true);
    for (const order of orders.filter((o) => o.complete)) {
      expect(pendingSet.has(String(order.id))).toBe(false);
      expect(sandbox.orderStatus(String(order.id))).toBe('shipped');
    }
  });

  it('answers HEAD with the headers of the list and no body', async () => {
    const sandbox = await openSandbox({ orders: 10 });
    const full = await call(sandbox, '/store/orders');
    const length = (await full.arrayBuffer()).byteLength;
    const head = await call(sandbox, '/store/orders', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('Content-Length'))).toBe(length);
    expect(await head.text()).toBe('');
  });

  it('serves a million orders with an exact Content-Length', async () => {
    const sandbox = await openSandbox({ orders: 1_000_000 });
    const response = await call(sandbox, '/store/orders', { key: 'demo-enterprise' });
    const length = Number(response.headers.get('Content-Length'));
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(length);
    expect(length).toBeGreaterThan(50_000_000);
    const text = bytes.toString('latin1');
    expect(text.split('"petId"').length - 1).toBe(1_000_000);
    // Cancelling one order rebuilds the body: one object and one comma fewer.
    const [pending] = sandbox.orderIds({ status: 'pending', limit: 1 });
    expect(
      (
        await call(sandbox, `/store/orders/${pending}`, {
          method: 'DELETE',
          key: 'demo-enterprise',
        })
      ).status,
    ).toBe(204);
    const after = await call(sandbox, '/store/orders', { key: 'demo-enterprise' });
    const afterLength = Number(after.headers.get('Content-Length'));
    expect((await after.arrayBuffer()).byteLength).toBe(afterLength);
    expect(afterLength).toBeLessThan(length);
  });
});

describe('DELETE /store/orders/{orderId}', () => {
  it('cancels a pending order: 204 without a body, and it leaves the list', async () => {
    const sandbox = await openSandbox({ orders: 30 });
    const [id] = sandbox.orderIds({ status: 'pending', limit: 1 });
    const response = await call(sandbox, `/store/orders/${id}`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(response.headers.get('Content-Type')).toBeNull();
    rateHeaders(response);
    expect(sandbox.orderStatus(id ?? '')).toBe('cancelled');
    const ids = idsInText(await (await call(sandbox, '/store/orders')).text());
    expect(ids).toHaveLength(29);
    expect(ids).not.toContain(id);
  });

  it('answers 409 for a shipped order and leaves it unchanged', async () => {
    const sandbox = await openSandbox({ orders: 30 });
    const [id] = sandbox.orderIds({ status: 'shipped', limit: 1 });
    const before = await (await call(sandbox, '/store/orders')).text();
    const response = await call(sandbox, `/store/orders/${id}`, { method: 'DELETE' });
    rateHeaders(response);
    await expectError(response, 409, 'order_already_shipped');
    expect(sandbox.orderStatus(id ?? '')).toBe('shipped');
    expect(await (await call(sandbox, '/store/orders')).text()).toBe(before);
  });

  it('answers 404 for an unknown or already cancelled order', async () => {
    const sandbox = await openSandbox({ orders: 30 });
    await expectError(
      await call(sandbox, '/store/orders/31', { method: 'DELETE' }),
      404,
      'order_not_found',
    );
    await expectError(
      await call(sandbox, '/store/orders/0', { method: 'DELETE' }),
      404,
      'order_not_found',
    );
    await expectError(
      await call(sandbox, '/store/orders/-5', { method: 'DELETE' }),
      404,
      'order_not_found',
    );
    const [id] = sandbox.orderIds({ status: 'pending', limit: 1 });
    expect((await call(sandbox, `/store/orders/${id}`, { method: 'DELETE' })).status).toBe(204);
    await expectError(
      await call(sandbox, `/store/orders/${id}`, { method: 'DELETE' }),
      404,
      'order_not_found',
    );
  });

  it.each([
    ['a word', 'abc'],
    ['a decimal', '1.5'],
    ['a leading zero', '01'],
    ['a plus sign', '%2B1'],
    ['a space', '%201'],
    ['an encoded tab', '1%09'],
    ['above int64', '9223372036854775808'],
    ['below int64', '-9223372036854775809'],
    ['broken percent-encoding', '%E0%A4%A'],
    ['an exponent', '1e3'],
  ])('answers 400 for %s', async (_name, segment) => {
    const sandbox = await openSandbox({ orders: 30 });
    const response = await call(sandbox, `/store/orders/${segment}`, { method: 'DELETE' });
    rateHeaders(response);
    await expectError(response, 400, 'invalid_order_id');
  });

  it('accepts a percent-encoded canonical id', async () => {
    const sandbox = await openSandbox({ orders: 30 });
    const [id = ''] = sandbox.orderIds({ status: 'pending', limit: 1 });
    const encoded = [...id].map((d) => `%3${d}`).join('');
    expect((await call(sandbox, `/store/orders/${encoded}`, { method: 'DELETE' })).status).toBe(
      204,
    );
  });

  it('serves a list that reflects forced statuses', async () => {
    const sandbox = await openSandbox({ orders: 10 });
    const [shipped = ''] = sandbox.orderIds({ status: 'shipped', limit: 1 });
    sandbox.setOrderStatus(shipped, 'pending');
    expect((await call(sandbox, `/store/orders/${shipped}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    sandbox.setOrderStatus(BigInt(shipped), 'shipped');
    expect(idsInText(await (await call(sandbox, '/store/orders')).text())).toContain(shipped);
    expect(() => sandbox.setOrderStatus('x', 'pending')).toThrow(RangeError);
    expect(sandbox.orderStatus('999')).toBeUndefined();
  });
});

describe('big ids', () => {
  it('writes ids above 2^53 exactly and cancels them by their exact id', async () => {
    const sandbox = await openSandbox({ orders: 40, bigIds: true });
    const text = await (await call(sandbox, '/store/orders')).text();
    const ids = idsInText(text);
    expect(ids).toHaveLength(40);
    expect(ids[0]).toBe('9007199254740993'); // 2^53 + 1: a double would read 2^53
    for (const [k, id] of ids.entries()) expect(BigInt(id)).toBe(2n ** 53n + 1n + 7n * BigInt(k));
    const petIds = [...text.matchAll(/"petId":([0-9]+)/g)].map((m) => BigInt(m[1] ?? ''));
    expect(petIds.every((petId) => petId > 2n ** 53n)).toBe(true);

    const [pending = ''] = sandbox.orderIds({ status: 'pending', limit: 1 });
    expect(ids).toContain(pending);
    // The neighbours a double would round to are other (or no) orders, never this one.
    const neighbour = (BigInt(pending) + 1n).toString();
    await expectError(
      await call(sandbox, `/store/orders/${neighbour}`, { method: 'DELETE' }),
      404,
      'order_not_found',
    );
    expect(sandbox.orderStatus(pending)).toBe('pending');
    expect((await call(sandbox, `/store/orders/${pending}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect(sandbox.orderStatus(BigInt(pending))).toBe('cancelled');
    const after = idsInText(await (await call(sandbox, '/store/orders')).text());
    expect(after).toHaveLength(39);
    expect(after).not.toContain(pending);

    const [shipped = ''] = sandbox.orderIds({ status: 'shipped', limit: 1 });
    await expectError(
      await call(sandbox, `/store/orders/${shipped}`, { method: 'DELETE' }),
      409,
      'order_already_shipped',
    );
  });
});

describe('GET /pets/{petId} (deprecated)', () => {
  const expectDeprecation = (response: Response) => {
    expect(response.headers.get('Deprecation')).toMatch(/^@[0-9]+$/);
    const sunset = response.headers.get('Sunset') ?? '';
    expect(sunset).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    const deprecatedAt = Number(response.headers.get('Deprecation')?.slice(1)) * 1000;
    expect(Date.parse(sunset)).toBeGreaterThan(deprecatedAt);
  };

  it('answers 200 {"id"} for a pet some order refers to, with Deprecation and Sunset', async () => {
    const sandbox = await openSandbox({ orders: 20, bigIds: true });
    const text = await (await call(sandbox, '/store/orders')).text();
    const petId = /"petId":([0-9]+)/.exec(text)?.[1] ?? '';
    const response = await call(sandbox, `/pets/${petId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(await response.text()).toBe(`{"id":${petId}}`);
    expectDeprecation(response);
    rateHeaders(response);
  });

  it('answers 404 for a pet no order refers to and 400 for a bad id, still deprecated', async () => {
    const sandbox = await openSandbox({ orders: 200 });
    const unreferenced = sandbox.unreferencedPetId();
    expect(unreferenced).toBeDefined();
    const missing = await call(sandbox, `/pets/${unreferenced}`);
    expectDeprecation(missing);
    await expectError(missing, 404, 'pet_not_found');
    const outOfRange = await call(sandbox, '/pets/100000');
    await expectError(outOfRange, 404, 'pet_not_found');
    const bad = await call(sandbox, '/pets/007');
    expectDeprecation(bad);
    await expectError(bad, 400, 'invalid_pet_id');
    const wrongMethod = await call(sandbox, '/pets/1', { method: 'DELETE' });
    expectDeprecation(wrongMethod);
    await expectError(wrongMethod, 405, 'method_not_allowed');
  });
});
