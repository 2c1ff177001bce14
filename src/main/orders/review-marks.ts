// A clerk's local review marks and notes, per environment. There is no
// endpoint for them, so they live only here, in a small JSON file written
// atomically; they survive refreshes and restarts, keyed by order id.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import type { EnvironmentId } from '../../shared/environments.ts';
import { MAX_NOTE_LENGTH, type ReviewMark, type ReviewMarks } from '../../shared/orders-local.ts';

const fileSchema = z.object({
  version: z.literal(1),
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
  readonly #cache = new Map<EnvironmentId, Record<string, ReviewMark>>();
  #queue: Promise<void> = Promise.resolve();

  constructor(dir: string) {
    this.#dir = dir;
  }

  #file(environment: EnvironmentId): string {
    return join(this.#dir, `review-marks-${environment}.json`);
  }

  async all(environment: EnvironmentId): Promise<ReviewMarks> {
    const cached = this.#cache.get(environment);
    if (cached) return cached;
    let marks: Record<string, ReviewMark> = {};
    try {
      const parsed = fileSchema.safeParse(
        JSON.parse(await readFile(this.#file(environment), 'utf8')),
      );
      if (parsed.success) marks = parsed.data.marks;
    } catch {
      // none yet, or unreadable: start empty rather than fail
    }
    this.#cache.set(environment, marks);
    return marks;
  }

  /** Sets or clears (reviewed false and empty note) the mark of one order. */
  async set(
    environment: EnvironmentId,
    orderId: string,
    mark: Omit<ReviewMark, 'updatedAt'>,
    now: number,
  ): Promise<ReviewMarks> {
    const marks = { ...(await this.all(environment)) };
    const note = mark.note.trim().slice(0, MAX_NOTE_LENGTH);
    if (!mark.reviewed && note === '') delete marks[orderId];
    else marks[orderId] = { reviewed: mark.reviewed, note, updatedAt: now };
    this.#cache.set(environment, marks);
    const text = JSON.stringify({ version: 1, marks });
    this.#queue = this.#queue
      .catch(() => undefined)
      .then(() => writeFileAtomic(this.#file(environment), text, { mode: 0o600 }));
    await this.#queue;
    return marks;
  }
}
