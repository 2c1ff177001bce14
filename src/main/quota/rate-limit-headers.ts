import { isSaneResetTime, readTimeNumber, type ServerTimeContext } from './retry-after.ts';

export interface RateLimitReading {
  readonly limit?: number;
  readonly remaining?: number;
  /** Epoch ms, our clock. */
  readonly resetAt?: number;
}

function nonNegativeInteger(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+\s*$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Reads X-RateLimit-Limit, -Remaining and -Reset. Each is kept only if it is a
 * sane non-negative integer; garbage is dropped, never guessed at. Reset is a
 * Unix time in seconds per the interface; a small number is read as seconds
 * from now and a millisecond time as such, since servers get this wrong. A
 * reset more than a day away is garbage: believed, it would hold every
 * request back until then.
 */
export function readRateLimitHeaders(
  headers: Headers,
  context: ServerTimeContext,
): RateLimitReading {
  const limit = nonNegativeInteger(headers.get('x-ratelimit-limit'));
  const remaining = nonNegativeInteger(headers.get('x-ratelimit-remaining'));
  const reset = nonNegativeInteger(headers.get('x-ratelimit-reset'));
  const resetAt = reset === undefined ? undefined : readTimeNumber(reset, context);
  return {
    ...(limit !== undefined ? { limit } : {}),
    ...(remaining !== undefined
      ? { remaining: limit !== undefined ? Math.min(remaining, limit) : remaining }
      : {}),
    ...(resetAt !== undefined && isSaneResetTime(resetAt, context.now) ? { resetAt } : {}),
  };
}
