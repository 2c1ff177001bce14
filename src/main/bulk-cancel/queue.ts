// Bulk cancel: many DELETEs, paced by the key's gate so the quota is used
// fully and no 429 comes back. The queue sends at background priority, so
// the clerk's own requests go first and the gate's reserve keeps part of
// every window for them. Every step is journaled before it happens, so a
// crash or restart resumes where it was, never starts a second cancel of an
// order whose first answer is unknown, and never loses a result.

import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import type {
  BulkCancelSnapshot,
  BulkLeftOver,
  BulkOutcome,
  BulkResult,
  PauseReason,
} from '../../shared/bulk-cancel.ts';
import type { EnvironmentId } from '../../shared/environments.ts';
import type { QuotaSnapshot } from '../../shared/quota.ts';
import { sleepUntil, type Timing } from '../store-api/clock.ts';
import { RequestGate } from '../quota/gate.ts';
import { isStoreApiError, type StoreClient } from '../store-api/client.ts';
import { clockTime, failure, type EarlierCancel } from '../store-api/errors.ts';
import {
  replay,
  unansweredAtStop,
  type BulkJournal,
  type JobState,
  type JournalLine,
} from './journal.ts';
import { reasonWords } from '../local-data/storage-health.ts';

export interface BulkCancelDeps {
  readonly environment: EnvironmentId;
  readonly journal: BulkJournal;
  /** The environment's client for its current key. */
  readonly client: () => Promise<StoreClient>;
  readonly timing: Timing;
  /** DELETEs in flight at once. */
  readonly concurrency?: number;
  /** First wait before trying again after going offline; doubles up to 2 minutes. */
  readonly offlineRetryMs?: number;
  /**
   * Whether the service is known to be unreachable now (the app's one
   * connectivity state). A DELETE left unanswered while it is not pauses
   * nothing: the order goes back in the queue and is tried again shortly.
   * Without it, every unanswered DELETE pauses the job.
   */
  readonly serviceUnreachable?: () => boolean;
  readonly onChange?: (snapshot: BulkCancelSnapshot) => void;
  /** Each result once it is journaled (the app adds it to the cancel log). */
  readonly onResult?: (result: BulkResult) => void | Promise<void>;
  /** What the cancel log knows of earlier cancels of an order, asked on a 404. */
  readonly earlierCancel?: (orderId: string) => Promise<EarlierCancel | undefined>;
  /**
   * Logs what the cancel log lacks of these: called with a stopped job's
   * cancels whose answer never came (unansweredAtStop), at the stop and as
   * each answer still on its way is lost.
   */
  readonly logJournaled?: (results: readonly BulkResult[]) => Promise<void>;
}

/** How long a background request may wait at the gate: a window reset, not a day. */
const MAX_GATE_WAIT_MS = 5 * 60_000;
const DEFAULT_WINDOW_MS = 60_000;
/** After an answer lost while the service still answers: the first wait, doubling up to the cap. */
const FIRST_LOST_DELAY_MS = 1_000;
const MAX_LOST_DELAY_MS = 30_000;

export class BulkCancelActiveError extends Error {}

export class BulkCancelQueue {
  readonly #deps: BulkCancelDeps;
  #job: JobState | undefined;
  #finishedAt: number | undefined;
  #workers: Promise<void> | undefined;
  /**
   * Aborted on pause, stop and quit: wakes sleeping workers, and stops the
   * calls still waiting at the gate (a DELETE already on its way is let
   * finish, and its answer recorded).
   */
  #wake = new AbortController();
  readonly #inFlight = new Set<string>();
  /** Of those, the orders whose DELETE has left: their answers can land after a pause or a stop. */
  readonly #sent = new Set<string>();
  #offlineDelay: number;
  #lostDelay = FIRST_LOST_DELAY_MS;
  #resumeTimer: AbortController | undefined;
  #quota: QuotaSnapshot = { known: false };
  #windowMs = DEFAULT_WINDOW_MS;
  #latencyMs = 200;
  #shuttingDown = false;
  /**
   * The cancel log's last write: results go to it one at a time, in the
   * journal's order. Two workers' answers can come at once, and the log's own
   * append (rotation included) is not made for two writers at a time.
   */
  #logged: Promise<void> = Promise.resolve();
  /** Writes still on their way to the cancel log: the job is not finished before them. */
  #logsPending = 0;
  /** A stopped job's unanswered cancels logged so far (BulkCancelSnapshot.unansweredLogged). */
  #unansweredLogged = 0;

