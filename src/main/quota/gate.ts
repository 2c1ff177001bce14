// One gate per API key and service address. Every request to the service
// passes through it, so after a 429, a ban, or Remaining reaching 0, nothing
// at all goes out until the wait ends. Waiters queue behind one timer (not
// one timer each that would all fire at once) and are let through only as
// the remaining quota allows, interactive requests first. After a wait,
// requests go on one at a time, each after a random pause, until an answer
// shows the quota again: the workers of a bulk cancel, and every process
// sharing the key, never fire together the moment a hold ends. Behind a
// gateway that limits requests (its own 429s), the gate spaces its requests
// and narrows the spacing as the service answers, so it keeps near the
// gateway's pace instead of meeting a 429 for every other request.
//
// A wait is judged by the wall clock, never by a timer's remaining time:
// the gate looks at the clock at least every WALL_CLOCK_LOOK_MS, so after the
// computer slept, or its clock was set forward, a hold that has ended by the
// clock lets requests go within seconds. A clock set back does not lengthen a
// hold: its end goes back with the clock (gate-record.ts, followClock).
//
// The gate's record (gate-record.ts) lives in a store: its own memory, or a
// file shared with every other process using the same key at the same
// address (shared-gate-files.ts), so their requests count against one quota
// and a hold one of them was told about holds them all.

import { randomUUID } from 'node:crypto';
import type { HoldReason, QuotaSnapshot, QuotaView } from '../../shared/quota.ts';
import { WALL_CLOCK_LOOK_MS, type Timing } from '../store-api/clock.ts';
import {
  clearHold,
  clockMoved,
  followClock,
  noteSent,
  openTime,
  recordReading,
  setHold,
  type GateRecord,
  type Lease,
} from './gate-record.ts';
import { MemoryGateStore, type GateStore } from './gate-store.ts';
import { countSend, usageNow } from './local-usage.ts';
import type { RateLimitReading } from './rate-limit-headers.ts';
import { MAX_HOLD_MS } from './retry-after.ts';

export type Priority = 'interactive' | 'background';

/** After a wait, each request goes alone after a random pause of up to this long. */
export const RESUME_JITTER_MS = 1_000;
/**
 * A gateway's 429 without a Retry-After: the first hold is about this long,
 * doubling with each one in a row up to GATEWAY_BACKOFF_CAP_MS. Seconds: a
 * gateway's limit is a pace (requests a second), never the service's window.
 */
export const GATEWAY_BACKOFF_MS = 1_000;
export const GATEWAY_BACKOFF_CAP_MS = 30_000;
/**
 * After a gateway's 429 this process spaces its requests at least this far
 * apart (doubled by each further one, up to GATEWAY_BACKOFF_CAP_MS), and
 * narrows the spacing by a tenth with each answer of the service, down to
 * none: a gateway's pace is found and kept near, not met with a 429 for
 * every other request.
 */
export const GATEWAY_SPACING_MS = 250;

export class HeldBackError extends Error {
  readonly retryAt: number;
  readonly reason: HoldReason;
  constructor(retryAt: number, reason: HoldReason) {
    super(`Requests are held back until ${new Date(retryAt).toISOString()} (${reason}).`);
    this.name = 'HeldBackError';
    this.retryAt = retryAt;
    this.reason = reason;
  }
}

export interface AcquireOptions {
  readonly signal?: AbortSignal;
  /** Longer waits fail at once with HeldBackError instead of holding a request open. */
  readonly maxWaitMs: number;
  readonly priority?: Priority;
  /**
   * The clerk chose to end a hold by hand ("Try now"): this one request goes
   * through it (one such request at a time). Its answer lifts the hold, or
   * sets the new one the service asks for.
   */
  readonly throughHold?: boolean;
}

export interface Hold {
  readonly until: number;
  readonly reason: HoldReason;
}

export interface Ticket {
  /**
   * Call once, with what the answer's rate-limit headers said. Nothing when
   * no answer came, or when its headers are not this key's (a 401 carries
   * another bucket's). `hold`: the answer asked to wait (a 429).
   */
  release(reading?: RateLimitReading, hold?: Hold): void;
  /**
   * Instead of release: the answer was a 429 from something between this
   * computer and the service (a gateway's own limit), which says nothing of
   * the key's quota. Holds until `retryAt` (its Retry-After), or else for a
   * short pause that grows with each such answer in a row. Returns the
   * hold's end.
   */
  releaseGatewayLimited(retryAt?: number): number;
}

interface Waiter {
  readonly deadline: number;
  readonly resolve: (ticket: Ticket) => void;
  readonly reject: (error: unknown) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
  /** For a "Try now": the hold it was asked to go through (a newer hold turns it away). */
  readonly throughHold: number | undefined;
}

