// The gate records of every key, as files in one folder shared by every
// process on this computer: the app and each run of the CLI. A shell loop of
// `store-admin orders cancel` then paces as one client, and none of its runs
// sends while another run or the app has been told to wait.
//
// One file per key and service address, named by a salted hash (the key is
// never written; the salt is this folder's own, so the names cannot be
// checked against guessed keys elsewhere). Each change takes a lock file
// (created with O_EXCL), reads, changes and renames a new file over the old
// one, so a process that dies mid-write leaves the previous record whole.
// Locks are held for microseconds; one left by a process that died is
// broken once its holder is gone or it is clearly too old.

import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { makeFolder } from '../local-data/local-files.ts';
import { emptyRecord, sanitizeRecord, type GateRecord } from './gate-record.ts';
import { MemoryGateStore, type GateStore, type GateStores } from './gate-store.ts';

const LOCK_STALE_MS = 2_000;
const LOCK_PATIENCE_MS = 5_000;
/** Leases of requests on their way this long are dropped even if their process seems alive (pid reuse). */
const LEASE_MAX_MS = 15 * 60_000;
/** Records untouched this long hold nothing a new answer would not tell again. */
const RECORD_MAX_AGE_MS = 3 * 24 * 3_600_000;

const pause = new Int32Array(new SharedArrayBuffer(4));
/** Waits a few milliseconds for another process's lock, without yielding (the section is tiny). */
function sleepSync(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Whether a process with this id runs (EPERM: it does, as another user). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}

function lockIsStale(lockFile: string): boolean {
  try {
    const holder = Number(readFileSync(lockFile, 'utf8'));
    if (Number.isInteger(holder) && holder > 0 && !processAlive(holder)) return true;
    return Date.now() - statSync(lockFile).mtimeMs > LOCK_STALE_MS;
  } catch {
    return false; // gone already, or unreadable for a moment: try again
  }
}

/** Runs `section` holding the lock file; if the lock cannot be had, runs it anyway rather than stall. */
function withLock<T>(lockFile: string, section: () => T): T {
  const giveUpAt = Date.now() + LOCK_PATIENCE_MS;
  let held = false;
  for (let attempt = 0; !held; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600);
      try {
        writeSync(fd, String(process.pid));
        held = true;
      } finally {
        closeSync(fd);
        // A full disk took the file but not its pid: an empty lock would stall everyone for seconds.
        if (!held) unlinkQuietly(lockFile);
      }
    } catch (error) {
      if (errorCode(error) !== 'EEXIST' || Date.now() > giveUpAt) break;
      if (lockIsStale(lockFile)) {
        try {
          unlinkSync(lockFile);
        } catch {
          // another process broke it first
        }
      } else {
        sleepSync(Math.min(1 + attempt, 10));
      }
    }
  }
  try {
    return section();
  } finally {
    if (held) {
      try {
        unlinkSync(lockFile);
      } catch {
        // broken by another process as stale: nothing to give back
      }
    }
  }
}

let writes = 0;

/** Told of each save of a record file: the error when it failed (a full or read-only disk), undefined when it went through. */
export type SaveReport = (file: string, error?: unknown) => void;

class FileGateStore implements GateStore {
  readonly #file: string;
  readonly #lockFile: string;
  readonly #now: () => number;
  readonly #report: SaveReport;
  /** The last record seen, used when the file cannot be read or written. */
  #last: GateRecord = emptyRecord();

  constructor(file: string, now: () => number, report: SaveReport) {
    this.#file = file;
    this.#lockFile = `${file}.lock`;
    this.#now = now;
    this.#report = report;
  }

  read(): GateRecord {
    const now = this.#now();
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') this.#last = emptyRecord();
      return this.#last;
    }
    try {
      this.#last = sanitizeRecord(JSON.parse(text), now);
    } catch {
      this.#last = emptyRecord(); // a torn or foreign file: start afresh
    }
    this.#last.leases = this.#last.leases.filter(
      (lease) => now - lease.at < LEASE_MAX_MS && processAlive(lease.pid),
    );
    return this.#last;
  }

  update(change: (record: GateRecord) => void): GateRecord {
    return withLock(this.#lockFile, () => {
      const record = this.read();
      const before = JSON.stringify(record);
      change(record);
      const after = JSON.stringify(record);
      if (after !== before) this.#write(after);
      return record;
    });
  }

  #write(text: string): void {
    const temporary = `${this.#file}.${process.pid}.${++writes}.tmp`;
    try {
      writeFileSync(temporary, text, { mode: 0o600 });
      renameSync(temporary, this.#file);
      this.#report(this.#file);
    } catch (error) {
      // The record stays in memory for this process; the next change tries again.
      this.#report(this.#file, error);
      try {
        unlinkSync(temporary);
      } catch {
        // never written
      }
    }
  }
}

export class SharedGateFolder implements GateStores {
  readonly #dir: string;
  readonly #now: () => number;
  readonly #report: SaveReport;
  #salt: string | undefined;

  constructor(dir: string, now: () => number = Date.now, report: SaveReport = () => undefined) {
    this.#dir = dir;
    this.#now = now;
    this.#report = report;
  }

  open(baseUrl: string, key: string): GateStore {
    let salt: string;
    try {
      makeFolder(this.#dir);
      this.#sweep();
      salt = this.#readSalt();
    } catch (error) {
      // A full or read-only disk, or a folder we may not write: pace from memory, alone.
      this.#report(this.#dir, error);
      return new MemoryGateStore();
    }
    const id = createHash('sha256')
      .update(`${salt}\n${baseUrl.replace(/\/+$/, '')}\n${key}`)
      .digest('hex')
      .slice(0, 32);
    return new FileGateStore(join(this.#dir, `${id}.json`), this.#now, this.#report);
  }

  /** The folder's own random salt, made once by whichever process comes first. */
  #readSalt(): string {
    if (this.#salt) return this.#salt;
    const file = join(this.#dir, 'salt');
    const fresh = randomBytes(32).toString('hex');
    try {
      writeFileSync(file, fresh, { flag: 'wx', mode: 0o600 });
      return (this.#salt = fresh);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    for (let attempt = 0; attempt < 20; attempt++) {
      const salt = readFileSync(file, 'utf8').trim();
      if (salt.length === 64) return (this.#salt = salt);
      sleepSync(5); // another process is writing it
    }
    // Left empty by a process that died while making it: replace it whole. Saved
    // records become unreachable, which costs one probing request per key.
    writeFileSync(`${file}.${process.pid}.tmp`, fresh, { mode: 0o600 });
    renameSync(`${file}.${process.pid}.tmp`, file);
    return (this.#salt = readFileSync(file, 'utf8').trim());
  }

  /** Drops records nobody has touched for days, and temporary files of writers that died. */
  #sweep(): void {
    const now = Date.now();
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return;
    }
    for (const name of names) {
      const maxAge = name.endsWith('.tmp')
        ? 60_000
        : name.endsWith('.json')
          ? RECORD_MAX_AGE_MS
          : 0;
      if (maxAge === 0) continue;
      try {
        if (now - statSync(join(this.#dir, name)).mtimeMs > maxAge)
          unlinkSync(join(this.#dir, name));
      } catch {
        // gone meanwhile
      }
    }
  }
}

/** Where the gate records live inside a data folder (the app's and the CLI's are the same folder). */
export function quotaFolder(dataDir: string): string {
  return join(dataDir, 'quota');
}
