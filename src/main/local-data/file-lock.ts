// Locks shared by the processes on this computer (the app and every run of
// the command line), on proper-lockfile: a lock is a folder (mkdir is
// atomic), its holder keeps its mtime fresh while it holds it, and a lock
// whose mtime has not moved for `staleMs` is stale, its holder dead or hung.
// Two things are added here:
// - The holder is named inside the lock (an `owner` file with its process
//   id), so a lock whose process is gone is taken over at once: a run that
//   was killed, a lock from before a reboot. A process id that now belongs
//   to another process only delays that to `staleMs`, never for ever.
// - Taking over a stale lock is atomic. proper-lockfile removes a lock it
//   judged stale and makes its own, so two processes that both judged it
//   stale could both remove it, the slower one removing the other's fresh
//   lock. Here the old lock is removed only under a short "takeover" lock,
//   and only if it is still the very lock judged stale (same inode, same
//   mtime); otherwise the taker waits like anyone else.
// - A lock in the earlier form, a plain file holding its process id (as
//   release 0.2.0 wrote the bulk-cancel and gate-record locks), is a lock all
//   the same: it names its process, and is taken over by the same rules.

import * as fs from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

/** Why a lock could not be had: another live process holds it. */
export class LockHeldError extends Error {
  /** The process named in the lock, when it names one. */
  readonly pid: number | undefined;
  constructor(lockPath: string, pid: number | undefined) {
    super(`${lockPath} is held${pid === undefined ? '' : ` by process ${pid}`}`);
    this.name = 'LockHeldError';
    this.pid = pid;
  }
}

export interface LockOptions {
  /** How long a lock's mtime may stand still before it is stale (at least 2 s). */
  readonly staleMs: number;
  /**
   * How long a lock whose process is gone must have stood still before it is
   * taken over early: 0 for a lock held for microseconds, a little more than
   * the refresh interval for one held long, so a holder in another process
   * namespace (whose id means nothing here) is never taken for dead while it refreshes.
   */
  readonly goneAfterMs?: number;
  /** The lock was taken from this process (it stood still past staleMs: a system sleep, a hang). */
  readonly onCompromised?: (error: Error) => void;
}

const OWNER = 'owner';
/** A takeover is a few system calls; one older than this was left by a process that died in it. */
const TAKEOVER_STALE_MS = 2_000;

