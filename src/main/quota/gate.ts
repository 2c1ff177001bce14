// One gate per API key. Every request to the service passes through it, so
// after a 429, a ban, or Remaining reaching 0, nothing at all goes out until
// the wait ends. Waiters queue behind one timer (not one timer each that
// would all fire at once) and are let through only as the remaining quota
// allows, interactive requests first.

import type { HoldReason, QuotaSnapshot } from '../../shared/quota.ts';
import type { Timing } from './clock.ts';
import type { RateLimitReading } from './rate-limit-headers.ts';

export type Priority = 'interactive' | 'background';

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
}

export interface Ticket {
  /** Call once, with what the answer said (nothing when there was no answer). */
  release(reading?: RateLimitReading): void;
}

interface Waiter {
  readonly deadline: number;
  readonly resolve: (ticket: Ticket) => void;
  readonly reject: (error: unknown) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

export interface GateOptions {
  readonly timing: Timing;
  /** Concurrency when the quota does not limit it further. */
  readonly maxInFlight?: number;
}

export class RequestGate {
  readonly #timing: Timing;
  readonly #maxInFlight: number;
  #state: QuotaSnapshot = { known: false };
  #inFlight = 0;
  /** Set when the service answers without rate-limit headers at all. */
  #headersAbsent = false;
  readonly #queues: Record<Priority, Waiter[]> = { interactive: [], background: [] };
  #timer: { at: number; controller: AbortController } | undefined;
  readonly #listeners = new Set<(snapshot: QuotaSnapshot) => void>();
  readonly #sendListeners = new Set<() => void>();

  constructor(options: GateOptions) {
    this.#timing = options.timing;
    this.#maxInFlight = options.maxInFlight ?? 4;
  }

  snapshot(): QuotaSnapshot {
    return this.#state;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  onChange(listener: (snapshot: QuotaSnapshot) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Called each time a request is let through (it is about to be sent). */
  onSend(listener: () => void): () => void {
    this.#sendListeners.add(listener);
    return () => this.#sendListeners.delete(listener);
  }

  /** Restores a snapshot saved before a restart, so a ban or hold survives it. */
  restore(snapshot: QuotaSnapshot): void {
    this.#setState(snapshot);
  }

  /** The earliest time a request could be sent, and why it waits (if it does). */
  openAt(): { at: number; reason?: HoldReason } {
    const now = this.#timing.now();
    const s = this.#state;
    if (s.holdUntil !== undefined && s.holdUntil > now) {
      return { at: s.holdUntil, reason: s.holdReason ?? 'server-429' };
    }
    if (s.remaining === 0 && s.resetAt !== undefined && s.resetAt > now && this.#inFlight === 0) {
      return { at: s.resetAt, reason: 'quota-exhausted' };
    }
    return { at: now };
  }

  acquire(options: AcquireOptions): Promise<Ticket> {
    const { signal, maxWaitMs, priority = 'interactive' } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = this.#timing.now();
    const open = this.openAt();
    if (open.reason && open.at - now > maxWaitMs) {
      return Promise.reject(new HeldBackError(open.at, open.reason));
    }
    return new Promise<Ticket>((resolve, reject) => {
      const waiter: Waiter = {
        deadline: now + maxWaitMs,
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.#remove(waiter);
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
    const current = this.#state.holdUntil ?? 0;
    if (until <= current && this.#state.holdReason === reason) return;
    this.#setState({ ...this.#state, holdUntil: Math.max(until, current), holdReason: reason });
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

  #capacity(now: number, priority: Priority = 'interactive'): number {
    const s = this.#state;
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
    if (priority === 'background' && s.limit !== undefined)
      allowance -= RequestGate.backgroundReserve(s.limit);
    return Math.min(allowance, this.#maxInFlight) - this.#inFlight;
  }

  #pump(): void {
    const now = this.#timing.now();
    for (;;) {
      let waiter: Waiter | undefined;
      if (this.#queues.interactive.length > 0 && this.#capacity(now, 'interactive') > 0) {
        waiter = this.#queues.interactive.shift();
      } else if (this.#queues.interactive.length === 0 && this.#capacity(now, 'background') > 0) {
        waiter = this.#queues.background.shift();
      }
      if (!waiter) break;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.#inFlight += 1;
      for (const listener of this.#sendListeners) listener();
      waiter.resolve(this.#ticket());
    }
    const waiting = this.#queues.interactive.length + this.#queues.background.length;
    if (waiting === 0) return;
    const open = this.openAt();
    if (open.at > now) this.#wakeAt(open.at);
    else if (
      this.#inFlight === 0 &&
      this.#state.resetAt !== undefined &&
      this.#state.resetAt > now
    ) {
      // Only background requests wait, held by the reserve: they go on when the window resets.
      this.#wakeAt(this.#state.resetAt);
    }
    // Otherwise the gate waits for an in-flight request to come back.
  }

  #ticket(): Ticket {
    let released = false;
    return {
      release: (reading) => {
        if (released) return;
        released = true;
        this.#inFlight -= 1;
        if (reading) this.#record(reading);
        this.#pump();
      },
    };
  }

  #record(reading: RateLimitReading): void {
    const now = this.#timing.now();
    const hasAny =
      reading.limit !== undefined ||
      reading.remaining !== undefined ||
      reading.resetAt !== undefined;
    if (!hasAny) {
      this.#headersAbsent = true;
      return;
    }
    const s = this.#state;
    let remaining = reading.remaining ?? s.remaining;
    // Answers can arrive out of order: within one window the lowest Remaining is the truest.
    const sameWindow =
      reading.resetAt !== undefined &&
      s.resetAt !== undefined &&
      Math.abs(reading.resetAt - s.resetAt) < 1000;
    if (sameWindow && reading.remaining !== undefined && s.remaining !== undefined) {
      remaining = Math.min(reading.remaining, s.remaining);
    }
    if (
      reading.resetAt !== undefined &&
      s.resetAt !== undefined &&
      reading.resetAt < s.resetAt - 1000
    ) {
      return; // an answer from a window that has already closed
    }
    this.#setState({
      ...s,
      known: true,
      limit: reading.limit ?? s.limit,
      remaining,
      resetAt: reading.resetAt ?? s.resetAt,
      observedAt: now,
    });
  }

  #wakeAt(at: number): void {
    if (this.#timer && this.#timer.at <= at) return;
    this.#timer?.controller.abort();
    const controller = new AbortController();
    this.#timer = { at, controller };
    this.#timing.sleep(at - this.#timing.now(), controller.signal).then(
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
        if (open.at > waiter.deadline) {
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

  #setState(next: QuotaSnapshot): void {
    this.#state = next;
    for (const listener of this.#listeners) listener(next);
  }
}
