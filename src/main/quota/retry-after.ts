import { parseHttpDate, serverClockSkew } from '../store-api/http-date.ts';

// Numbers this large are not a delay anyone means: a server that sends one is
// sending a Unix time (seconds, or milliseconds past 1e12).
const EPOCH_SECONDS_THRESHOLD = 1_000_000_000; // 2001-09-09; also ~31 years as a delay
const EPOCH_MILLISECONDS_THRESHOLD = 1_000_000_000_000;
const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * The longest wait believed from the service: a day, the longest window the
 * interface names. A Retry-After or X-RateLimit-Reset further away than that
 * is garbage (one such header once held an environment for ever).
 */
export const MAX_BELIEVED_WAIT_MS = 24 * 3_600_000;
// A day window's reset may sit a little past 24 hours from now: it is given in
// whole seconds, by a clock that may be off from ours.
const DAY_RESET_SLACK_MS = 10 * 60_000;
/** The longest any hold can last; a saved or computed hold past it is dropped as garbage. */
export const MAX_HOLD_MS = MAX_BELIEVED_WAIT_MS + DAY_RESET_SLACK_MS;

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

/** Whether a reset time the service gave can be a window's end: at most about a day away. */
export function isSaneResetTime(at: number, now: number): boolean {
  return Number.isFinite(at) && at <= now + MAX_HOLD_MS;
}

/**
 * The latest moment a Retry-After is believed: 24 hours from now, or the day
 * window's reset when that is later (and itself sane).
 */
export function latestBelievable(now: number, resetAt?: number): number {
  const day = now + MAX_BELIEVED_WAIT_MS;
  return resetAt !== undefined && isSaneResetTime(resetAt, now) ? Math.max(day, resetAt) : day;
}

/**
 * Reads a number that a server meant as a point in time or a delay, as the
 * epoch ms (our clock) it stands for. Used for Retry-After and X-RateLimit-Reset;
 * the callers check the result is believable.
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
 * undefined for anything else, and for a moment past `latest` (default: 24
 * hours from now), so the caller can fall back to X-RateLimit-Reset and then
 * to backoff. Never returns a time in the past.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  context: ServerTimeContext & { readonly latest?: number },
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
  const latest = context.latest ?? latestBelievable(context.now);
  if (at === undefined || !Number.isFinite(at) || at > latest) return undefined;
  return Math.max(context.now, Math.ceil(at));
}