export interface GateOptions {
  readonly timing: Timing;
  /** Requests in flight at once (across every process sharing the store) when the quota does not limit it further. */
  readonly maxInFlight?: number;
  /** Where the record lives; its own memory by default. */
  readonly store?: GateStore;
  /** How soon a waiting gate looks again when only other processes' requests hold it up. */
  readonly pollMs?: number;
}

export class RequestGate {
  readonly #timing: Timing;
  readonly #maxInFlight: number;
  readonly #store: GateStore;
  readonly #pollMs: number;
  #record: GateRecord;
  #seen: string;
  /** This gate's own requests on their way (lease ids). */
  readonly #own = new Set<string>();
  /** Set when the service answers without rate-limit headers at all. */
  #headersAbsent = false;
  /** When the service last answered one of this gate's requests (a 429 aside). */
  #answeredAt = Number.NEGATIVE_INFINITY;
  /** A gateway's 429s in a row, since the service last answered. */
  #gatewayStrikes = 0;
  /** While resuming after a wait: when the next lone request may go. */
  #resumeAt: number | undefined;
  /** The least time between two requests of this gate, since a gateway's 429 (0: none). */
  #spacing = 0;
  /** When this gate last let a request out. */
  #sentAt = Number.NEGATIVE_INFINITY;
  readonly #queues: Record<Priority, Waiter[]> = { interactive: [], background: [] };
  #timer: { at: number; controller: AbortController } | undefined;
  readonly #listeners = new Set<(snapshot: QuotaSnapshot) => void>();

  constructor(options: GateOptions) {
    this.#timing = options.timing;
    this.#maxInFlight = options.maxInFlight ?? 4;
    this.#store = options.store ?? new MemoryGateStore();
    this.#pollMs = options.pollMs ?? 100;
    this.#record = this.#store.read();
    this.#seen = this.#fingerprint(this.#record);
  }

  snapshot(): QuotaSnapshot {
    return this.#record.snapshot;
  }

