// What a key's gate knows, as one record: the quota the service reported, the
// hold, the requests on their way (from every process that shares the key)
// and this computer's own count. Pure functions over it; the stores
// (gate-store.ts, shared-gate-files.ts) keep it, the gate (gate.ts) decides
// with it.

import type { HoldReason, QuotaSnapshot } from '../../shared/quota.ts';
import { emptyUsage, noteRemaining, type LocalUsage } from './local-usage.ts';
import type { RateLimitReading } from './rate-limit-headers.ts';
import { MAX_HOLD_MS } from './retry-after.ts';

/** One request let out by a gate and not yet answered. */
export interface Lease {
  readonly id: string;
  /** The process that sent it, so a crashed process's leases can be dropped. */
  readonly pid: number;
  /** Epoch ms it was let out. */
  readonly at: number;
  /** Set for the one request a clerk sent through a hold ("Try now"): the hold it went through. */
  readonly throughHold?: number;
}

export interface GateRecord {
  snapshot: QuotaSnapshot;
  leases: Lease[];
  /** Counts the holds set, so a "Try now" answer lifts only the hold it was sent through. */
  holdId: number;
  usage: LocalUsage;
  /**
   * Requests of ours the service may have counted since the answer whose
   * Remaining the snapshot holds: those on their way then and those let out
   * since. A larger drop in Remaining is someone else's.
   */
  sentSinceReading: number;
  /**
   * The latest wall-clock time a gate saw the hold (snapshot.holdUntil)
   * running, or ended: a clock now earlier than it was set back
   * (followClock).
   */
  holdSeenAt?: number;
  /**
   * Requests of other clients of this key (other computers: they share no
   * record with us) seen landing within one of our answers' gaps, at most.
   * Background requests leave that many of each window's last requests to
   * them, so that together no one gets a 429.
   */
  othersMargin: number;
}

export function emptyRecord(): GateRecord {
  return {
    snapshot: { known: false },
    leases: [],
    holdId: 0,
    usage: emptyUsage(),
    sentSinceReading: 0,
    othersMargin: 0,
  };
}

/**
 * The most of each window held back for other clients: 5% of the limit (at
 * least one). More would cost our own pace more than it could save.
 */
export function maxOthersMargin(limit: number): number {
  return Math.max(1, Math.ceil(limit * 0.05));
}

/** A request let out: the service will count it (a drop in Remaining that is ours). */
export function noteSent(record: GateRecord): void {
  record.sentSinceReading += 1;
}

/** The earliest time a request could be sent, and why it waits (if it does). */
export function openTime(record: GateRecord, now: number): { at: number; reason?: HoldReason } {
  const s = record.snapshot;
  const held = s.holdUntil !== undefined && s.holdUntil > now ? s.holdUntil : undefined;
  const spent =
    s.remaining === 0 && s.resetAt !== undefined && s.resetAt > now && record.leases.length === 0
      ? s.resetAt
      : undefined;
  // A short hold over a window that stays spent past it: the gate opens at the later of the two.
  if (held !== undefined)
    return { at: Math.max(held, spent ?? held), reason: s.holdReason ?? 'server-429' };
  if (spent !== undefined) return { at: spent, reason: 'quota-exhausted' };
  return { at: now };
}

/**
 * Records what an answer's rate-limit headers said. Answers can arrive out
 * of order: within one window the lowest Remaining is the truest, and an
 * answer from a window that has closed is ignored. `current`: the answer to
 * a "Try now", the service's word after a hold, replaces what the hold
 * assumed. Returns false when the answer carried no rate-limit header at all.
 */
