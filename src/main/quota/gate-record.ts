// What a key's gate knows, as one record: the quota the service reported, the
// hold, the requests on their way (from every process that shares the key)
// and this computer's own count. Pure functions over it; the stores
// (gate-store.ts, shared-gate-files.ts) keep it, the gate (gate.ts) decides
// with it.

import { z } from 'zod';
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
}

export function emptyRecord(): GateRecord {
  return { snapshot: { known: false }, leases: [], holdId: 0, usage: emptyUsage() };
}

/** The earliest time a request could be sent, and why it waits (if it does). */
export function openTime(record: GateRecord, now: number): { at: number; reason?: HoldReason } {
  const s = record.snapshot;
  if (s.holdUntil !== undefined && s.holdUntil > now) {
    return { at: s.holdUntil, reason: s.holdReason ?? 'server-429' };
  }
  if (
    s.remaining === 0 &&
    s.resetAt !== undefined &&
    s.resetAt > now &&
    record.leases.length === 0
  ) {
    return { at: s.resetAt, reason: 'quota-exhausted' };
  }
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
  }
  record.holdId += 1;
}

export function clearHold(record: GateRecord): void {
  const snapshot = { ...record.snapshot };
  delete snapshot.holdUntil;
  delete snapshot.holdReason;
  record.snapshot = snapshot;
  record.holdId += 1;
}

// ---- Reading a record back (from a file another process or an older version wrote) ----

const time = z.number().nonnegative(); // zod 4 refuses NaN and the infinities
const count = z.number().int().nonnegative();

const snapshotSchema = z.object({
  known: z.boolean().catch(false),
  limit: count.optional().catch(undefined),
  remaining: count.optional().catch(undefined),
  resetAt: time.optional().catch(undefined),
  observedAt: time.optional().catch(undefined),
  holdUntil: time.optional().catch(undefined),
  holdReason: z.enum(['server-429', 'banned', 'quota-exhausted']).optional().catch(undefined),
});

const leaseSchema = z.object({
  id: z.string().min(1).max(100),
  pid: count,
  at: time,
  throughHold: count.optional(),
});

const recordSchema = z.object({
  snapshot: snapshotSchema.catch({ known: false }),
  leases: z.array(z.unknown()).max(1000).catch([]),
  holdId: count.catch(0),
  usage: z
    .object({
      day: z.string().max(10).catch(''),
      sentToday: count.catch(0),
      history: z
        .array(z.object({ at: time, sent: count, remaining: count.optional() }))
        .max(1000)
        .catch([]),
    })
    .catch(emptyUsage()),
});

type Defined<T> = { [K in keyof T]: Exclude<T[K], undefined> };

function withoutUndefined<T extends object>(value: T): Partial<Defined<T>> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<
    Defined<T>
  >;
}

/**
 * A record as read back, with everything that cannot be true dropped: times
 * that are not finite or lie further ahead than any believable wait (a hold
 * saved as "until 1e23" once held an environment for ever), broken leases.
 * Anything unreadable becomes an empty record: the service's next answer
 * tells the quota again.
 */
export function sanitizeRecord(raw: unknown, now: number): GateRecord {
  const parsed = recordSchema.safeParse(raw);
  if (!parsed.success) return emptyRecord();
  const { snapshot: s, leases, holdId, usage } = parsed.data;
  const latest = now + MAX_HOLD_MS;
  const snapshot = withoutUndefined({
    ...s,
    resetAt: s.resetAt !== undefined && s.resetAt <= latest ? s.resetAt : undefined,
    observedAt: s.observedAt !== undefined && s.observedAt <= latest ? s.observedAt : undefined,
    holdUntil: s.holdUntil !== undefined && s.holdUntil <= latest ? s.holdUntil : undefined,
  }) as Omit<QuotaSnapshot, 'known'>;
  if (snapshot.holdUntil === undefined) delete (snapshot as { holdReason?: unknown }).holdReason;
  return {
    snapshot: { known: s.known, ...snapshot },
    leases: leases.flatMap((lease) => {
      const checked = leaseSchema.safeParse(lease);
      return checked.success ? [withoutUndefined(checked.data) as Lease] : [];
    }),
    holdId,
    usage: {
      day: usage.day,
      sentToday: usage.sentToday,
      history: usage.history.map((p) => withoutUndefined(p) as LocalUsage['history'][number]),
    },
  };
}