  /** What the quota meter shows: the service's figures and this computer's own counts. */
  view(): QuotaView {
    const now = this.#timing.now();
    this.#look(now);
    return { ...this.#record.snapshot, ...usageNow(this.#record.usage, now) };
  }

  /** This gate's requests on their way. */
  get inFlight(): number {
    return this.#own.size;
  }

  /** Called after every change of the record: figures, holds, and each request let out. */
  onChange(listener: (snapshot: QuotaSnapshot) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The earliest time a request could be sent, and why it waits (if it does). */
  openAt(): { at: number; reason?: HoldReason } {
    const now = this.#timing.now();
    return openTime(this.#look(now), now);
  }

  /** The record as it stands, its hold first kept true to the clock (written only when that changes it). */
  #look(now: number): GateRecord {
    const record = this.#store.read();
    if (!clockMoved(record, now)) {
      this.#adopt(record);
      return record;
    }
    return this.#change((r) => followClock(r, now));
  }

  acquire(options: AcquireOptions): Promise<Ticket> {
    const { signal, maxWaitMs, priority = 'interactive', throughHold = false } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = this.#timing.now();
    const open = this.openAt();
    if (!throughHold && open.reason && open.at - now > maxWaitMs) {
      return Promise.reject(new HeldBackError(open.at, open.reason));
    }
    return new Promise<Ticket>((resolve, reject) => {
      const waiter: Waiter = {
        deadline: now + maxWaitMs,
        resolve,
        reject,
        signal,
        throughHold: throughHold ? this.#record.holdId : undefined,
        onAbort: () => {
          this.#remove(waiter);
          // No one left waiting: no timer keeps the process (a CLI run) alive to the hold's end.
          if (this.#queues.interactive.length + this.#queues.background.length === 0) {
            this.#timer?.controller.abort();
            this.#timer = undefined;
          }
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#queues[priority].push(waiter);
      this.#pump();
    });
  }

  /** Shuts the gate until `until` (a 429's Retry-After, or a ban). */
  hold(until: number, reason: HoldReason): void {
    this.#change((record) => setHold(record, until, reason, this.#timing.now()));
    this.#rejectWaitersPast(this.openAt());
    this.#pump();
  }

  /**
   * What background requests (bulk cancels) leave of each window for the
   * clerk's own requests: 2% of the limit, at least one.
   */
  static backgroundReserve(limit: number | undefined): number {
    return limit === undefined ? 0 : Math.max(1, Math.ceil(limit * 0.02));
  }

  #capacity(record: GateRecord, now: number, priority: Priority): number {
    const s = record.snapshot;
    if (s.holdUntil !== undefined && s.holdUntil > now) return 0;
    let allowance: number;
    if (s.remaining !== undefined && s.resetAt !== undefined && s.resetAt > now) {
      allowance = s.remaining;
    } else if (s.limit !== undefined && s.resetAt !== undefined) {
      // The window has reset: the service said the limit comes back whole.
      allowance = s.limit;
    } else if (this.#headersAbsent) {
      allowance = this.#maxInFlight;
    } else {
      // Nothing known yet: one request finds out the quota before others follow.
      allowance = 1;
    }
    // Background requests leave the clerk's reserve, and near a window's end
    // what other clients of the key (other computers) were seen to have on their way.
    if (priority === 'background' && s.limit !== undefined)
      allowance -= RequestGate.backgroundReserve(s.limit) + record.othersMargin;
    return Math.min(allowance, this.#maxInFlight) - record.leases.length;
  }

  /** The next waiter that may go now, if any. */
  #next(record: GateRecord, now: number): Waiter | undefined {
    const { interactive, background } = this.#queues;
    if (openTime(record, now).reason !== undefined) {
      // Held: only a request the clerk sends through the hold goes, one at a time.
      const passing = interactive.find((w) => w.throughHold === record.holdId);
      const passOut = record.leases.some((lease) => lease.throughHold !== undefined);
      return passing && !passOut ? passing : undefined;
    }
    const waiter =
      interactive.length > 0
        ? this.#capacity(record, now, 'interactive') > 0
          ? interactive[0]
          : undefined
        : this.#capacity(record, now, 'background') > 0
          ? background[0]
          : undefined;
    if (!waiter) return undefined;
    const at = this.#notBefore(record, now);
    return at !== undefined && at <= now ? waiter : undefined;
  }

  /**
   * The earliest a request may go by this gate's own pace, when it may go at
   * all now (undefined: not before one on its way comes back). Resuming
   * after a wait: one at a time, each after a random pause. Behind a
   * gateway's 429: its spacing.
   */
  #notBefore(record: GateRecord, now: number): number | undefined {
    const spaced = this.#sentAt + this.#spacing;
    if (this.#resumingSince(record, now) === undefined) return spaced;
    if (record.leases.length > 0) return undefined;
    this.#resumeAt ??= now + Math.floor(this.#timing.random() * RESUME_JITTER_MS);
    return Math.max(this.#resumeAt, spaced);
  }

  /**
   * When the wait the gate is resuming from ended (a hold, or a spent window
   * that has reset), while no answer has shown the quota since; undefined
   * otherwise.
   */
  #resumingSince(record: GateRecord, now: number): number | undefined {
    const s = record.snapshot;
    const held = s.holdUntil !== undefined && s.holdUntil <= now ? s.holdUntil : undefined;
    const spent =
      s.remaining === 0 && s.resetAt !== undefined && s.resetAt <= now ? s.resetAt : undefined;
    const ended = Math.max(held ?? Number.NEGATIVE_INFINITY, spent ?? Number.NEGATIVE_INFINITY);
    if (ended === Number.NEGATIVE_INFINITY) return undefined;
    const shown = Math.max(s.observedAt ?? Number.NEGATIVE_INFINITY, this.#answeredAt);
    return shown < ended ? ended : undefined;
  }

  /** A "Try now" waiting behind another meets the hold that one's answer set: it was asked for the old one. */
  #turnAwayStaleTries(record: GateRecord, now: number): void {
    const open = openTime(record, now);
    if (!open.reason) return;
    for (const waiter of [...this.#queues.interactive]) {
      if (waiter.throughHold === undefined || waiter.throughHold === record.holdId) continue;
      this.#remove(waiter);
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(new HeldBackError(open.at, open.reason));
    }
  }

  #pump(): void {
    if (this.#queues.interactive.length + this.#queues.background.length === 0) return;
    const now = this.#timing.now();
    const out: Array<[Waiter, Lease]> = [];
    const record = this.#change((r) => {
      followClock(r, now);
      this.#turnAwayStaleTries(r, now);
      for (;;) {
        const waiter = this.#next(r, now);
        if (!waiter) break;
        this.#remove(waiter);
        this.#resumeAt = undefined;
        this.#sentAt = now;
        const held = openTime(r, now).reason !== undefined;
        const lease: Lease = {
          id: randomUUID(),
          pid: process.pid,
          at: now,
          ...(waiter.throughHold !== undefined && held ? { throughHold: r.holdId } : {}),
        };
        r.leases.push(lease);
        noteSent(r);
        countSend(r.usage, now);
        out.push([waiter, lease]);
      }
    });
    for (const [waiter, lease] of out) {
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.#own.add(lease.id);
      waiter.resolve(this.#ticket(lease));
    }
    if (this.#queues.interactive.length + this.#queues.background.length === 0) return;
    const open = openTime(record, now);
    const others = record.leases.some((lease) => !this.#own.has(lease.id));
    const paced = this.#notBefore(record, now);
    if (open.at > now) this.#wakeAt(open.at);
    else if (paced !== undefined && paced > now) this.#wakeAt(paced);
    else if (others)
      this.#wakeAt(now + this.#pollMs); // their answers reach us only through the store
    else if (
      this.#own.size === 0 &&
      record.snapshot.resetAt !== undefined &&
      record.snapshot.resetAt > now
    ) {
      // Only background requests wait, held by the reserve: they go on when the window resets.
      this.#wakeAt(record.snapshot.resetAt);
    }
    // Otherwise the gate waits for one of its requests to come back.
  }

  #ticket(lease: Lease): Ticket {
    let released = false;
    const release = (reading?: RateLimitReading, hold?: Hold): void => {
      if (released) return;
      released = true;
      this.#own.delete(lease.id);
      const now = this.#timing.now();
      if (reading && !hold) {
        this.#answeredAt = now;
        this.#gatewayStrikes = 0;
        this.#spacing =
          this.#spacing < GATEWAY_SPACING_MS / 4 ? 0 : Math.floor(this.#spacing * 0.9);
      }
      this.#change((record) => {
        record.leases = record.leases.filter((l) => l.id !== lease.id);
        const passed = lease.throughHold !== undefined;
        if (reading && !recordReading(record, reading, now, passed && !hold))
          this.#headersAbsent = true;
        if (hold) setHold(record, hold.until, hold.reason, now, passed);
        else if (reading && passed && record.holdId === lease.throughHold) clearHold(record);
      });
      if (hold) this.#rejectWaitersPast(this.openAt());
      this.#pump();
    };
    return {
      release,
      releaseGatewayLimited: (retryAt) => {
        const now = this.#timing.now();
        // Equal jitter: at least half the step, so a hold is never next to nothing.
        const step = Math.min(
          GATEWAY_BACKOFF_CAP_MS,
          GATEWAY_BACKOFF_MS * 2 ** Math.min(this.#gatewayStrikes, 30),
        );
        if (!released) {
          this.#gatewayStrikes += 1;
          this.#spacing = Math.min(
            GATEWAY_BACKOFF_CAP_MS,
            Math.max(GATEWAY_SPACING_MS, this.#spacing * 2),
          );
        }
        const until = retryAt ?? now + Math.ceil(step / 2 + (this.#timing.random() * step) / 2);
        release(undefined, { until, reason: 'gateway-429' });
        return Math.min(until, now + MAX_HOLD_MS);
      },
    };
  }

  /** Runs one change of the record in the store, and tells the listeners if anything changed. */
  #change(change: (record: GateRecord) => void): GateRecord {
    const record = this.#store.update(change);
    this.#adopt(record);
    return record;
  }

  #adopt(record: GateRecord): void {
    const seen = this.#fingerprint(record);
    this.#record = record;
    if (seen === this.#seen) return;
    this.#seen = seen;
    for (const listener of this.#listeners) listener(record.snapshot);
  }

  #fingerprint(record: GateRecord): string {
    return JSON.stringify([record.snapshot, record.usage.sentToday, record.usage.history.at(-1)]);
  }

  #wakeAt(at: number): void {
    if (this.#timer && this.#timer.at <= at) return;
    this.#timer?.controller.abort();
    const controller = new AbortController();
    this.#timer = { at, controller };
    // Never longer than WALL_CLOCK_LOOK_MS: a timer counts time the computer was awake, the hold the clock's.
    const ms = Math.min(at - this.#timing.now(), WALL_CLOCK_LOOK_MS);
    this.#timing.sleep(ms, controller.signal).then(
      () => {
        if (this.#timer?.controller === controller) this.#timer = undefined;
        this.#pump();
      },
      () => undefined, // replaced by an earlier wake-up
    );
  }

  #rejectWaitersPast(open: { at: number; reason?: HoldReason }): void {
    if (!open.reason) return;
    for (const queue of Object.values(this.#queues)) {
      for (const waiter of [...queue]) {
        if (waiter.throughHold === undefined && open.at > waiter.deadline) {
          this.#remove(waiter);
          waiter.signal?.removeEventListener('abort', waiter.onAbort);
          waiter.reject(new HeldBackError(open.at, open.reason));
        }
      }
    }
  }

  #remove(waiter: Waiter): void {
    for (const queue of Object.values(this.#queues)) {
      const index = queue.indexOf(waiter);
      if (index >= 0) queue.splice(index, 1);
    }
  }
}
