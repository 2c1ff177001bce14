import { describe, expect, it } from 'vitest';
import { PLANS } from '../../../src/shared/plans.ts';
import {
  formatRetryAfter,
  rateLimitHeaders,
  RateLimiter,
} from '../../../src/main/sandbox/rate-limiter.ts';
import { manualClock } from './sandbox-harness.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
// A day boundary, so both windows start here.
const T0 = 20_000 * DAY;

function limiter(
  clock: { now: () => number },
  overrides: { banAfter?: number; banMs?: number; dayMs?: number } = {},
) {
  return new RateLimiter({
    now: clock.now,
    minuteMs: MINUTE,
    dayMs: overrides.dayMs ?? DAY,
    banAfter: overrides.banAfter ?? 5,
    banMs: overrides.banMs ?? 15 * MINUTE,
  });
}

describe('RateLimiter', () => {
  it('allows exactly the per-minute limit, then limits until the window ends', () => {
    const clock = manualClock(T0 + 1000);
    const limits = limiter(clock);
    for (let i = 1; i <= 60; i++) {
      const d = limits.take('k', PLANS.free);
      expect(d).toEqual({ outcome: 'allowed', limit: 60, remaining: 60 - i, resetAt: T0 + MINUTE });
    }
    expect(limits.take('k', PLANS.free)).toEqual({
      outcome: 'limited',
      limit: 60,
      remaining: 0,
      resetAt: T0 + MINUTE,
      retryAt: T0 + MINUTE,
    });
    clock.set(T0 + MINUTE);
    expect(limits.take('k', PLANS.free)).toMatchObject({ outcome: 'allowed', remaining: 59 });
  });

  it('keeps buckets apart and uses each plan', () => {
    const clock = manualClock(T0);
    const limits = limiter(clock);
    for (let i = 0; i < 60; i++) limits.take('a', PLANS.free);
    expect(limits.take('a', PLANS.free).outcome).toBe('limited');
    expect(limits.take('b', PLANS.pro)).toMatchObject({
      outcome: 'allowed',
      limit: 300,
      remaining: 299,
    });
  });

  it('does not count limited requests', () => {
    const clock = manualClock(T0);
    const limits = limiter(clock, { banAfter: 1000 });
    const tight = { perMinute: 5, perDay: 7 };
    for (let i = 0; i < 5; i++) limits.take('k', tight);
    for (let i = 0; i < 30; i++) expect(limits.take('k', tight).outcome).toBe('limited');
    clock.advance(MINUTE);
    // 5 used in the day, not 35 (nor 6).
    expect(limits.peek('k', tight)).toMatchObject({ outcome: 'allowed', remaining: 2 });
    expect(limits.take('k', tight)).toMatchObject({ outcome: 'allowed', remaining: 1 });
    expect(limits.take('k', tight)).toMatchObject({ outcome: 'allowed', remaining: 0 });
    expect(limits.take('k', tight).outcome).toBe('limited');
  });

  it('applies the day limit and names the day window as binding', () => {
    const clock = manualClock(T0);
    // A short day of ten minute windows: 1000 requests/day, 60/minute.
    const limits = limiter(clock, { dayMs: 10 * MINUTE, banAfter: 1000 });
    let last;
    for (let minute = 0; minute < 10 && last?.outcome !== 'limited'; minute++) {
      clock.set(T0 + minute * MINUTE);
      for (let i = 0; i < 60; i++) {
        last = limits.take('k', { perMinute: 60, perDay: 130 });
        if (last.outcome === 'limited') break;
      }
    }
    // Minutes 0 and 1 give 120; minute 2 gives 10 more, then the day is spent.
    expect(clock.now()).toBe(T0 + 2 * MINUTE);
    expect(last).toEqual({
      outcome: 'limited',
      limit: 60,
      remaining: 0,
      resetAt: T0 + 10 * MINUTE,
      retryAt: T0 + 10 * MINUTE,
    });
    clock.set(T0 + 3 * MINUTE);
    expect(limits.take('k', { perMinute: 60, perDay: 130 }).outcome).toBe('limited');
    clock.set(T0 + 10 * MINUTE);
    expect(limits.take('k', { perMinute: 60, perDay: 130 })).toMatchObject({ outcome: 'allowed' });
  });

  it('reports min(minute, day) remaining and the binding window reset', () => {
    const clock = manualClock(T0);
    const limits = limiter(clock);
    const tight = { perMinute: 60, perDay: 61 };
    limits.take('k', tight);
    // Minute: 58 left, day: 59 left, so the minute binds.
    expect(limits.take('k', tight)).toMatchObject({ remaining: 58, resetAt: T0 + MINUTE });
    clock.advance(MINUTE);
    // Minute: 59 left, day: 58 left, so the day binds.
    expect(limits.take('k', tight)).toMatchObject({ remaining: 58, resetAt: T0 + DAY });
    // On a tie nothing is left until both have reset: the later, the day.
    const tie = limiter(manualClock(T0));
    expect(tie.take('x', { perMinute: 10, perDay: 10 })).toMatchObject({
      remaining: 9,
      resetAt: T0 + DAY,
    });
  });

  it('bans after banAfter strikes while limited, and the ban ends', () => {
    const clock = manualClock(T0);
    const limits = limiter(clock, { banAfter: 3, banMs: 5 * MINUTE });
    for (let i = 0; i < 60; i++) limits.take('k', PLANS.free);
    expect(limits.take('k', PLANS.free).outcome).toBe('limited'); // the 429 itself
    expect(limits.take('k', PLANS.free).outcome).toBe('limited'); // strike 1
    expect(limits.take('k', PLANS.free).outcome).toBe('limited'); // strike 2
    clock.advance(10);
    expect(limits.take('k', PLANS.free)).toEqual({
      outcome: 'banned',
      limit: 60,
      remaining: 0,
      resetAt: T0 + 10 + 5 * MINUTE,
      retryAt: T0 + 10 + 5 * MINUTE,
    });
    clock.advance(2 * MINUTE);
    expect(limits.take('k', PLANS.free)).toMatchObject({
      outcome: 'banned',
      retryAt: T0 + 10 + 5 * MINUTE,
    });
    expect(limits.take('other', PLANS.free).outcome).toBe('allowed');
    clock.set(T0 + 10 + 5 * MINUTE);
    expect(limits.take('k', PLANS.free)).toMatchObject({ outcome: 'allowed', remaining: 59 });
  });

  it('resets strikes when the limited period ends', () => {
    const clock = manualClock(T0);
    const limits = limiter(clock, { banAfter: 3 });
    for (let i = 0; i < 60; i++) limits.take('k', PLANS.free);
    limits.take('k', PLANS.free); // 429
    limits.take('k', PLANS.free); // strike 1
    limits.take('k', PLANS.free); // strike 2
    clock.advance(MINUTE);
    for (let i = 0; i < 60; i++) limits.take('k', PLANS.free);
    limits.take('k', PLANS.free); // 429, strikes start over
    expect(limits.take('k', PLANS.free).outcome).toBe('limited'); // strike 1
    expect(limits.take('k', PLANS.free).outcome).toBe('limited'); // strike 2
    expect(limits.take('k', PLANS.free).outcome).toBe('banned'); // strike 3
  });

  it('counts nothing and strikes nothing on peek', () => {
    const clock = manualClock(T0);
    const limits = limiter(clock, { banAfter: 1 });
    for (let i = 0; i < 10; i++) expect(limits.peek('k', PLANS.free).remaining).toBe(60);
    for (let i = 0; i < 60; i++) limits.take('k', PLANS.free);
    limits.take('k', PLANS.free);
    for (let i = 0; i < 5; i++) expect(limits.peek('k', PLANS.free).outcome).toBe('limited');
    expect(limits.take('k', PLANS.free).outcome).toBe('banned');
  });

  it('rejects nonsense settings', () => {
    const now = () => 0;
    expect(() => new RateLimiter({ now, minuteMs: 0, dayMs: 1, banAfter: 1, banMs: 1 })).toThrow(
      /minuteMs/,
    );
    expect(() => new RateLimiter({ now, minuteMs: 1, dayMs: 1, banAfter: 0, banMs: 1 })).toThrow(
      /banAfter/,
    );
  });
});

describe('rateLimitHeaders and formatRetryAfter', () => {
  it('writes Reset in Unix seconds, rounded up', () => {
    expect(
      rateLimitHeaders({
        outcome: 'allowed',
        limit: 300,
        remaining: 7,
        resetAt: 1_700_000_000_001,
      }),
    ).toEqual({
      'X-RateLimit-Limit': '300',
      'X-RateLimit-Remaining': '7',
      'X-RateLimit-Reset': '1700000001',
    });
  });

  it('writes delay-seconds rounded up and never 0, or an IMF-fixdate rounded up', () => {
    expect(formatRetryAfter(10_001, 0, 'seconds')).toBe('11');
    expect(formatRetryAfter(300, 0, 'seconds')).toBe('1');
    expect(formatRetryAfter(60_000, 0, 'seconds')).toBe('60');
    expect(formatRetryAfter(Date.UTC(2030, 0, 1, 0, 0, 0, 1), 0, 'http-date')).toBe(
      'Tue, 01 Jan 2030 00:00:01 GMT',
    );
  });
});
