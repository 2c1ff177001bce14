import { describe, expect, it } from 'vitest';
import { parseHttpDate } from '../../../src/main/store-api/http-date.ts';
import { readRateLimitHeaders } from '../../../src/main/quota/rate-limit-headers.ts';
import { parseRetryAfter } from '../../../src/main/quota/retry-after.ts';

const now = Date.UTC(2026, 10, 22, 12, 0, 0); // Sun, 22 Nov 2026 12:00:00 GMT

describe('parseHttpDate', () => {
  it('reads the three forms RFC 9110 requires', () => {
    const expected = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT', now)).toBe(expected);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(expected);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994', now)).toBe(expected);
  });

  it('reads a two-digit year within 50 years as this century', () => {
    expect(parseHttpDate('Monday, 23-Nov-26 12:00:00 GMT', now)).toBe(
      Date.UTC(2026, 10, 23, 12, 0, 0),
    );
  });

  it('reads years 0000 to 0099 as those years, not the 1900s', () => {
    const expected = new Date(0);
    expected.setUTCFullYear(50, 10, 6);
    expected.setUTCHours(8, 49, 37, 0);
    expect(parseHttpDate('Sat, 06 Nov 0050 08:49:37 GMT', now)).toBe(expected.getTime());
    expect(parseHttpDate('Sat Nov  6 08:49:37 0050', now)).toBe(expected.getTime());
    expect(new Date(parseHttpDate('Sat, 01 Jan 0000 00:00:00 GMT', now)!).getUTCFullYear()).toBe(0);
    // A date that long past asks for no wait at all.
    expect(parseRetryAfter('Sat, 06 Nov 0050 08:49:37 GMT', { now })).toBe(now);
  });

  it('rejects impossible and malformed dates', () => {
    expect(parseHttpDate('Sun, 31 Feb 2026 08:49:37 GMT', now)).toBeUndefined();
    expect(parseHttpDate('Sun, 06 Nov 1994 25:49:37 GMT', now)).toBeUndefined();
    expect(parseHttpDate('2026-11-22T12:00:00Z', now)).toBeUndefined();
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 CET', now)).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds from now', () => {
    expect(parseRetryAfter('120', { now })).toBe(now + 120_000);
    expect(parseRetryAfter(' 0 ', { now })).toBe(now);
    expect(parseRetryAfter('1.5', { now })).toBe(now + 1500);
  });

  it('reads each HTTP-date form, corrected by the Date header', () => {
    // The server's clock is 5 minutes ahead of ours; it says "retry in 30 s" by its clock.
    const dateHeader = 'Sun, 22 Nov 2026 12:05:00 GMT';
    const forms = [
      'Sun, 22 Nov 2026 12:05:30 GMT',
      'Sunday, 22-Nov-26 12:05:30 GMT',
      'Sun Nov 22 12:05:30 2026',
    ];
    for (const form of forms) {
      expect(parseRetryAfter(form, { now, dateHeader })).toBe(now + 30_000);
    }
  });

  it('reads an HTTP-date without a Date header as our clock', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 12:01:00 GMT', { now })).toBe(now + 60_000);
  });

  it('reads a huge number as a Unix time, in seconds or milliseconds', () => {
    expect(parseRetryAfter(String(now / 1000 + 45), { now })).toBe(now + 45_000);
    expect(parseRetryAfter(String(now + 45_000), { now })).toBe(now + 45_000);
  });

  it('never returns a time in the past', () => {
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', { now })).toBe(now);
  });

  it('does not believe a wait longer than a day: it is garbage, not a wish', () => {
    for (const huge of ['99999999999999999999999', '999999999', '86401', String(1e21)]) {
      expect(parseRetryAfter(huge, { now })).toBeUndefined();
    }
    expect(parseRetryAfter('Sun, 22 Nov 2126 12:00:00 GMT', { now })).toBeUndefined();
    expect(parseRetryAfter('86400', { now })).toBe(now + 86_400_000);
    // Up to the day window's reset, when that is later (and itself within a day or so).
    expect(parseRetryAfter('87000', { now, latest: now + 87_000_000 })).toBe(now + 87_000_000);
  });

  it('gives up on garbage so the caller can fall back', () => {
    for (const garbage of ['soon', '-5', '1e3', '', '   ', 'NaN', '12 seconds', '0x10']) {
      expect(parseRetryAfter(garbage, { now })).toBeUndefined();
    }
    expect(parseRetryAfter(null, { now })).toBeUndefined();
  });
});

describe('readRateLimitHeaders', () => {
  it('reads the three headers, Reset as Unix seconds', () => {
    const headers = new Headers({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
      'x-ratelimit-reset': String(now / 1000 + 30),
    });
    expect(readRateLimitHeaders(headers, { now })).toEqual({
      limit: 60,
      remaining: 59,
      resetAt: now + 30_000,
    });
  });

  it('drops garbage fields instead of guessing', () => {
    const headers = new Headers({
      'x-ratelimit-limit': 'lots',
      'x-ratelimit-remaining': '-1',
      'x-ratelimit-reset': '',
    });
    expect(readRateLimitHeaders(headers, { now })).toEqual({});
  });

  it('drops a reset further away than a day', () => {
    for (const reset of ['99999999999', String(now / 1000 + 2 * 86_400), '999999999']) {
      const headers = new Headers({ 'x-ratelimit-reset': reset, 'x-ratelimit-limit': '60' });
      expect(readRateLimitHeaders(headers, { now })).toEqual({ limit: 60 });
    }
  });

  it('never reports more remaining than the limit', () => {
    const headers = new Headers({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '600' });
    expect(readRateLimitHeaders(headers, { now }).remaining).toBe(60);
  });
});
