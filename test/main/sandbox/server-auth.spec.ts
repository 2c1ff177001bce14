import { describe, expect, it } from 'vitest';
import { call, expectError, openSandbox, rateHeaders } from './sandbox-harness.ts';

describe('bearer authentication', () => {
  it.each([
    ['a missing header', {}],
    ['an empty header', { Authorization: '' }],
    ['another scheme', { Authorization: 'Basic ZGVtbzpkZW1v' }],
    ['a bare "Bearer"', { Authorization: 'Bearer' }],
    ['two tokens', { Authorization: 'Bearer demo-free extra' }],
    ['a token with bad characters', { Authorization: 'Bearer demo"free' }],
    ['an unknown key', { Authorization: 'Bearer not-a-key' }],
    ['a key in the wrong case', { Authorization: 'Bearer DEMO-FREE' }],
  ])('answers 401 with an Error body for %s', async (_name, headers) => {
    const sandbox = await openSandbox({ orders: 5 });
    const response = await call(sandbox, '/store/orders', { key: null, headers });
    expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer realm="store"/);
    expect(rateHeaders(response).limit).toBe(60);
    await expectError(response, 401, 'unauthorized');
  });

  it('checks the key on every operation, before routing', async () => {
    const sandbox = await openSandbox({ orders: 5 });
    const [id] = sandbox.orderIds({ status: 'pending', limit: 1 });
    for (const [method, path] of [
      ['DELETE', `/store/orders/${id}`],
      ['GET', '/pets/1'],
      ['GET', '/no/such/path'],
      ['PUT', '/store/orders'],
      ['GET', ''],
    ] as const) {
      await expectError(await call(sandbox, path, { method, key: 'wrong' }), 401, 'unauthorized');
    }
    expect(sandbox.orderStatus(id ?? '')).toBe('pending');
  });

  it('takes the scheme name in any case', async () => {
    const sandbox = await openSandbox({ orders: 5 });
    const response = await call(sandbox, '/store/orders', {
      key: null,
      headers: { Authorization: 'bearer demo-pro' },
    });
    expect(response.status).toBe(200);
    expect(rateHeaders(response).limit).toBe(300);
  });

  it('accepts one demo key per plan by default, each with its plan limit', async () => {
    const sandbox = await openSandbox({ orders: 5 });
    expect(sandbox.keys).toEqual([
      { plan: 'free', key: 'demo-free' },
      { plan: 'pro', key: 'demo-pro' },
      { plan: 'business', key: 'demo-business' },
      { plan: 'enterprise', key: 'demo-enterprise' },
    ]);
    const limits: Record<string, number> = {};
    for (const { plan, key } of sandbox.keys) {
      const response = await call(sandbox, '/store/orders', { key });
      expect(response.status).toBe(200);
      limits[plan] = rateHeaders(response).limit;
    }
    expect(limits).toEqual({ free: 60, pro: 300, business: 1000, enterprise: 5000 });
  });

  it('accepts exactly the configured keys when given, with custom Enterprise limits', async () => {
    const sandbox = await openSandbox({
      orders: 5,
      keys: [
        { plan: 'pro', key: 'sk_test_pro' },
        { plan: 'enterprise', key: 'sk_test_ent' },
      ],
      enterpriseLimits: { perMinute: 2500, perDay: 50_000 },
    });
    expect(sandbox.keys.map((k) => k.key)).toEqual(['sk_test_pro', 'sk_test_ent']);
    await expectError(
      await call(sandbox, '/store/orders', { key: 'demo-free' }),
      401,
      'unauthorized',
    );
    const pro = await call(sandbox, '/store/orders', { key: 'sk_test_pro' });
    expect(pro.status).toBe(200);
    expect(rateHeaders(pro).limit).toBe(300);
    const enterprise = await call(sandbox, '/store/orders', { key: 'sk_test_ent' });
    expect(rateHeaders(enterprise)).toMatchObject({ limit: 2500, remaining: 2499 });
  });

  it('refuses unusable key configurations', async () => {
    await expect(openSandbox({ keys: [] })).rejects.toThrow(/at least one key/);
    await expect(openSandbox({ keys: [{ plan: 'free', key: 'has space' }] })).rejects.toThrow(
      /bearer token/,
    );
    await expect(
      openSandbox({
        keys: [
          { plan: 'free', key: 'same' },
          { plan: 'pro', key: 'same' },
        ],
      }),
    ).rejects.toThrow(/twice/);
  });

  it('limits requests without a valid key in one anonymous Free bucket per address', async () => {
    // A fixed clock: the 61 requests must fall in one window even when the
    // test runs across the turn of a minute.
    const sandbox = await openSandbox({ orders: 5, now: () => Date.UTC(2026, 0, 5, 9, 0, 30) });
    let last: Response | undefined;
    for (let i = 1; i <= 60; i++) {
      last = await call(sandbox, '/store/orders', { key: `guess-${i}` });
      expect(last.status).toBe(401);
      expect(rateHeaders(last)).toMatchObject({ limit: 60, remaining: 60 - i });
    }
    const limited = await call(sandbox, '/store/orders', { key: null });
    expect(limited.headers.get('Retry-After')).toMatch(/^[0-9]+$/);
    await expectError(limited, 429, 'rate_limited');
    // A valid key has its own bucket.
    const keyed = await call(sandbox, '/store/orders', { key: 'demo-free' });
    expect(keyed.status).toBe(200);
    expect(rateHeaders(keyed).remaining).toBe(59);
    expect(sandbox.requestLog.at(-1)?.plan).toBe('free');
    expect(sandbox.requestLog.at(-2)?.plan).toBeUndefined();
  });
});
