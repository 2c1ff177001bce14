// store-admin orders cancel --from FILE [--resume]: the app's bulk cancel from
// the command line. The same journaled, paced queue (src/main/bulk-cancel),
// its journal in the data folder per service address, so a run that is
// killed or crashes is continued with --resume: an order sent without a
// known answer is continued (and its result says so), never started anew,
// never counted twice. One run per address at a time (a lock file).

import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { BulkCancelSnapshot, BulkOutcome, BulkResult } from '../shared/bulk-cancel.ts';
import type { Delivery } from '../shared/failures.ts';
import { BulkJournal, journaledForLog, replay } from '../main/bulk-cancel/journal.ts';
import { BulkCancelQueue } from '../main/bulk-cancel/queue.ts';
import { serviceScope, type ServiceScope } from '../main/environments/service-scope.ts';
import type { Timing } from '../main/store-api/clock.ts';
import type { RequestGate } from '../main/quota/gate.ts';
import { lock, LockHeldError } from '../main/local-data/file-lock.ts';
import { makeFolder } from '../main/local-data/local-files.ts';
import { reasonWords, storageErrorCode } from '../main/local-data/storage-health.ts';
import { sleep } from '../main/store-api/clock.ts';
import type { StoreClient } from '../main/store-api/client.ts';
import type { EarlierCancel } from '../main/store-api/errors.ts';
import { OrderIdFileError, parseOrderIdFile } from './order-id-file.ts';
import type { CliIo } from './run.ts';

export const BULK_EXIT = { ok: 0, failed: 1, usage: 2, held: 8 } as const;

/** How often the CLI waits out the service being unreachable before it stops (resume later). */
const OFFLINE_PAUSES = 3;
const PROGRESS_EVERY_MS = 1000;

export interface BulkCancelRequest {
  readonly from?: string;
  readonly resume: boolean;
  readonly json: boolean;
}

export interface BulkCancelContext {
  readonly baseUrl: string;
  readonly client: StoreClient;
  /** The client's gate, whose quota gives the ETA. */
  readonly gate: RequestGate;
  readonly dataDir: string;
  readonly io: CliIo;
  readonly timing: Timing;
  /** Whether stderr is a terminal: the progress line is rewritten in place. */
  readonly tty?: boolean;
  /** Each result once it is journaled (logged as single cancels are, for orders changes). */
  readonly onResult?: (result: BulkResult) => void | Promise<void>;
  /** Logs the answers a job's journal holds and the cancel log lacks (a crash between the two lines). */
  readonly logJournaled?: (results: readonly BulkResult[]) => Promise<void>;
  /** What the cancel log knows of earlier cancels of an order, asked on a 404. */
  readonly earlierCancel?: (orderId: string) => Promise<EarlierCancel | undefined>;
}

/** The CLI's own journal per address: apart from the app's, so both can run. */
function cliScope(baseUrl: string): ServiceScope {
  const scope = serviceScope('production', baseUrl);
  return { ...scope, key: scope.key.replace(/^production-/, 'cli-') };
}

class UsageProblem extends Error {}

/** A run's lock stands still this long before another run takes it over (its holder hung or died). */
const LOCK_STALE_MS = 5_000;
/** A lock naming a process that is gone is taken over once it has stood still this long. */
const LOCK_GONE_AFTER_MS = 2_500;
/** How often a run that found the lock held looks again. */
const LOCK_LOOK_MS = 250;

/**
 * One run per address. A lock held by a live run is refused as soon as that
 * run is seen keeping it fresh; one whose run is gone or hung is taken over
 * (at once, or after LOCK_STALE_MS), never left to block --resume for ever.
 */
async function takeLock(file: string, onTakenOver: () => void): Promise<() => Promise<void>> {
  const giveUpAt = Date.now() + LOCK_STALE_MS + 2_000;
  let firstLook: number | undefined;
  for (;;) {
    try {
      return await lock(file, {
        staleMs: LOCK_STALE_MS,
        goneAfterMs: LOCK_GONE_AFTER_MS,
        onCompromised: onTakenOver,
      });
    } catch (error) {
      if (!(error instanceof LockHeldError)) throw error;
      const look = lockTouchedAt(file);
      firstLook ??= look;
      if ((look !== undefined && look !== firstLook) || Date.now() > giveUpAt)
        throw new UsageProblem(
          `another store-admin run${error.pid !== undefined ? ` (process ${error.pid})` : ''} is cancelling orders at this address; let it finish first`,
        );
      await sleep(LOCK_LOOK_MS);
    }
  }
}