/** Whether a process with this id runs (EPERM: it does, as another user). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The text of the file naming a lock's holder: `owner` in today's folder, the whole file in the earlier form. */
function ownerText(lockPath: string): string | undefined {
  try {
    return fs.readFileSync(join(lockPath, OWNER), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') return undefined;
  }
  try {
    return fs.readFileSync(lockPath, 'utf8');
  } catch {
    return undefined;
  }
}

/** The process a lock names, if it names one. */
export function lockOwner(lockPath: string): number | undefined {
  const text = ownerText(lockPath);
  if (text === undefined) return undefined;
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** Removes a lock that is not this process's: a folder (today's form) or a file (the earlier form). */
function removeLock(lockPath: string, stats: fs.Stats): void {
  if (!stats.isDirectory()) {
    fs.unlinkSync(lockPath);
    return;
  }
  fs.rmSync(join(lockPath, OWNER), { force: true });
  fs.rmdirSync(lockPath);
}

function held(lockPath: string): Error {
  return Object.assign(new Error('Lock file is already being held'), {
    code: 'ELOCKED',
    file: lockPath,
  });
}

const sameLock = (a: fs.Stats, b: fs.Stats) => a.ino === b.ino && a.mtimeMs === b.mtimeMs;

/** The locks this process made and has not removed. */
const mine = new Set<string>();
/** The last look at each lock this process found held: what a takeover may remove. */
const judged = new Map<string, fs.Stats>();

function removeOwn(lockPath: string): void {
  fs.rmSync(join(lockPath, OWNER), { force: true });
  fs.rmdirSync(lockPath);
  mine.delete(lockPath);
}

/**
 * Removes `lockPath` only if it is still the lock last judged stale, under the
 * takeover lock; when judged by its holder being gone, only if it still names
 * that holder (a lock just made in its place has the same look until it is named).
 */
function takeOver(lockPath: string, stale: fs.Stats | undefined, goneOwner?: number): void {
  const takeover = `${lockPath}.takeover`;
  try {
    fs.mkdirSync(takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Left by a process that died mid-takeover: cleared, and this attempt waits like any other.
    try {
      if (Date.now() - fs.statSync(takeover).mtimeMs > TAKEOVER_STALE_MS) fs.rmdirSync(takeover);
    } catch {
      // gone meanwhile
    }
    throw held(lockPath);
  }
  try {
    let now: fs.Stats;
    try {
      now = fs.statSync(lockPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // released meanwhile
      throw error;
    }
    if (!stale || !sameLock(now, stale)) throw held(lockPath); // a fresh lock, not the stale one
    if (goneOwner !== undefined && lockOwner(lockPath) !== goneOwner) throw held(lockPath);
    removeLock(lockPath, now);
  } finally {
    fs.rmdirSync(takeover);
  }
}

function rmdirFor(path: string): void {
  if (mine.has(path)) removeOwn(path);
  else takeOver(path, judged.get(path));
}

function noted(path: string, stats: fs.Stats): fs.Stats {
  judged.set(path, stats);
  return stats;
}

type Callback<T = void> = (error: NodeJS.ErrnoException | null, value?: T) => void;

/**
 * The file system proper-lockfile is given: its own removal of a lock is
 * the guarded one above, its looks at a lock are remembered for it, and a
 * lock it makes is known as this process's.
 */
const lockFs = {
  ...fs,
  mkdir(path: string, callback: Callback) {
    fs.mkdir(path, (error) => {
      if (!error) mine.add(path);
      callback(error);
    });
  },
  mkdirSync(path: string) {
    fs.mkdirSync(path);
    mine.add(path);
  },
  stat(path: string, callback: Callback<fs.Stats>) {
    fs.stat(path, (error, stats) =>
      error ? callback(error) : callback(null, mine.has(path) ? stats : noted(path, stats)),
    );
  },
  statSync(path: string) {
    const stats = fs.statSync(path);
    return mine.has(path) ? stats : noted(path, stats);
  },
  rmdir(path: string, callback: Callback) {
    try {
      rmdirFor(path);
      callback(null);
    } catch (error) {
      callback(error as NodeJS.ErrnoException);
    }
  },
  rmdirSync(path: string) {
    rmdirFor(path);
  },
};

/** Takes over a lock at once when the process it names is gone and it has stood still long enough. */
function takeOverIfOwnerGone(lockPath: string, goneAfterMs: number): void {
  // The look first, then the name: the lock named may already be another one
  // than the one looked at, which takeOver checks under its own lock.
  let stats: fs.Stats;
  try {
    stats = fs.statSync(lockPath);
  } catch {
    return;
  }
  const pid = lockOwner(lockPath);
  if (pid === undefined || pid === process.pid || processAlive(pid)) return;
  // (A fresh lock's mtime may lie up to a second ahead: proper-lockfile probes the clock's precision so.)
  if (goneAfterMs > 0 && Date.now() - stats.mtimeMs < goneAfterMs) return;
  try {
    takeOver(lockPath, stats, pid);
  } catch {
    // Another process is taking it over; the attempt that follows finds out who won.
  }
}

function afterTaking(lockPath: string): void {
  judged.delete(lockPath);
  try {
    // Naming the holder changes the folder's mtime, which proper-lockfile checks as its own: put back.
    const before = fs.statSync(lockPath);
    fs.writeFileSync(join(lockPath, OWNER), String(process.pid), { mode: 0o600 });
    fs.utimesSync(lockPath, before.atime, before.mtime);
  } catch {
    // Unnamed, the lock is still held; it is only taken over later if this process dies.
  }
}

function whenHeld(lockPath: string, error: unknown): never {
  if ((error as NodeJS.ErrnoException).code === 'ELOCKED')
    throw new LockHeldError(lockPath, lockOwner(lockPath));
  throw error;
}

function options(lockPath: string, lock: LockOptions) {
  const staleMs = Math.max(2_000, lock.staleMs);
  return {
    lockfilePath: lockPath,
    realpath: false,
    retries: 0,
    stale: staleMs,
    // Refreshed at the shortest interval proper-lockfile allows, well inside the stale time.
    update: Math.max(1_000, Math.floor(staleMs / 4)),
    fs: lockFs,
    onCompromised:
      lock.onCompromised ??
      (() => {
        // Nothing to undo for a lock held for a moment; a long one passes its own.
      }),
  };
}

/**
 * One attempt at the lock, for a section of a few system calls. Returns its
 * release; throws LockHeldError while another live process holds it, and
 * the file system's error when the lock cannot be made at all (a read-only
 * or full disk).
 */
export function lockSync(lockPath: string, lock: LockOptions): () => void {
  takeOverIfOwnerGone(lockPath, lock.goneAfterMs ?? 0);
  try {
    const release = lockfile.lockSync(lockPath, options(lockPath, lock));
    afterTaking(lockPath);
    return () => {
      try {
        release();
      } catch {
        // taken over as stale meanwhile: nothing to give back
      }
    };
  } catch (error) {
    return whenHeld(lockPath, error);
  }
}

/** One attempt at the lock, for as long as the caller holds it (kept fresh meanwhile). */
export async function lock(lockPath: string, lock: LockOptions): Promise<() => Promise<void>> {
  takeOverIfOwnerGone(lockPath, lock.goneAfterMs ?? 0);
  try {
    const release = await lockfile.lock(lockPath, options(lockPath, lock));
    afterTaking(lockPath);
    return () => release().catch(() => undefined);
  } catch (error) {
    return whenHeld(lockPath, error);
  }
}