export function recordReading(
  record: GateRecord,
  reading: RateLimitReading,
  now: number,
  current = false,
): boolean {
  if (
    reading.limit === undefined &&
    reading.remaining === undefined &&
    reading.resetAt === undefined
  )
    return false;
  const s = record.snapshot;
  if (
    reading.resetAt !== undefined &&
    s.resetAt !== undefined &&
    reading.resetAt < s.resetAt - 1000
  )
    return true; // an answer from a window that has already closed
  let remaining = reading.remaining ?? s.remaining;
  const sameWindow =
    reading.resetAt !== undefined &&
    s.resetAt !== undefined &&
    Math.abs(reading.resetAt - s.resetAt) < 1000;
  if (!current && sameWindow && reading.remaining !== undefined && s.remaining !== undefined) {
    remaining = Math.min(reading.remaining, s.remaining);
  }
  noteOthers(record, reading, sameWindow);
  record.snapshot = {
    ...s,
    known: true,
    limit: reading.limit ?? s.limit,
    remaining,
    resetAt: reading.resetAt ?? s.resetAt,
    observedAt: now,
  };
  if (remaining !== undefined) noteRemaining(record.usage, remaining, now);
  return true;
}

/**
 * Other clients of the key show only in the service's figures: Remaining
 * dropping by more than the requests we had out. Their largest such share is
 * kept as the margin; each new window halves it, so it fades once they stop.
 */
function noteOthers(record: GateRecord, reading: RateLimitReading, sameWindow: boolean): void {
  const held = record.snapshot.remaining;
  if (sameWindow && reading.remaining !== undefined && held !== undefined) {
    const others = held - reading.remaining - record.sentSinceReading;
    if (others > 0 && record.snapshot.limit !== undefined) {
      record.othersMargin = Math.max(
        record.othersMargin,
        Math.min(others, maxOthersMargin(record.snapshot.limit)),
      );
    }
    // An answer older than the figure held tells nothing new: the count runs on from that figure.
    if (reading.remaining > held) return;
  } else if (reading.resetAt !== undefined) {
    record.othersMargin = Math.floor(record.othersMargin / 2);
  }
  record.sentSinceReading = record.leases.length;
}

/**
 * Shuts the gate until `until`. A hold never shrinks (answers arrive out of
 * order), except by `replace`: the answer to a "Try now" states the service's
 * current wish. A time past the longest believable hold is cut to it.
 */
export function setHold(
  record: GateRecord,
  until: number,
  reason: HoldReason,
  now: number,
  replace = false,
): void {
  if (!Number.isFinite(until)) return;
  const bounded = Math.min(until, now + MAX_HOLD_MS);
  const s = record.snapshot;
  const current = s.holdUntil !== undefined && s.holdUntil > now ? s.holdUntil : undefined;
  if (!replace && current !== undefined && bounded <= current) {
    if (s.holdReason === reason) return;
    record.snapshot = { ...s, holdReason: reason };
  } else {
    record.snapshot = { ...s, holdUntil: bounded, holdReason: reason };
    record.holdSeenAt = now;
  }
  record.holdId += 1;
}

export function clearHold(record: GateRecord): void {
  const snapshot = { ...record.snapshot };
  delete snapshot.holdUntil;
  delete snapshot.holdReason;
  record.snapshot = snapshot;
  delete record.holdSeenAt;
  record.holdId += 1;
}

/**
 * How often a running hold's `holdSeenAt` moves on with the clock: at most
 * one write of the record this often, and a clock set back lengthens a hold
 * by no more than this.
 */
export const HOLD_SEEN_EVERY_MS = 5_000;

/** What followClock would change: the hold's end, when the clock went back, and when it was seen. */
function clockLook(
  record: GateRecord,
  now: number,
): { holdUntil: number; holdSeenAt: number } | undefined {
  const until = record.snapshot.holdUntil;
  if (until === undefined) return undefined;
  const seen = record.holdSeenAt;
  // Set back: the hold's end goes back with the clock, so what remains is what remained when
  // it was last seen (never more than it was granted), not that plus the jump.
  if (seen !== undefined && now < seen) return { holdUntil: until - (seen - now), holdSeenAt: now };
  const due = seen === undefined || (until > now ? now - seen >= HOLD_SEEN_EVERY_MS : seen < until); // running; or ended, once
  return due ? { holdUntil: until, holdSeenAt: now } : undefined;
}

/** Whether followClock would change the record now (a look that writes nothing needs no lock). */
export function clockMoved(record: GateRecord, now: number): boolean {
  return clockLook(record, now) !== undefined;
}