function lockTouchedAt(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

const OUTCOME_WORDS: Readonly<Record<BulkOutcome, string>> = {
  cancelled: 'cancelled',
  'already-shipped': 'already shipped',
  'not-found': 'not found',
  gone: 'gone',
  failed: 'failed',
};

function countsText(snapshot: BulkCancelSnapshot): string {
  const parts = (Object.keys(OUTCOME_WORDS) as BulkOutcome[])
    .filter((outcome) => snapshot.counts[outcome] > 0)
    .map((outcome) => `${snapshot.counts[outcome]} ${OUTCOME_WORDS[outcome]}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function progressLine(snapshot: BulkCancelSnapshot): string {
  const done = snapshot.total - snapshot.counts.waiting;
  const eta =
    snapshot.etaMs !== undefined && snapshot.status === 'running'
      ? `, about ${Math.max(1, Math.round(snapshot.etaMs / 60_000))} min left`
      : '';
  const paused = snapshot.status === 'paused' && snapshot.message ? ` ${snapshot.message}` : '';
  return `Cancelling: ${done} of ${snapshot.total} done${countsText(snapshot)}${eta}.${paused}`;
}

/** What each result says about delivery: did the service answer this order's cancel? */
function deliveryOf(result: BulkResult): Delivery {
  if (result.delivery) return result.delivery;
  return result.outcome === 'gone' ? 'unknown' : 'answered';
}

export async function runBulkCancel(
  request: BulkCancelRequest,
  context: BulkCancelContext,
): Promise<number> {
  const { io, timing } = context;
  const usage = (message: string): number => {
    io.stderr(`store-admin: ${message}. Try --help.\n`);
    return BULK_EXIT.usage;
  };

  let fileIds: string[] | undefined;
  if (request.from !== undefined) {
    let text: string;
    try {
      text = await readFile(request.from, 'utf8');
    } catch (error) {
      return usage(
        `--from: cannot read ${request.from} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    try {
      const list = parseOrderIdFile(text);
      fileIds = list.ids;
      if (list.duplicates > 0)
        io.stderr(
          `${list.duplicates} order numbers appear more than once; each is cancelled once.\n`,
        );
    } catch (error) {
      if (error instanceof OrderIdFileError)
        return usage(`--from ${request.from}: ${error.message}`);
      throw error;
    }
  }

  const journal = new BulkJournal(context.dataDir, cliScope(context.baseUrl));
  let unlock: () => Promise<void>;
  let takenOver = false;
  let interrupt: () => void = () => undefined;
  try {
    makeFolder(context.dataDir);
    unlock = await takeLock(`${journal.file}.lock`, () => {
      // Hung past the stale time (a system sleep): another run may have started; stop sending.
      takenOver = true;
      interrupt();
    });
  } catch (error) {
    if (error instanceof UsageProblem) return usage(error.message);
    if (storageErrorCode(error) === undefined) throw error;
    io.stderr(
      `store-admin: the bulk cancel cannot start: Store Admin cannot write its journal in ${context.dataDir} because ${reasonWords(error)}, and without it a crash could lose track of a cancel. Nothing was sent. Set STORE_ADMIN_DATA_DIR to a folder it can write.\n`,
    );
    return BULK_EXIT.failed;
  }
  try {
    const earlier = replay(await journal.read());
    // The journal is the truth: answers a crash kept out of the cancel log are logged first.
    await context.logJournaled?.(journaledForLog(earlier));
    const unfinished =
      earlier !== undefined &&
      earlier.status !== 'stopped' &&
      earlier.results.length < earlier.orderIds.length
        ? earlier
        : undefined;
    if (unfinished && !request.resume) {
      return usage(
        `a bulk cancel at this address is unfinished (${unfinished.results.length} of ${unfinished.orderIds.length} done); run with --resume to finish it first`,
      );
    }
    if (unfinished && fileIds) {
      const same =
        fileIds.length === unfinished.orderIds.length &&
        fileIds.every((id) => unfinished.items.has(id));
      if (!same)
        return usage(
          `the unfinished bulk cancel at this address has other orders than ${request.from}; run --resume without --from to finish it`,
        );
    }
    if (!unfinished && !fileIds)
      return usage('nothing to resume: no unfinished bulk cancel at this address');

    let lastProgress = 0;
    let printed = '';
    const showProgress = (snapshot: BulkCancelSnapshot, force = false): void => {
      const now = timing.now();
      if (!force && now - lastProgress < PROGRESS_EVERY_MS) return;
      lastProgress = now;
      const line = progressLine(snapshot);
      if (line === printed) return;
      printed = line;
      io.stderr(context.tty ? `\r\x1b[2K${line}` : `${line}\n`);
    };
    let changed: (() => void) | undefined;
    const queue = new BulkCancelQueue({
      environment: 'production',
      journal,
      client: async () => context.client,
      timing,
      offlineRetryMs: 5_000,
      ...(context.onResult ? { onResult: context.onResult } : {}),
      ...(context.earlierCancel ? { earlierCancel: context.earlierCancel } : {}),
      onChange: (snapshot) => {
        showProgress(snapshot);
        changed?.();
      },
    });
    const stopWatching = context.gate.onChange((quota) => queue.observeQuota(quota));
    // Ctrl-C: send nothing more, wait for the answers on their way, and leave the
    // rest to --resume, so no order is left with an unknown answer. A second one kills.
    let interrupted = false;
    const onSignal = (): void => {
      interrupted = true;
      void queue.pauseForShutdown();
      changed?.();
    };
    interrupt = onSignal;
    if (takenOver) onSignal();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      if (unfinished) {
        await queue.load();
        if (queue.snapshot()?.status === 'paused') await queue.resume();
      } else {
        await queue.load(); // a finished job: its journal is kept aside as the new one starts
        await queue.start(fileIds!);
      }
      let offlinePauses = 0;
      for (;;) {
        await queue.idle();
        const snapshot = queue.snapshot()!;
        if (snapshot.status === 'finished' || interrupted) break;
        if (snapshot.status === 'paused' && snapshot.pauseReason === 'offline') {
          if (++offlinePauses > OFFLINE_PAUSES) break;
          // The queue tries again by itself; wait for it.
          await new Promise<void>((resolve) => (changed = resolve));
          changed = undefined;
          continue;
        }
        if (snapshot.status !== 'running') break;
      }
      await queue.pauseForShutdown();
    } finally {
      stopWatching();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    const snapshot = queue.snapshot()!;
    showProgress(snapshot, true);
    if (context.tty && printed) io.stderr('\n');
    return report(request, snapshot, queue.results(), io);
  } finally {
    await unlock();
    if (takenOver)
      io.stderr(
        'store-admin: this run stood still so long that its lock was taken over; it stopped sending. Finish with --resume once no other run is cancelling at this address.\n',
      );
  }
}

function report(
  request: BulkCancelRequest,
  snapshot: BulkCancelSnapshot,
  results: readonly BulkResult[],
  io: CliIo,
): number {
  const finished = snapshot.status === 'finished';
  const known = finished && snapshot.counts.failed === 0;
  const exit = known
    ? BULK_EXIT.ok
    : snapshot.pauseReason === 'banned'
      ? BULK_EXIT.held
      : BULK_EXIT.failed;
  const unfinishedWords = finished
    ? undefined
    : `${snapshot.message ?? 'The bulk cancel stopped.'} ${snapshot.counts.waiting} orders are not done yet: run the same command with --resume to finish them.`;
  if (request.json) {
    io.stdout(
      `${JSON.stringify({
        ok: known,
        results: results.map((r) => ({
          orderId: r.orderId,
          outcome: r.outcome,
          delivery: deliveryOf(r),
          message: r.message,
          ...(r.continued ? { continued: true } : {}),
        })),
        counts: snapshot.counts,
        ...(unfinishedWords ? { unfinished: unfinishedWords } : {}),
      })}\n`,
    );
    return exit;
  }
  for (const r of results)
    if (r.outcome !== 'cancelled' || r.continued) io.stdout(`${r.message}\n`);
  io.stdout(
    `${finished ? 'Done' : 'Not finished'}: ${snapshot.total - snapshot.counts.waiting} of ${snapshot.total} orders${countsText(snapshot)}.\n`,
  );
  if (unfinishedWords) io.stderr(`${unfinishedWords}\n`);
  return exit;
}
