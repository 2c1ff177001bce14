// A clerk's local review marks and notes, per service (an environment's
// address: see service-scope.ts). There is no endpoint for them, so they live
// only here, in a small JSON file written atomically; they survive refreshes
// and restarts, keyed by order id.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DATA_FILES } from '../local-data/data-files.ts';
import { nodeFiles, type LocalFiles } from '../local-data/local-files.ts';
import { storageErrorCode } from '../local-data/storage-health.ts';
import { scopedFileName, type ServiceScope } from '../environments/service-scope.ts';
import { MAX_NOTE_LENGTH, type ReviewMark, type ReviewMarks } from '../../shared/orders-local.ts';

const VERSION = DATA_FILES.reviewMarks.version;

const fileSchema = z.object({
  version: z.literal(VERSION),
  marks: z.record(
    z.string(),
    z.object({
      reviewed: z.boolean(),
      note: z.string().max(MAX_NOTE_LENGTH),
      updatedAt: z.number(),
    }),
  ),
});

export class ReviewMarksStore {
  readonly #dir: string;
  /** By scope key. */
  readonly #cache = new Map<string, Record<string, ReviewMark>>();
  #queue: Promise<void> = Promise.resolve();
  readonly #files: LocalFiles;

  constructor(dir: string, files: LocalFiles = nodeFiles()) {
    this.#dir = dir;
    this.#files = files;
  }

  #file(scope: ServiceScope): string {
    return join(this.#dir, scopedFileName('review-marks', scope));
  }

  async all(scope: ServiceScope): Promise<ReviewMarks> {
    const cached = this.#cache.get(scope.key);
    if (cached) return cached;
    let marks: Record<string, ReviewMark> = {};
    try {
      const parsed = fileSchema.safeParse(JSON.parse(await readFile(this.#file(scope), 'utf8')));
      if (parsed.success) marks = parsed.data.marks;
    } catch {
      // none yet, or unreadable: start empty rather than fail
    }
    this.#cache.set(scope.key, marks);
    return marks;
  }

  /** Sets or clears (reviewed false and empty note) the mark of one order. */
  async set(
    scope: ServiceScope,
    orderId: string,
    mark: Omit<ReviewMark, 'updatedAt'>,
    now: number,
  ): Promise<ReviewMarks> {
    const marks = { ...(await this.all(scope)) };
    const note = mark.note.trim().slice(0, MAX_NOTE_LENGTH);
    if (!mark.reviewed && note === '') delete marks[orderId];
    else marks[orderId] = { reviewed: mark.reviewed, note, updatedAt: now };
    this.#cache.set(scope.key, marks);
    const text = JSON.stringify({ version: VERSION, marks });
    this.#queue = this.#queue
      .catch(() => undefined)
      .then(() => this.#files.replace(this.#file(scope), text));
    try {
      await this.#queue;
    } catch (error) {
      // A full or read-only disk: the mark stays in memory (the file keeps the last saved marks).
      if (storageErrorCode(error) === undefined) throw error;
    }
    return marks;
  }
}
