// The local record of every cancel attempt, per service (an environment's
// address: see service-scope.ts): one JSON line per attempt, appended. An
// append either lands whole or leaves a torn last line, which reading skips
// (as it skips any line that is not an entry), so a crash never loses earlier
// entries. Past a size the log starts afresh and keeps the one before it
// (`.previous.jsonl`, replacing an older one): reading gives both, so the
// newest entries are always there and the two files stay within twice that size.
// The app and the command line keep one log per service: each append (with
// the rotation before it) holds the log's lock, so two writers never tear a
// line or rotate each other's entries away.

import { readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BulkResult } from '../../shared/bulk-cancel.ts';
import type { EnvironmentId } from '../../shared/environments.ts';
import type { CancelLogEntry } from '../../shared/orders-local.ts';
import { scopedFileName, type ServiceScope } from '../environments/service-scope.ts';
import { DATA_FILES, NewerDataError, tellNewer } from '../local-data/data-files.ts';
import { inFileSection } from '../local-data/file-section.ts';
import { lazySchema } from '../local-data/lazy-schema.ts';
import { nodeFiles, type LocalFiles } from '../local-data/local-files.ts';
import { storageErrorCode } from '../local-data/storage-health.ts';
import type { EarlierCancel } from '../store-api/errors.ts';

const logEntrySchema = lazySchema<CancelLogEntry>((z) =>
  z.object({
    at: z.number(),
    environment: z.enum(['sandbox', 'staging', 'production']),
    orderId: z.string(),
    result: z.enum(['cancelled', 'not-found', 'gone', 'already-shipped', 'failed']),
    message: z.string(),
    delivery: z.enum(['not-sent', 'answered', 'unknown']).optional(),
    listedAt: z.number().optional(),
  }),
);

/** A bulk cancel's result as the log keeps it (the app's and the command line's alike). */
export function cancelLogEntryOf(environment: EnvironmentId, result: BulkResult): CancelLogEntry {
  return {
    at: result.at,
    environment,
    orderId: result.orderId,
    result: result.outcome,
    message: result.message,
    ...(result.delivery ? { delivery: result.delivery } : {}),
    ...(result.listedAt !== undefined ? { listedAt: result.listedAt } : {}),
  };
}

/**
 * A bulk cancel's answers that the log lacks: the journal's `result` line
 * is written before the log's line, so a crash between the two leaves the
 * answer in the journal alone. The journal is the truth: these are logged
 * when the job is next loaded. An entry matches its result by order, time
 * and outcome (the log keeps the journal's time).
 */
export function unloggedResults(
  results: readonly BulkResult[],
  logged: readonly CancelLogEntry[],
): BulkResult[] {
  const keyOf = (orderId: string, at: number, outcome: string) => `${orderId} ${at} ${outcome}`;
  const known = new Set(logged.map((entry) => keyOf(entry.orderId, entry.at, entry.result)));
  return results.filter((result) => !known.has(keyOf(result.orderId, result.at, result.outcome)));
}

/**
 * What the log knows of earlier cancels of an order: the last one the
 * service confirmed, and the last one that went out without an answer that
 * said what the service did (a lost answer, or one the interface does not
 * define), unless a confirmed cancel came after it.
 */
export function earlierCancelOf(
  entries: readonly CancelLogEntry[],
  orderId: string,
): EarlierCancel | undefined {
  let cancelledAt: number | undefined;
  let unknownAt: number | undefined;
  for (const entry of entries) {
    if (entry.orderId !== orderId) continue;
    if (entry.result === 'cancelled') cancelledAt = entry.at;
    else if (entry.result === 'gone' || entry.delivery === 'unknown') unknownAt = entry.at;
  }
  if (cancelledAt !== undefined) return { cancelledAt };
  return unknownAt !== undefined ? { unknownAt } : undefined;
}

/** The format of the lines written; a line without `v` is version 1 (every release before 0.5.0). */
const VERSION = DATA_FILES.cancelLog.version;

/** An entry as one line of the log. */
function lineOf(entry: CancelLogEntry): string {
  return `${JSON.stringify({ v: VERSION, ...entry })}\n`;
}

/** The size at which a log starts afresh: about 5,000 entries. */
export const CANCEL_LOG_ROTATE_BYTES = 1024 * 1024;

export interface CancelLogOptions {
  /** The size at which a log starts afresh (CANCEL_LOG_ROTATE_BYTES by default). */
  readonly rotateAtBytes?: number;
}

export class CancelLog {
  readonly #dir: string;
  readonly #files: LocalFiles;
  readonly #rotateAtBytes: number;
  /** Entries a full or read-only disk would not take, by scope key: kept for this session. */
  readonly #unsaved = new Map<string, CancelLogEntry[]>();

  constructor(dir: string, files: LocalFiles = nodeFiles(), options: CancelLogOptions = {}) {
    this.#dir = dir;
    this.#files = files;
    this.#rotateAtBytes = options.rotateAtBytes ?? CANCEL_LOG_ROTATE_BYTES;
  }

  #file(scope: ServiceScope): string {
    return join(this.#dir, scopedFileName('cancel-log', scope));
  }

  #previousFile(scope: ServiceScope): string {
    return this.#file(scope).replace(/\.jsonl$/, '.previous.jsonl');
  }

  /**
   * Makes a full log the previous one (the older previous log is dropped).
   * Best effort: a rename that fails (a file another program holds open on
   * Windows) is tried again at the next append. Two processes rotating at
   * once can drop one more old log, never the newest entries.
   */
  async #rotateIfFull(scope: ServiceScope): Promise<void> {
    const file = this.#file(scope);
    const size = await stat(file).then(
      (found) => found.size,
      () => 0,
    );
    if (size < this.#rotateAtBytes) return;
    await rename(file, this.#previousFile(scope)).catch(() => undefined);
  }

  /** Appends to the log of the service the attempt went to. */
  async append(scope: ServiceScope, entry: CancelLogEntry): Promise<void> {
    if (entry.environment !== scope.environment)
      throw new TypeError('A cancel log entry belongs to its own environment.');
    try {
      // The app and a command-line run append to one log: a rotation and an append are one step.
      await inFileSection(this.#file(scope), async () => {
        await this.#rotateIfFull(scope);
        await this.#files.append(this.#file(scope), lineOf(entry));
      });
    } catch (error) {
      if (storageErrorCode(error) === undefined) throw error;
      this.#unsaved.set(scope.key, [...(this.#unsaved.get(scope.key) ?? []), entry]);
    }
  }

  async read(scope: ServiceScope): Promise<CancelLogEntry[]> {
    const { environment } = scope;
    const unsaved = this.#unsaved.get(scope.key) ?? [];
    const [previous, current] = await Promise.all(
      [this.#previousFile(scope), this.#file(scope)].map((file) =>
        readFile(file, 'utf8').catch(() => ''),
      ),
    );
    const text = `${previous}\n${current}`;
    if (text === '\n') return [...unsaved];
    const schema = await logEntrySchema();
    const entries: CancelLogEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        continue; // a torn line from a crash mid-append
      }
      const v = (json as { v?: unknown } | null)?.v;
      if (typeof v === 'number' && v > VERSION) {
        // A newer version's line: kept in the file, not read here.
        tellNewer(new NewerDataError(this.#file(scope), v, VERSION));
        continue;
      }
      const entry = schema.safeParse(json);
      if (entry.success && entry.data.environment === environment) entries.push(entry.data);
    }
    return [...entries, ...unsaved];
  }
}
