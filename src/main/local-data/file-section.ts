// A few system calls on a shared file, made by one process at a time: the
// app and every run of the command line write the same lists and cancel
// log, so a change that is more than one system call (a log's rotation and
// its append, a list's two renames into place, the command line's earlier
// lists merged in) holds the file's lock (file-lock.ts) while it runs.

import { setTimeout as sleep } from 'node:timers/promises';
import { lock, LockHeldError } from './file-lock.ts';

/** A section is a few system calls: a lock that stood still this long is its dead holder's. */
const STALE_MS = 2_000;
/** How long a section waits for another process's, before it runs anyway (as an unlocked write would). */
const PATIENCE_MS = 5_000;

/**
 * Runs `section` holding `<file>.lock`. A disk that takes no lock (read-only,
 * full) runs it unlocked, where its own writes fail as they would; a lock
 * still held after PATIENCE_MS (a holder hung, not dead: a dead one's lock is
 * taken over at once) runs it unlocked too, rather than stall the clerk.
 */
export async function inFileSection<T>(file: string, section: () => Promise<T>): Promise<T> {
  let release: (() => Promise<void>) | undefined;
  const giveUpAt = Date.now() + PATIENCE_MS;
  for (let attempt = 0; release === undefined; attempt++) {
    try {
      release = await lock(`${file}.lock`, { staleMs: STALE_MS });
    } catch (error) {
      if (!(error instanceof LockHeldError) || Date.now() > giveUpAt) break;
      await sleep(Math.min(1 + attempt, 10));
    }
  }
  try {
    return await section();
  } finally {
    await release?.();
  }
}
