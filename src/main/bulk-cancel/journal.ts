// The bulk-cancel journal: one JSON line per event, appended, per service
// (an environment's address: see service-scope.ts). A `send` line is written
// before each DELETE goes out and a `result` line when its answer is known,
// so after a crash the replay knows exactly which orders were sent without an
// answer: those are continued, not started anew. A torn last line (a crash
// mid-append) is skipped, and so is any line that is not one of the lines
// below (a damaged one). The `job` and `send` lines are fsynced before the
// append resolves, so a power cut cannot lose the record of a DELETE that
// left (it flushes every line before it too). A finished job's journal is
// kept aside as the next job starts, the newest KEPT_ARCHIVES per service.

import { readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { BulkOutcome, BulkResult, BulkStatus, PauseReason } from '../../shared/bulk-cancel.ts';
import type { Delivery } from '../../shared/failures.ts';
import { scopedFileName, type ServiceScope } from '../environments/service-scope.ts';
import { DATA_FILES, NewerDataError, tellNewer } from '../local-data/data-files.ts';
import { lazySchema } from '../local-data/lazy-schema.ts';
import { nodeFiles, type LocalFiles } from '../local-data/local-files.ts';

export type JournalLine =
  | {
      readonly t: 'job';
      readonly jobId: string;
      readonly at: number;
      readonly orderIds: readonly string[];
    }
  | { readonly t: 'send'; readonly orderId: string; readonly at: number }
  | {
      readonly t: 'result';
      readonly orderId: string;
      readonly at: number;
      readonly outcome: BulkOutcome;
      readonly message: string;
      readonly delivery?: Delivery;
      readonly continued?: boolean;
      readonly listedAt?: number;
    }
  | { readonly t: 'requeue'; readonly orderId: string; readonly at: number }
  | {
      readonly t: 'status';
      readonly at: number;
      readonly status: Exclude<BulkStatus, 'finished'>;
      readonly reason?: PauseReason;
      readonly message?: string;
    }
  /** The clerk closed the panel of the job, once it was finished or stopped. */
  | { readonly t: 'dismiss'; readonly at: number };

const journalLineSchema = lazySchema<JournalLine>((z) => {
  const at = z.number();
  const orderId = z.string();
  return z.discriminatedUnion('t', [
    z.object({ t: z.literal('job'), jobId: z.string(), at, orderIds: z.array(z.string()) }),
    z.object({ t: z.literal('send'), orderId, at }),
    z.object({
      t: z.literal('result'),
      orderId,
      at,
      outcome: z.enum(['cancelled', 'already-shipped', 'not-found', 'gone', 'failed']),
      message: z.string(),
      delivery: z.enum(['not-sent', 'answered', 'unknown']).optional(),
      continued: z.boolean().optional(),
      listedAt: z.number().optional(),
    }),
    z.object({ t: z.literal('requeue'), orderId, at }),
    z.object({
      t: z.literal('status'),
      at,
      status: z.enum(['running', 'paused', 'stopped']),
      reason: z.enum(['user', 'offline', 'key', 'banned', 'disk']).optional(),
      message: z.string().optional(),
    }),
    z.object({ t: z.literal('dismiss'), at }),
  ]);
});

/** The format of the lines written; a line without `v` is version 1 (every release before 0.5.0). */
const VERSION = DATA_FILES.bulkJournal.version;

export type ItemState = 'queued' | 'sent' | 'done';

export interface JobState {
  readonly jobId: string;
  readonly startedAt: number;
  readonly orderIds: readonly string[];
  readonly items: Map<string, ItemState>;
  /** When each order's cancel last left (its `send` line). */
  readonly sentAt: Map<string, number>;
  readonly results: BulkResult[];
  status: Exclude<BulkStatus, 'finished'>;
  reason?: PauseReason;
  message?: string;
  dismissed?: boolean;
}

/** Rebuilds the last job from its journal lines. */
export function replay(lines: readonly JournalLine[]): JobState | undefined {
  let job: JobState | undefined;
  for (const line of lines) {
    if (line.t === 'job') {
      job = {
        jobId: line.jobId,
        startedAt: line.at,
        orderIds: line.orderIds,
        items: new Map(line.orderIds.map((id) => [id, 'queued'])),
        sentAt: new Map(),
        results: [],
        status: 'running',
      };
      continue;
    }
    if (!job) continue;
    switch (line.t) {
      case 'send':
        if (job.items.get(line.orderId) !== 'done') {
          job.items.set(line.orderId, 'sent');
          job.sentAt.set(line.orderId, line.at);
        }
        break;
      case 'requeue':
        if (job.items.get(line.orderId) === 'sent') job.items.set(line.orderId, 'queued');
        break;
      case 'result':
        // One result per order, whatever the journal holds: the first one stands.
        if (job.items.get(line.orderId) !== 'done' && job.items.has(line.orderId)) {
          job.items.set(line.orderId, 'done');
          job.results.push({
            orderId: line.orderId,
            outcome: line.outcome,
            message: line.message,
            at: line.at,
            ...(line.delivery ? { delivery: line.delivery } : {}),
            ...(line.continued ? { continued: true } : {}),
            ...(line.listedAt !== undefined ? { listedAt: line.listedAt } : {}),
          });
        }
        break;
      case 'status':
        job.status = line.status;
        job.reason = line.reason;
        job.message = line.message;
        break;
      case 'dismiss':
        job.dismissed = true;
        break;
    }
  }
  return job;
}

/** The cancel log's words for a cancel that left and was stopped before its answer came. */
export const UNANSWERED_AT_STOP =
  'Sent before the bulk cancel was stopped; its answer never came. Refresh to see whether it was cancelled.';

/**
 * A stopped job's cancels that left and whose answer never came, as the
 * cancel log takes them (at the time each left), as a single cancel whose
 * answer was lost is logged. None while the job may still send them again.
 */
export function unansweredAtStop(job: JobState): BulkResult[] {
  if (job.status !== 'stopped') return [];
  return [...job.items]
    .filter(([, state]) => state === 'sent')
    .map(([orderId]) => ({
      orderId,
      outcome: 'failed',
      message: UNANSWERED_AT_STOP,
      at: job.sentAt.get(orderId) ?? job.startedAt,
      delivery: 'unknown',
    }));
}

/**
 * What a job's journal gives the cancel log: its answers and what it left
 * unanswered at a stop. The log then holds every cancel that left, so the
 * order's row and a later cancel of it know it may have been cancelled.
 */
export function journaledForLog(job: JobState | undefined): BulkResult[] {
  return job ? [...job.results, ...unansweredAtStop(job)] : [];
}

/** Finished jobs' journals kept aside per service; older ones are deleted as a new job starts. */
export const KEPT_ARCHIVES = 10;

export interface JournalOptions {
  /** Where lines are written (the real disk by default). */
  readonly files?: LocalFiles;
  /** fsync `job` and `send` lines (default true; off only to measure what it costs). */
  readonly sync?: boolean;
}

/** What follows the journal's name in an archive's: the job's id (a UUID). */
const ARCHIVED_JOB = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/;

export class BulkJournal {
  readonly #file: string;
  readonly #files: LocalFiles;
  readonly #sync: boolean;
  #tail: Promise<void> = Promise.resolve();

  constructor(dir: string, scope: ServiceScope, options: JournalOptions = {}) {
    this.#file = join(dir, scopedFileName('bulk-cancel', scope));
    this.#files = options.files ?? nodeFiles();
    this.#sync = options.sync ?? true;
  }

  get file(): string {
    return this.#file;
  }

  /** Appends in call order; resolves once the line is written (and, for `job` and `send`, on the disk). */
  append(line: JournalLine): Promise<void> {
    const sync = this.#sync && (line.t === 'send' || line.t === 'job');
    this.#tail = this.#tail
      .catch(() => undefined)
      .then(() =>
        this.#files.append(this.#file, `${JSON.stringify({ v: VERSION, ...line })}\n`, { sync }),
      );
    return this.#tail;
  }

  /**
   * The journal's lines. A journal holding a line of a later version (a
   * newer release's job) reads as none: a job this version cannot read
   * whole is never carried on, and the file is left as it is.
   */
  async read(): Promise<JournalLine[]> {
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch {
      return [];
    }
    const schema = await journalLineSchema();
    const lines: JournalLine[] = [];
    for (const raw of text.split('\n')) {
      if (!raw) continue;
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        continue; // torn by a crash mid-append
      }
      const v = (json as { v?: unknown } | null)?.v;
      if (typeof v === 'number' && v > VERSION) {
        tellNewer(new NewerDataError(this.#file, v, VERSION));
        return [];
      }
      const line = schema.safeParse(json);
      if (line.success) lines.push(line.data);
    }
    return lines;
  }

  /**
   * Keeps a finished job's journal aside before a new one starts, with the
   * KEPT_ARCHIVES - 1 newest before it; older ones are deleted.
   */
  async archive(jobId: string): Promise<void> {
    await this.#tail.catch(() => undefined);
    await rename(this.#file, this.#archiveOf(jobId)).catch(() => undefined);
    await this.#dropOldArchives(jobId);
  }

  /** Best effort: an archive that cannot be deleted now is deleted at a later start. */
  async #dropOldArchives(kept: string): Promise<void> {
    const dir = dirname(this.#file);
    const prefix = `${basename(this.#file, '.jsonl')}.`;
    const names = await readdir(dir).catch(() => [] as string[]);
    const archives = await Promise.all(
      names
        .filter(
          (name) =>
            name.startsWith(prefix) &&
            ARCHIVED_JOB.test(name.slice(prefix.length)) &&
            name !== basename(this.#archiveOf(kept)),
        )
        .map(async (name) => ({
          file: join(dir, name),
          at: await stat(join(dir, name)).then(
            (found) => found.mtimeMs,
            () => 0,
          ),
        })),
    );
    const newestFirst = archives.sort((a, b) => b.at - a.at);
    await Promise.all(
      newestFirst
        .slice(KEPT_ARCHIVES - 1)
        .map(({ file }) => rm(file, { force: true }).catch(() => undefined)),
    );
  }

  /** Puts an archived journal back: the new job could not be written (a full disk). */
  async restore(jobId: string): Promise<void> {
    await rename(this.#archiveOf(jobId), this.#file).catch(() => undefined);
  }

  #archiveOf(jobId: string): string {
    return this.#file.replace(/\.jsonl$/, `.${jobId}.jsonl`);
  }
}