  constructor(deps: BulkCancelDeps) {
    this.#deps = deps;
    this.#offlineDelay = deps.offlineRetryMs ?? 15_000;
  }

  /** Restores the last job from the journal and carries on if it was running. */
  async load(): Promise<void> {
    this.#job = replay(await this.#deps.journal.read());
    if (!this.#job) return;
    if (this.#isComplete()) {
      this.#finishedAt = this.#job.results.at(-1)?.at ?? this.#job.startedAt;
    } else if (
      this.#job.status === 'running' ||
      (this.#job.status === 'paused' && this.#job.reason === 'offline')
    ) {
      this.#job.status = 'running';
      this.#startWorkers();
    }
    this.#changed();
  }

  async start(orderIds: readonly string[]): Promise<BulkCancelSnapshot> {
    if (this.#job && !this.#finished()) {
      throw new BulkCancelActiveError(
        'A bulk cancel is already under way in this environment. Stop it or let it finish first.',
      );
    }
    const finished = this.#job?.jobId;
    if (finished) await this.#deps.journal.archive(finished);
    const unique = [...new Set(orderIds)];
    const jobId = randomUUID();
    const at = this.#deps.timing.now();
    try {
      await this.#deps.journal.append({ t: 'job', jobId, at, orderIds: unique });
    } catch (error) {
      if (finished) await this.#deps.journal.restore(finished);
      throw failure(
        'internal',
        `The bulk cancel was not started: Store Admin cannot save its journal in ${dirname(this.#deps.journal.file)} (${reasonWords(error)}). Nothing was sent.`,
        'not-sent',
      );
    }
    this.#unansweredLogged = 0;
    this.#job = {
      jobId,
      startedAt: at,
      orderIds: unique,
      items: new Map(unique.map((id) => [id, 'queued'])),
      sentAt: new Map(),
      results: [],
      status: 'running',
    };
    this.#finishedAt = undefined;
    this.#startWorkers();
    this.#changed();
    return this.snapshot()!;
  }

  async pause(reason: PauseReason = 'user', message?: string): Promise<void> {
    const job = this.#job;
    if (!job || this.#finished() || job.status === 'stopped') return;
    // The clerk's pause stands: a DELETE in flight when it came, failing after, does not turn
    // it into a pause that ends by itself.
    if (job.status === 'paused' && job.reason === 'user' && reason !== 'user') return;
    if (reason !== 'offline') this.#resumeTimer?.abort();
    job.status = 'paused';
    job.reason = reason;
    job.message = message;
    // At once, before anything is awaited: a hold ending meanwhile must not let a DELETE out.
    this.#interrupt();
    // A pause for the disk is not journaled (it cannot be): after a restart the job carries on.
    if (reason !== 'disk')
      await this.#write({
        t: 'status',
        at: this.#deps.timing.now(),
        status: 'paused',
        reason,
        ...(message ? { message } : {}),
      });
    if (reason === 'offline') this.#scheduleResume(this.#offlineDelay);
    this.#changed();
  }

  /** The service answers again: a job paused because it could not be reached carries on now. */
  async serviceAnswers(): Promise<void> {
    const job = this.#job;
    if (job?.status === 'paused' && job.reason === 'offline') await this.resume();
  }