/**
 * Keeps a hold true to the wall clock in both directions. Set forward (or
 * after a sleep), the clock ends a hold sooner, as it should: that time has
 * passed. Set back, it would lengthen the hold by the jump: the hold's end
 * goes back with the clock instead, so a hold never ends later than what
 * remained of it when it was last seen running (at most its length). Every
 * process sharing the record sees the same `holdSeenAt`, so a jump moves
 * the hold once, whoever sees it first.
 */
export function followClock(record: GateRecord, now: number): void {
  const look = clockLook(record, now);
  if (!look) return;
  if (look.holdUntil !== record.snapshot.holdUntil)
    record.snapshot = { ...record.snapshot, holdUntil: look.holdUntil };
  record.holdSeenAt = look.holdSeenAt;
}

// ---- Reading a record back (from a file another process or an older version wrote) ----
// Checked by hand rather than with zod: the CLI reads this on every run, and
// loading zod would cost each run about 65 ms (see local-data/lazy-schema.ts).

const HOLD_REASONS: readonly HoldReason[] = [
  'server-429',
  'gateway-429',
  'banned',
  'quota-exhausted',
];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}

/** A time (epoch ms) that can be true: finite, not negative, at most `latest`. */
function time(value: unknown, latest: number): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= latest
    ? value
    : undefined;
}

function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * A record as read back, with everything that cannot be true dropped: times
 * that are not finite or lie further ahead than any believable wait (a hold
 * saved as "until 1e23" once held an environment for ever), broken leases.
 * Anything unreadable becomes an empty record: the service's next answer
 * tells the quota again.
 */
export function sanitizeRecord(raw: unknown, now: number): GateRecord {
  if (!isObject(raw)) return emptyRecord();
  const latest = now + MAX_HOLD_MS;
  const s = isObject(raw.snapshot) ? raw.snapshot : {};
  // A clock set back since the hold was last seen: the hold goes back with it (followClock)
  // before it is judged, so a jump of any size neither lengthens it nor drops it as garbage.
  const seenAt = time(raw.holdSeenAt, Number.MAX_SAFE_INTEGER);
  const back = seenAt !== undefined && seenAt > now ? seenAt - now : 0;
  const holdUntil = time(typeof s.holdUntil === 'number' ? s.holdUntil - back : undefined, latest);
  const holdSeenAt = holdUntil !== undefined && seenAt !== undefined ? seenAt - back : undefined;
  const holdReason = HOLD_REASONS.find((reason) => reason === s.holdReason);
  const snapshot: QuotaSnapshot = defined({
    known: s.known === true,
    limit: count(s.limit),
    remaining: count(s.remaining),
    resetAt: time(s.resetAt, latest),
    observedAt: time(s.observedAt, latest),
    ...(holdUntil !== undefined ? { holdUntil, holdReason: holdReason ?? 'server-429' } : {}),
  });
  const leases = (Array.isArray(raw.leases) ? raw.leases : []).flatMap((lease: unknown) => {
    if (!isObject(lease) || typeof lease.id !== 'string') return [];
    const pid = count(lease.pid);
    const at = time(lease.at, latest);
    if (pid === undefined || at === undefined) return [];
    const throughHold = count(lease.throughHold);
    return [defined<Lease>({ id: lease.id.slice(0, 100), pid, at, throughHold })];
  });
  const u = isObject(raw.usage) ? raw.usage : {};
  const history = (Array.isArray(u.history) ? u.history : []).flatMap((point: unknown) => {
    if (!isObject(point)) return [];
    const at = time(point.at, latest);
    const sent = count(point.sent);
    if (at === undefined || sent === undefined) return [];
    return [defined({ at, sent, remaining: count(point.remaining) })];
  });
  const limit = snapshot.limit ?? 0;
  return {
    snapshot,
    leases,
    sentSinceReading: count(raw.sentSinceReading) ?? leases.length,
    othersMargin: Math.min(count(raw.othersMargin) ?? 0, maxOthersMargin(limit)),
    holdId: count(raw.holdId) ?? 0,
    ...(holdSeenAt !== undefined ? { holdSeenAt } : {}),
    usage: {
      day: typeof u.day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(u.day) ? u.day : '',
      sentToday: count(u.sentToday) ?? 0,
      history,
    },
  };
}
