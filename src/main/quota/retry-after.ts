import { parseHttpDate, serverClockSkew } from './http-date.ts';

// Numbers this large are not a delay anyone means: a server that sends one is
// sending a Unix time (seconds, or milliseconds past 1e12).
const EPOCH_SECONDS_THRESHOLD = 1_000_000_000; // 2001-09-09; also ~31 years as a delay
const EPOCH_MILLISECONDS_THRESHOLD = 1_000_000_000_000;
const DECIMAL = /^\d+(\.\d+)?$/;

export interface ServerTimeContext {
  /** Our clock, epoch ms. */
  readonly now: number;
  /** The response's `Date` header, used to correct for the server's clock. */
  readonly dateHeader?: string | null;
  /** A better estimate of the server's clock offset than one Date header (ServerClock). */
  readonly skewMs?: number;
}

function skewOf(context: ServerTimeContext): number {
  return context.skewMs ?? serverClockSkew(context.dateHeader, context.now);
}

/**
 * Reads a number that a server meant as a point in time or a delay, as the
 * epoch ms (our clock) it stands for. Used for Retry-After and X-RateLimit-Reset.
 */
export function readTimeNumber(seconds: number, context: ServerTimeContext): number {
  const skew = skewOf(context);
  if (seconds >= EPOCH_MILLISECONDS_THRESHOLD) return seconds - skew;
  if (seconds >= EPOCH_SECONDS_THRESHOLD) return seconds * 1000 - skew;
  return context.now + seconds * 1000;
}

/**
 * Parses `Retry-After` (RFC 9110 section 10.2.3) into the epoch ms at which a
 * retry is allowed: delay-seconds, or an HTTP-date in any of its three forms
 * corrected by the `Date` header, or a Unix time sent by mistake. Returns
 * undefined for anything else, so the caller can fall back to
 * X-RateLimit-Reset and then to backoff. Never returns a time in the past.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  context: ServerTimeContext,
): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  let at: number | undefined;
  if (DECIMAL.test(text)) {
    const seconds = Number(text);
    at = Number.isFinite(seconds) ? readTimeNumber(seconds, context) : undefined;
  } else {
    const date = parseHttpDate(text, context.now);
    if (date !== undefined) at = date - skewOf(context);
  }
  return at === undefined ? undefined : Math.max(context.now, Math.ceil(at));
}