  async resume(): Promise<void> {
    const job = this.#job;
    if (!job || job.status !== 'paused') return;
    this.#resumeTimer?.abort();
    job.status = 'running';
    job.reason = undefined;
    job.message = undefined;
    if (!(await this.#write({ t: 'status', at: this.#deps.timing.now(), status: 'running' })))
      return;
    this.#startWorkers();
    this.#changed();
  }

  /** Sends nothing more; answers already on their way are still recorded. */
  async stop(): Promise<void> {
    const job = this.#job;
    if (!job || this.#finished()) return;
    this.#resumeTimer?.abort();
    job.status = 'stopped';
    this.#interrupt(); // before the journal's write, as for a pause
    await this.#write({ t: 'status', at: this.#deps.timing.now(), status: 'stopped' });
    // Those still in a worker's hands are logged by it, if their answer never comes.
    await this.#logUnanswered((orderId) => !this.#inFlight.has(orderId));
    this.#changed();
  }

  /**
   * A stopped job's cancels that left and were never answered go to the cancel
   * log too (those `which` picks), before the change that counts them is told.
   */
  async #logUnanswered(which: (orderId: string) => boolean): Promise<void> {
    const job = this.#job;
    const { logJournaled } = this.#deps;
    if (!job || job.status !== 'stopped' || !logJournaled) return;
    const unanswered = unansweredAtStop(job).filter((result) => which(result.orderId));
    if (unanswered.length === 0) return;
    // A log that cannot be written now gets them when the job is next loaded (journaledForLog).
    if (
      await this.#toLog(() => logJournaled(unanswered))
        .then(() => true)
        .catch(() => false)
    )
      this.#unansweredLogged += unanswered.length;
  }

  /** One write to the cancel log, after those already on their way (#logged); counted in #logsPending meanwhile. */
  async #toLog(write: () => Promise<void> | void): Promise<void> {
    const logged = this.#logged.catch(() => undefined).then(write);
    this.#logged = logged;
    this.#logsPending += 1;
    try {
      await logged;
    } finally {
      this.#logsPending -= 1;
    }
  }

  /**
   * Closes the panel of a finished or stopped job, for good: journaled, so it
   * stays closed after a restart (answers still on their way after a stop are
   * recorded all the same). A job still under way is not dismissed.
   */
  async dismiss(): Promise<void> {
    const job = this.#job;
    if (!job || job.dismissed || !(this.#finished() || job.status === 'stopped')) return;
    await this.#deps.journal.append({ t: 'dismiss', at: this.#deps.timing.now() });
    job.dismissed = true;
    this.#changed();
  }

  /**
   * On quit: stop sending without recording a pause, so the job carries on
   * after the restart, and wait for answers already on their way.
   */
  async pauseForShutdown(): Promise<void> {
    this.#resumeTimer?.abort();
    this.#shuttingDown = true;
    this.#interrupt();
    await this.idle();
  }

  /** Resolves when no worker is running (for shutdown and tests). */
  async idle(): Promise<void> {
    while (this.#workers) await this.#workers;
  }

  /** Follows the key's quota, for the ETA. */
  observeQuota(quota: QuotaSnapshot): void {
    const previous = this.#quota.resetAt;
    if (previous !== undefined && quota.resetAt !== undefined && quota.resetAt - previous >= 1000) {
      // Two distinct resets one window apart tell the window's length.
      this.#windowMs = Math.min(quota.resetAt - previous, 24 * 3_600_000);
    }
    this.#quota = quota;
  }

  results(): readonly BulkResult[] {
    return this.#job?.results ?? [];
  }

  /** The orders without a result, but those on their way: never sent, or sent with no answer. */
  leftOver(): BulkLeftOver {
    const notSent: string[] = [];
    const unanswered: string[] = [];
    for (const [orderId, state] of this.#job?.items ?? []) {
      if (this.#sent.has(orderId)) continue;
      if (state === 'queued') notSent.push(orderId);
      else if (state === 'sent') unanswered.push(orderId);
    }
    return { notSent, unanswered };
  }

  snapshot(): BulkCancelSnapshot | undefined {
    const job = this.#job;
    if (!job) return undefined;
    const counts: Record<BulkOutcome, number> = {
      cancelled: 0,
      'already-shipped': 0,
      'not-found': 0,
      gone: 0,
      failed: 0,
    };
    for (const result of job.results) counts[result.outcome] += 1;
    const waiting = job.orderIds.length - job.results.length;
    const finished = this.#finished();
    return {
      environment: this.#deps.environment,
      jobId: job.jobId,
      // Finished once the last answer is in the cancel log too, not only in the journal.
      status: this.#isComplete() && this.#logsPending === 0 ? 'finished' : job.status,
      ...(job.status === 'paused' && job.reason ? { pauseReason: job.reason } : {}),
      ...(job.message && !finished ? { message: job.message } : {}),
      total: job.orderIds.length,
      counts: { ...counts, waiting },
      // An answer recorded is no longer on its way, though its worker has not let go of it yet.
      answersOnTheirWay: [...this.#sent].filter((orderId) => job.items.get(orderId) !== 'done')
        .length,
      unanswered: this.leftOver().unanswered.length,
      ...(this.#unansweredLogged > 0 ? { unansweredLogged: this.#unansweredLogged } : {}),
      startedAt: job.startedAt,
      ...(this.#finishedAt !== undefined ? { finishedAt: this.#finishedAt } : {}),
      ...(!finished && job.status === 'running' ? this.#eta(waiting) : {}),
      ...(job.dismissed ? { dismissed: true } : {}),
    };
  }

  #eta(waiting: number): { etaMs?: number } {
    const q = this.#quota;
    if (!q.known || q.limit === undefined) return {};
    const now = this.#deps.timing.now();
    const perWindow = Math.max(1, q.limit - RequestGate.backgroundReserve(q.limit));
    const windowOpen = q.resetAt !== undefined && q.resetAt > now;
    const usableNow = windowOpen
      ? Math.max(0, (q.remaining ?? 0) - RequestGate.backgroundReserve(q.limit))
      : perWindow;
    const concurrency = this.#deps.concurrency ?? 2;
    if (waiting <= usableNow)
      return { etaMs: Math.ceil((waiting * this.#latencyMs) / concurrency) };
    const untilReset = windowOpen ? q.resetAt - now : 0;
    const windows = Math.ceil((waiting - usableNow) / perWindow);
    return {
      etaMs:
        untilReset +
        (windows - 1) * this.#windowMs +
        Math.ceil(
          (((waiting - usableNow) % perWindow || perWindow) * this.#latencyMs) / concurrency,
        ),
    };
  }

  #finished(): boolean {
    const job = this.#job;
    return !!job && (this.#isComplete() || (job.status === 'stopped' && this.#inFlight.size === 0));
  }

  #isComplete(): boolean {
    const job = this.#job!;
    return job.results.length === job.orderIds.length;
  }

  #changed(): void {
    const snapshot = this.snapshot();
    if (snapshot) this.#deps.onChange?.(snapshot);
  }

  #interrupt(): void {
    this.#wake.abort();
    this.#wake = new AbortController();
  }

  #scheduleResume(delay: number): void {
    this.#resumeTimer?.abort();
    const timer = new AbortController();
    this.#resumeTimer = timer;
    // Only a job still waiting for the service carries on by itself.
    this.#deps.timing.sleep(delay, timer.signal).then(
      () => void this.serviceAnswers(),
      () => undefined,
    );
    this.#offlineDelay = Math.min(this.#offlineDelay * 2, 120_000);
  }

  #startWorkers(): void {
    if (this.#workers) return;
    const count = this.#deps.concurrency ?? 2;
    const run = Promise.all(Array.from({ length: count }, () => this.#work())).then(() => {
      this.#workers = undefined;
      if (this.#job && this.#isComplete() && this.#finishedAt === undefined) {
        this.#finishedAt = this.#deps.timing.now();
      }
      this.#changed();
    });
    this.#workers = run;
  }

  /** Queued orders first; then those sent without a known answer (continued, not restarted). */
  #next(): { orderId: string; unknown: boolean } | undefined {
    const job = this.#job!;
    let unknown: string | undefined;
    for (const id of job.orderIds) {
      if (this.#inFlight.has(id)) continue;
      const state = job.items.get(id);
      if (state === 'queued') return { orderId: id, unknown: false };
      if (state === 'sent' && unknown === undefined) unknown = id;
    }
    return unknown === undefined ? undefined : { orderId: unknown, unknown: true };
  }

  async #work(): Promise<void> {
    const { timing } = this.#deps;
    for (;;) {
      const job = this.#job;
      if (!job || job.status !== 'running' || this.#shuttingDown) return;
      const next = this.#next();
      if (!next) return;
      const { orderId, unknown } = next;
      // Taken before anything is awaited: a pause, a stop or a quit from now on stops this order's call.
      const stop = this.#wake.signal;
      this.#inFlight.add(orderId);
      try {
        // On the disk before the DELETE leaves, or it does not leave.
        const leaves = timing.now();
        if (!(await this.#write({ t: 'send', orderId, at: leaves }))) return;
        job.items.set(orderId, 'sent');
        job.sentAt.set(orderId, leaves);
        const client = await this.#deps.client();
        const sentAt = timing.now();
        const { earlierCancel } = this.#deps;
        const outcome = await client.cancelOrder(orderId, {
          // A pause, a stop or a quit ends its wait at the gate: nothing leaves after it.
          stop,
          onSent: () => this.#sent.add(orderId),
          priority: 'background',
          maxWaitMs: MAX_GATE_WAIT_MS,
          previousAttemptUnknown: unknown,
          ...(earlierCancel ? { earlierCancel: () => earlierCancel(orderId) } : {}),
        });
        this.#latencyMs = Math.max(1, timing.now() - sentAt);
        this.#offlineDelay = this.#deps.offlineRetryMs ?? 15_000;
        this.#lostDelay = FIRST_LOST_DELAY_MS;
        await this.#record({
          orderId,
          outcome: outcome.kind,
          message:
            unknown && outcome.kind === 'cancelled'
              ? `${outcome.message} An earlier try's answer was lost; the service says this one cancelled it.`
              : outcome.message,
          at: timing.now(),
          ...(unknown ? { continued: true } : {}),
          ...(outcome.listedAt !== undefined ? { listedAt: outcome.listedAt } : {}),
        });
      } catch (error) {
        await this.#failed(orderId, error, unknown);
      } finally {
        // Stopped with this order's answer lost: it may have been cancelled, and the log says so
        // before the order stops counting as on its way.
        await this.#logUnanswered((id) => id === orderId);
        this.#inFlight.delete(orderId);
        this.#sent.delete(orderId);
        this.#changed();
      }
    }
  }

  async #record(result: BulkResult): Promise<void> {
    const job = this.#job!;
    if (job.items.get(result.orderId) === 'done') return;
    // Kept in memory even when the journal cannot take it: the answer is known.
    await this.#write({ t: 'result', ...result });
    job.items.set(result.orderId, 'done');
    job.results.push(result);
    const { onResult } = this.#deps;
    if (onResult) await this.#toLog(() => onResult(result));
  }

  /**
   * Waits before the next order, unless the job is no longer running: a
   * pause, a stop or a quit that came while this worker's DELETE was on its
   * way must not be held up by a wait it asked for afterwards.
   */
  async #wait(ms: number): Promise<void> {
    if (this.#job?.status !== 'running' || this.#shuttingDown) return;
    await this.#deps.timing.sleep(ms, this.#wake.signal).catch(() => undefined);
  }

  async #requeue(orderId: string): Promise<void> {
    await this.#write({ t: 'requeue', orderId, at: this.#deps.timing.now() });
    this.#job!.items.set(orderId, 'queued');
  }

  /**
   * Journals a line. When it cannot be saved (a full or read-only disk), the
   * job pauses: without its journal a crash could lose track of a cancel, so
   * no DELETE leaves until it can be written again. Returns whether it was saved.
   */
  async #write(line: JournalLine): Promise<boolean> {
    try {
      await this.#deps.journal.append(line);
      return true;
    } catch (error) {
      const job = this.#job;
      if (job && job.status === 'running') {
        const folder = dirname(this.#deps.journal.file);
        await this.pause(
          'disk',
          `The bulk cancel is paused: Store Admin cannot save its journal in ${folder} (${reasonWords(error)}), and without it a crash could lose track of a cancel. Free some space (or fix the folder), then resume.`,
        );
      }
      return false;
    }
  }

  async #failed(orderId: string, error: unknown, continued: boolean): Promise<void> {
    const { timing } = this.#deps;
    const earlier = continued ? { continued: true } : {};
    if (!isStoreApiError(error)) {
      await this.#record({
        orderId,
        outcome: 'failed',
        message: 'Something went wrong inside Store Admin.',
        at: timing.now(),
        delivery: 'unknown',
        ...earlier,
      });
      return;
    }
    const { kind, delivery, message, retryAt } = error.failure;
    // Not sent, or refused without acting: the order goes back in the queue.
    const backInQueue =
      delivery !== 'unknown' ? () => this.#requeue(orderId) : async () => undefined;
    switch (kind) {
      case 'rate-limited': {
        await backInQueue();
        // Until the hold's end by the clock (after a sleep, not a timer's full wait); the gate
        // then lets the workers go on one at a time until an answer shows the quota again.
        if (this.#job?.status !== 'running' || this.#shuttingDown) return;
        await sleepUntil(timing, retryAt ?? timing.now() + 1000, this.#wake.signal).catch(
          () => undefined,
        );
        return;
      }
      case 'banned':
        await backInQueue();
        await this.pause(
          'banned',
          `${message} The bulk cancel is paused; resume it after ${clockTime(retryAt ?? timing.now())}.`,
        );
        return;
      case 'network':
      case 'timeout': {
        // An unknown answer stays "sent": the next try continues it.
        await backInQueue();
        const unreachable = this.#deps.serviceUnreachable?.() ?? true;
        if (unreachable) {
          await this.pause(
            'offline',
            `${message} The bulk cancel is paused and tries again by itself.`,
          );
          return;
        }
        // An answer lost while the service answers others: a short wait, then on.
        const wait = this.#lostDelay;
        this.#lostDelay = Math.min(this.#lostDelay * 2, MAX_LOST_DELAY_MS);
        await this.#wait(wait);
        return;
      }
      case 'unauthorized':
      case 'no-key':
        await backInQueue();
        await this.pause('key', `${message} The bulk cancel is paused until the key is fixed.`);
        return;
      case 'aborted':
        await backInQueue();
        return;
      default:
        await this.#record({
          orderId,
          outcome: 'failed',
          message,
          at: timing.now(),
          delivery,
          ...earlier,
        });
    }
  }
}
