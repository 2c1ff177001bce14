import { describe, expect, it } from 'vitest';
import { call, expectError, manualClock, openSandbox, rateHeaders } from './sandbox-harness.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
// A day boundary (and so a minute boundary): both windows start here.
const T0 = 20_500 * DAY;
const seconds = (ms: number) => String(Math.ceil(ms / 1000));

async function burst(
  sandbox: Awaited<ReturnType<typeof openSandbox>>,
  key: string,
  n: number,
): Promise<Response[]> {
  const responses: Response[] = [];
  for (let i = 0; i < n; i++) {
    const response = await call(sandbox, '/store/orders', { key });
    await response.arrayBuffer();
    responses.push(response);
  }
  return responses;
}

describe('per-key rate limits', () => {
  it('gives a Free key exactly 60 requests a minute, then 429 with Retry-After, then a fresh window', async () => {
    const clock = manualClock(T0 + 15_000);
    const sandbox = await openSandbox({ orders: 3, now: clock.now });
    const allowed = await burst(sandbox, 'demo-free', 60);
    allowed.forEach((response, i) => {
      expect(response.status).toBe(200);
      expect(rateHeaders(response)).toEqual({
        limit: 60,
        remaining: 59 - i,
        reset: Number(seconds(T0 + MINUTE)),
      });
    });
    const limited = await call(sandbox, '/store/orders', { key: 'demo-free' });
    expect(limited.headers.get('Retry-After')).toBe('45');
    expect(rateHeaders(limited)).toEqual({
      limit: 60,
      remaining: 0,
      reset: Number(seconds(T0 + MINUTE)),
    });
    expect(limited.headers.get('Date')).toBe(new Date(T0 + 15_000).toUTCString());
    const message = await expectError(limited, 429, 'rate_limited');
    expect(message).toMatch(/Rate limit exceeded/);

    clock.set(T0 + MINUTE);
    const fresh = await call(sandbox, '/store/orders', { key: 'demo-free' });
    expect(fresh.status).toBe(200);
    expect(rateHeaders(fresh)).toMatchObject({
      remaining: 59,
      reset: Number(seconds(T0 + 2 * MINUTE)),
    });
  });

  it('gives a Pro key exactly 300, and keeps keys apart', async () => {
    const clock = manualClock(T0);
    const sandbox = await openSandbox({ orders: 1, now: clock.now });
    const pro = await burst(sandbox, 'demo-pro', 300);
    expect(pro.every((r) => r.status === 200)).toBe(true);
    expect(rateHeaders(pro[299] as Response)).toMatchObject({ limit: 300, remaining: 0 });
    const over = await call(sandbox, '/store/orders', { key: 'demo-pro' });
    await expectError(over, 429, 'rate_limited');
    const business = await call(sandbox, '/store/orders', { key: 'demo-business' });
    expect(business.status).toBe(200);
    expect(rateHeaders(business)).toMatchObject({ limit: 1000, remaining: 999 });
  });

  it('does not count requests answered 429', async () => {
    const clock = manualClock(T0);
    const sandbox = await openSandbox({
      orders: 1,
      now: clock.now,
      banAfter: 1000,
      keys: [{ plan: 'enterprise', key: 'ent' }],
      enterpriseLimits: { perMinute: 5, perDay: 7 },
    });
    const statuses = async (n: number) => (await burst(sandbox, 'ent', n)).map((r) => r.status);
    expect(await statuses(8)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    clock.set(T0 + MINUTE);
    // 5 used today, not 8: two more before the day is spent.
    expect(await statuses(3)).toEqual([200, 200, 429]);
  });

  it('enforces the day limit over many minutes and resets with the day', async () => {
    const clock = manualClock(T0);
    const sandbox = await openSandbox({
      orders: 1,
      now: clock.now,
      dayMs: 10 * MINUTE,
      keys: [{ plan: 'enterprise', key: 'ent' }],
      enterpriseLimits: { perMinute: 5, perDay: 12 },
    });
    const day: number[] = [];
    for (let minute = 0; minute < 3; minute++) {
      clock.set(T0 + minute * MINUTE + 1000);
      for (const response of await burst(sandbox, 'ent', 5)) day.push(response.status);
    }
    // 5 + 5 + 2 allowed, then the day is spent although the minute is not.
    expect(day).toEqual([...Array<number>(12).fill(200), 429, 429, 429]);
    clock.set(T0 + 4 * MINUTE);
    const spent = await call(sandbox, '/store/orders', { key: 'ent' });
    expect(spent.status).toBe(429);
    expect(spent.headers.get('Retry-After')).toBe(String(6 * 60));
    expect(rateHeaders(spent)).toEqual({
      limit: 5,
      remaining: 0,
      reset: Number(seconds(T0 + 10 * MINUTE)),
    });
    clock.set(T0 + 10 * MINUTE);
    expect(rateHeaders(await call(sandbox, '/store/orders', { key: 'ent' }))).toMatchObject({
      remaining: 4,
    });
  });

  it('enforces the Free day limit of 1,000', async () => {
    const clock = manualClock(T0);
    const sandbox = await openSandbox({ orders: 0, now: clock.now, banAfter: 1000 });
    let allowed = 0;
    let first429: Response | undefined;
    for (let minute = 0; minute < 17 && !first429; minute++) {
      clock.set(T0 + minute * MINUTE);
      for (const response of await burst(sandbox, 'demo-free', 60)) {
        if (response.status === 200) allowed++;
        else {
          first429 = response;
          break;
        }
      }
    }
    expect(allowed).toBe(1000);
    expect(clock.now()).toBe(T0 + 16 * MINUTE);
    expect(first429?.headers.get('Retry-After')).toBe(String((DAY - 16 * MINUTE) / 1000));
    expect(rateHeaders(first429 as Response).reset).toBe((T0 + DAY) / 1000);
  });

  it('reports the remaining of whichever window is tighter', async () => {
    const clock = manualClock(T0);
    const sandbox = await openSandbox({
      orders: 0,
      now: clock.now,
      keys: [{ plan: 'enterprise', key: 'ent' }],
      enterpriseLimits: { perMinute: 10, perDay: 12 },
    });
    await burst(sandbox, 'ent', 5);
    clock.set(T0 + MINUTE);
    // Minute: 9 left; day: 6 left, resetting at the day's end.
    expect(rateHeaders(await call(sandbox, '/store/orders', { key: 'ent' }))).toEqual({
      limit: 10,
      remaining: 6,
      reset: T0 / 1000 + DAY / 1000,
    });
  });

  it('sends Retry-After as an HTTP date when asked', async () => {
    const clock = manualClock(T0 + 20_500);
    const sandbox = await openSandbox({ orders: 0, now: clock.now, retryAfterFormat: 'http-date' });
    await burst(sandbox, 'demo-free', 60);
    const limited = await call(sandbox, '/store/orders', { key: 'demo-free' });
    expect(limited.status).toBe(429);
    const retryAfter = limited.headers.get('Retry-After') ?? '';
    expect(retryAfter).toBe(new Date(T0 + MINUTE).toUTCString());
    expect(retryAfter).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    // Retry-After minus Date is the wait, as a client would compute it.
    const date = Date.parse(limited.headers.get('Date') ?? '');
    expect(Date.parse(retryAfter) - date).toBe(40_000);
  });

  it('rounds delay-seconds up so a client never retries early', async () => {
    const clock = manualClock(T0 + MINUTE - 300);
    const sandbox = await openSandbox({ orders: 0, now: clock.now, minuteMs: MINUTE });
    await burst(sandbox, 'demo-free', 60);
    const limited = await call(sandbox, '/store/orders', { key: 'demo-free' });
    expect(limited.headers.get('Retry-After')).toBe('1');
  });

  it('keeps its windows on the wall clock when no clock is given', async () => {
    // Exact counts and resets are checked above on an injected clock; this checks
    // only that the default clock is the wall clock, so it holds however slow the machine.
    const sandbox = await openSandbox({ orders: 0 });
    const before = Date.now();
    const response = await call(sandbox, '/store/orders', { key: 'demo-free' });
    const after = Date.now();
    expect(response.status).toBe(200);
    const date = Date.parse(response.headers.get('Date') ?? '');
    expect(date).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(date).toBeLessThanOrEqual(after);
    // The end of the wall-clock minute the request arrived in.
    const reset = rateHeaders(response).reset * 1000;
    expect(reset % MINUTE).toBe(0);
    expect(reset).toBeGreaterThan(before);
    expect(reset).toBeLessThanOrEqual(after + MINUTE);
    expect(rateHeaders(response).remaining).toBe(59);
  });
});

describe('temporary ban', () => {
  it('bans a key that keeps sending while limited, with 429 api_key_banned until the ban ends', async () => {
    const clock = manualClock(T0);
    const sandbox = await openSandbox({
      orders: 0,
      now: clock.now,
      banAfter: 3,
      banMs: 5 * MINUTE,
    });
    await burst(sandbox, 'demo-free', 60);
    clock.advance(1000);
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await call(sandbox, '/store/orders', { key: 'demo-free' });
      codes.push(((await response.json()) as { code: string }).code);
    }
    // The first 429, then strikes 1 and 2, then strike 3 bans.
    expect(codes).toEqual(['rate_limited', 'rate_limited', 'rate_limited', 'api_key_banned']);

    clock.advance(2 * MINUTE);
    const banned = await call(sandbox, '/store/orders', { key: 'demo-free' });
    const banEnd = T0 + 1000 + 5 * MINUTE;
    expect(banned.headers.get('Retry-After')).toBe(String((banEnd - clock.now()) / 1000));
    expect(rateHeaders(banned)).toEqual({ limit: 60, remaining: 0, reset: banEnd / 1000 });
    const message = await expectError(banned, 429, 'api_key_banned');
    expect(message).toMatch(/temporarily banned/);
    expect(message).toMatch(/repeated requests after 429/);

    // Other keys are untouched, and the ban does not grow while it lasts.
    expect((await call(sandbox, '/store/orders', { key: 'demo-pro' })).status).toBe(200);
    clock.set(banEnd - 1);
    expect((await call(sandbox, '/store/orders', { key: 'demo-free' })).status).toBe(429);
    clock.set(banEnd);
    const back = await call(sandbox, '/store/orders', { key: 'demo-free' });
    expect(back.status).toBe(200);
    expect(rateHeaders(back).remaining).toBe(59);
  });

  it('bans after 5 strikes for 15 minute windows by default, in HTTP-date form when asked', async () => {
    const clock = manualClock(T0);
    const sandbox = await openSandbox({ orders: 0, now: clock.now, retryAfterFormat: 'http-date' });
    await burst(sandbox, 'demo-free', 60);
    // The first 429 and strikes 1 to 4 are rate_limited; strike 5 bans.
    const limited = await burst(sandbox, 'demo-free', 5);
    expect(limited.map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
    const last = await call(sandbox, '/store/orders', { key: 'demo-free' });
    expect(last.headers.get('Retry-After')).toBe(new Date(T0 + 15 * MINUTE).toUTCString());
    await expectError(last, 429, 'api_key_banned');
  });

  it('forgets strikes when the limited period ends', async () => {
    const clock = manualClock(T0);
    const sandbox = await openSandbox({ orders: 0, now: clock.now, banAfter: 2 });
    await burst(sandbox, 'demo-free', 61); // 60 + the 429
    await burst(sandbox, 'demo-free', 1); // strike 1
    clock.set(T0 + MINUTE); // a well-behaved wait
    await burst(sandbox, 'demo-free', 61);
    const next = await call(sandbox, '/store/orders', { key: 'demo-free' }); // strike 1 again, not 2
    await expectError(next, 429, 'rate_limited');
    await expectError(
      await call(sandbox, '/store/orders', { key: 'demo-free' }),
      429,
      'api_key_banned',
    );
  });

  it('bans an address that keeps sending without a valid key', async () => {
    const clock = manualClock(T0);
    const sandbox = await openSandbox({ orders: 0, now: clock.now, banAfter: 1 });
    await burst(sandbox, 'nobody', 61);
    await expectError(
      await call(sandbox, '/store/orders', { key: 'nobody' }),
      429,
      'address_banned',
    );
    expect((await call(sandbox, '/store/orders', { key: 'demo-free' })).status).toBe(200);
  });
});
