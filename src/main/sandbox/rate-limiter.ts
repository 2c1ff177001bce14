// Per-key request limits as the interface's plan table sets them, with the
// temporary ban it warns about for clients that keep sending after a 429.
//
// Windows: two fixed windows per bucket, aligned to the clock (a minute window
// is [floor(now / minuteMs) * minuteMs, +minuteMs), the day window likewise), so
// every key's windows reset at the same moments and X-RateLimit-Reset is the
// same instant a client can compute. A request answered 429 consumes nothing.
//
// Headers (on every response):
// - X-RateLimit-Limit: the per-minute limit, always, so a client can infer its plan.
// - X-RateLimit-Remaining: min(minute remaining, day remaining).
// - X-RateLimit-Reset: Unix seconds (rounded up) when the binding window resets;
//   the binding window is the one with fewer requests left (on a tie the later
//   one, since nothing is left until both have reset). While limited or banned it
//   is the moment the Retry-After header names.
//
// Ban: once a bucket has been answered 429, every further request before that
// 429's Retry-After moment is a strike; at `banAfter` strikes the bucket is banned
// for `banMs`. Strikes reset when the limited period ends. A banned key still gets
// 429 (not 401 or 403): the key is valid and a client must not discard it, and
// Retry-After tells a well-behaved client exactly how long to wait.

import type { PlanLimits } from '../../shared/plans.ts';

export interface RateLimiterOptions {
  readonly now: () => number;
  readonly minuteMs: number;
  readonly dayMs: number;
  /** Strikes (requests sent while limited) that get a key banned. */
  readonly banAfter: number;
  readonly banMs: number;
}

export type RateOutcome = 'allowed' | 'limited' | 'banned';

export interface RateDecision {
  readonly outcome: RateOutcome;
  /** The per-minute limit (X-RateLimit-Limit). */
  readonly limit: number;
  /** Requests left after this one (X-RateLimit-Remaining). */
  readonly remaining: number;
  /** Epoch ms when the binding window (or the ban) ends (X-RateLimit-Reset). */
  readonly resetAt: number;
  /** Epoch ms before which the client should not retry; set when not allowed. */
  readonly retryAt?: number;
}

interface Bucket {
  minuteStart: number;
  minuteCount: number;
  dayStart: number;
  dayCount: number;
  /** The Retry-After moment of the latest 429 (0 when not limited). */
  limitedUntil: number;
  strikes: number;
  bannedUntil: number;
}

export class RateLimiter {
  readonly #options: RateLimiterOptions;
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: RateLimiterOptions) {
    for (const name of ['minuteMs', 'dayMs', 'banMs'] as const) {
      if (!(options[name] > 0)) throw new RangeError(`${name} must be positive`);
    }
    if (!Number.isInteger(options.banAfter) || options.banAfter < 1) {
      throw new RangeError('banAfter must be a positive integer');
    }
    this.#options = options;
  }

  /** Decide on one request of a bucket, counting it when it is allowed. */
  take(bucketId: string, limits: PlanLimits): RateDecision {
    return this.#decide(bucketId, limits, true);
  }

  /** The bucket's current state as headers would show it, counting nothing. */
  peek(bucketId: string, limits: PlanLimits): RateDecision {
    return this.#decide(bucketId, limits, false);
  }

  #decide(bucketId: string, limits: PlanLimits, counting: boolean): RateDecision {
    const now = this.#options.now();
    const bucket = this.#bucket(bucketId, now);
    const limit = limits.perMinute;

    if (bucket.bannedUntil > now) {
      return {
        outcome: 'banned',
        limit,
        remaining: 0,
        resetAt: bucket.bannedUntil,
        retryAt: bucket.bannedUntil,
      };
    }
    if (bucket.bannedUntil !== 0) {
      bucket.bannedUntil = 0;
      bucket.limitedUntil = 0;
      bucket.strikes = 0;
    }

    if (bucket.limitedUntil > now) {
      const retryAt = bucket.limitedUntil;
      if (counting && ++bucket.strikes >= this.#options.banAfter) {
        bucket.bannedUntil = now + this.#options.banMs;
        return {
          outcome: 'banned',
          limit,
          remaining: 0,
          resetAt: bucket.bannedUntil,
          retryAt: bucket.bannedUntil,
        };
      }
      return { outcome: 'limited', limit, remaining: 0, resetAt: retryAt, retryAt };
    }
    bucket.limitedUntil = 0;
    bucket.strikes = 0;

    const minuteEnd = bucket.minuteStart + this.#options.minuteMs;
    const dayEnd = bucket.dayStart + this.#options.dayMs;
    const minuteLeft = limits.perMinute - bucket.minuteCount;
    const dayLeft = limits.perDay - bucket.dayCount;
    if (minuteLeft <= 0 || dayLeft <= 0) {
      // Wait for every exhausted window: the day's end when the day is spent.
      const retryAt = dayLeft <= 0 ? Math.max(dayEnd, minuteEnd) : minuteEnd;
      if (counting) bucket.limitedUntil = retryAt;
      return { outcome: 'limited', limit, remaining: 0, resetAt: retryAt, retryAt };
    }

    const used = counting ? 1 : 0;
    if (counting) {
      bucket.minuteCount++;
      bucket.dayCount++;
    }
    const minuteRemaining = minuteLeft - used;
    const dayRemaining = dayLeft - used;
    return {
      outcome: 'allowed',
      limit,
      remaining: Math.min(minuteRemaining, dayRemaining),
      resetAt: dayRemaining <= minuteRemaining ? dayEnd : minuteEnd,
    };
  }

  #bucket(bucketId: string, now: number): Bucket {
    const { minuteMs, dayMs } = this.#options;
    const minuteStart = Math.floor(now / minuteMs) * minuteMs;
    const dayStart = Math.floor(now / dayMs) * dayMs;
    let bucket = this.#buckets.get(bucketId);
    if (!bucket) {
      bucket = {
        minuteStart,
        minuteCount: 0,
        dayStart,
        dayCount: 0,
        limitedUntil: 0,
        strikes: 0,
        bannedUntil: 0,
      };
      this.#buckets.set(bucketId, bucket);
    }
    if (bucket.minuteStart !== minuteStart) {
      bucket.minuteStart = minuteStart;
      bucket.minuteCount = 0;
    }
    if (bucket.dayStart !== dayStart) {
      bucket.dayStart = dayStart;
      bucket.dayCount = 0;
    }
    return bucket;
  }
}

/** The three X-RateLimit-* headers of a decision (Reset in Unix seconds, rounded up). */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(Math.max(0, decision.remaining)),
    'X-RateLimit-Reset': String(Math.ceil(decision.resetAt / 1000)),
  };
}

export type RetryAfterFormat = 'seconds' | 'http-date';

/**
 * The Retry-After value for a moment: delay-seconds rounded up (never 0, so a
 * client cannot retry early), or an IMF-fixdate rounded up to the whole second.
 */
export function formatRetryAfter(retryAt: number, now: number, format: RetryAfterFormat): string {
  if (format === 'http-date') return new Date(Math.ceil(retryAt / 1000) * 1000).toUTCString();
  return String(Math.max(1, Math.ceil((retryAt - now) / 1000)));
}
