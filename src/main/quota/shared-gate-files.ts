// The gate records of every key, as files in one folder shared by every
// process on this computer: the app and each run of the CLI. A shell loop of
// `store-admin orders cancel` then paces as one client, and none of its runs
// sends while another run or the app has been told to wait.
//
// One file per key and service address, named by a salted hash (the key is
// never written; the salt is this folder's own, so the names cannot be
// checked against guessed keys elsewhere). Each change takes the record's
// lock (local-data/file-lock.ts: stale locks are taken over atomically,
// never run around), reads, changes and renames a new file over the old
// one, so a process that dies mid-write leaves the previous record whole.
//
// A data folder that takes no writes (read-only, full, not ours) must not let
// runs pace alone: each would miss the hold another was told about, and a
// loop of them would get the key banned. The record then moves to a folder of
// this user's in the system's temporary folder, found by every process from
// the data folder's path, so they still share it; the newer of the two files
// is the record, so it moves back once the data folder takes writes again.
// When no folder takes it, the store says so (`sharing()`): the command line
// then sends nothing.

import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DATA_FILES, NewerDataError, tellNewer } from '../local-data/data-files.ts';
import { adoptEarlierQuotaState } from '../local-data/earlier-quota-state.ts';
import { LockHeldError, lockSync, processAlive } from '../local-data/file-lock.ts';
import { makeFolder } from '../local-data/local-files.ts';
import { emptyRecord, sanitizeRecord, type GateRecord } from './gate-record.ts';
import type { GateStore, GateStores } from './gate-store.ts';

/** The record's format; a record without a version (0.2.0 to 0.4.0) is version 1. */
const VERSION = DATA_FILES.gateRecord.version;

/** A record file's later version, said once in the log; undefined for this version's or an earlier one. */
function newerRecord(file: string, saved: unknown): NewerDataError | undefined {
  const version = (saved as { version?: unknown } | null)?.version;
  if (typeof version !== 'number' || version <= VERSION) return undefined;
  const error = new NewerDataError(file, version, VERSION);
  tellNewer(error);
  return error;
}

/** A lock held for a few system calls: one that stood still this long is its dead holder's. */
const LOCK_STALE_MS = 2_000;
/** How long a change waits for the lock before it gives up sharing this once (a stale one is taken over first). */
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

/** Told of each save of a record file: the error when it failed (a full or read-only disk), undefined when it went through. */
export type SaveReport = (file: string, error?: unknown) => void;

/** Where the gate's record is kept, as last found. */
export type GateSharing =
  | { readonly kind: 'shared'; readonly folder: string }
  /** The data folder takes no writes (`error`): the record is kept in `fallback`, shared all the same. */
  | {
      readonly kind: 'moved';
      readonly folder: string;
      readonly fallback: string;
      readonly error: unknown;
    }
  /** No folder takes it: this process paces alone, from memory. */
  | { readonly kind: 'alone'; readonly folder: string; readonly error: unknown };

interface Place {
  readonly dir: string;
  readonly file: string;
  /** The fallback folder: read only once it is known to be this user's alone, made only when needed. */
  readonly fallback: boolean;
}

let writes = 0;

export class FileGateStore implements GateStore {
  /** The data folder's file first, then the fallback's. */
  readonly #places: readonly Place[];
  readonly #folder: string;
  readonly #now: () => number;
  readonly #report: SaveReport;
  /** The last record seen, used when no file can be read or written. */
  #last: GateRecord = emptyRecord();
  #sharing: GateSharing;
  /** Fallback folders checked to be this user's alone. */
  readonly #trusted = new Set<string>();
  /** Why the data folder could not even be opened, when it could not. */
  readonly #openError: unknown;
  /** The record as last read was written by a newer version: it is not written here. */
  #newer: NewerDataError | undefined;

  constructor(
    places: readonly Place[],
    folder: string,
    now: () => number,
    report: SaveReport,
    openError?: unknown,
  ) {
    this.#places = places;
    this.#folder = folder;
    this.#now = now;
    this.#report = report;
    this.#openError = openError;
    this.#sharing =
      places[0]?.dir === folder
        ? { kind: 'shared', folder }
        : places.length > 0
          ? { kind: 'moved', folder, fallback: places[0]!.dir, error: openError }
          : { kind: 'alone', folder, error: openError };
  }

  /** Where the record was kept at the last change. */
  sharing(): GateSharing {
    return this.#sharing;
  }

  /** Writes the record as it stands, to find out where it can be kept now. */
  probe(): GateSharing {
    this.#update(() => undefined, true);
    return this.#sharing;
  }

  read(): GateRecord {
    const now = this.#now();
    let newest: { at: number; text: string; file: string } | undefined;
    for (const place of this.#places) {
      if (!this.#usable(place, false)) continue;
      const { file } = place;
      try {
        const at = statSync(file).mtimeMs;
        const text = readFileSync(file, 'utf8');
        if (!newest || at > newest.at) newest = { at, text, file };
      } catch {
        // not written yet, or unreadable for a moment
      }
    }
    // Nothing written anywhere (yet, or ever, on a disk that takes nothing): what this process knows.
    if (!newest) return this.#last;
    try {
      const saved: unknown = JSON.parse(newest.text);
      this.#newer = newerRecord(newest.file, saved);
      // A newer version's record is still read (fields are only added): its hold holds here too.
      this.#last = sanitizeRecord(saved, now);
    } catch {
      this.#last = emptyRecord(); // a torn or foreign file: start afresh
    }
    this.#last.leases = this.#last.leases.filter(
      (lease) => now - lease.at < LEASE_MAX_MS && processAlive(lease.pid),
    );
    return this.#last;
  }

  update(change: (record: GateRecord) => void): GateRecord {
    return this.#update(change, false);
  }

  #update(change: (record: GateRecord) => void, force: boolean): GateRecord {
    const release = this.#lock();
    try {
      const record = this.read();
      const before = JSON.stringify(record);
      change(record);
      const after = JSON.stringify(record);
      if (this.#newer) {
        // Left as the newer version wrote it: this process paces from memory.
        this.#report(this.#newer.file, this.#newer);
      } else if (force || after !== before) {
        this.#write(JSON.stringify({ version: VERSION, ...record }), release !== undefined);
      }
      return record;
    } finally {
      release?.();
    }
  }

  /** The lock of the first place that can have one; undefined when none can (the change is then not saved). */
  #lock(): (() => void) | undefined {
    for (const { file } of this.#places) {
      const giveUpAt = Date.now() + LOCK_PATIENCE_MS;
      for (let attempt = 0; ; attempt++) {
        try {
          return lockSync(`${file}.lock`, { staleMs: LOCK_STALE_MS });
        } catch (error) {
          if (error instanceof LockHeldError) {
            if (Date.now() > giveUpAt) return undefined;
            sleepSync(Math.min(1 + attempt, 10));
            continue;
          }
          break; // this place takes no lock (read-only, full, not ours): the next one
        }
      }
    }
    return undefined;
  }

  /** Whether a place may be read (or, with `make`, written): a fallback folder must be ours alone. */
  #usable(place: Place, make: boolean): boolean {
    if (!place.fallback || this.#trusted.has(place.dir)) return true;
    if (!ownedFolder(place.dir, make)) return false;
    this.#trusted.add(place.dir);
    return true;
  }

  /** Saves the record in the first place that takes it. */
  #write(text: string, locked: boolean): void {
    let firstError: unknown = this.#places[0]?.dir === this.#folder ? undefined : this.#openError;
    if (locked) {
      for (const [index, place] of this.#places.entries()) {
        const temporary = `${place.file}.${process.pid}.${++writes}.tmp`;
        try {
          if (!this.#usable(place, true)) throw new Error(`${place.dir} is not this user's alone`);
          writeFileSync(temporary, text, { mode: 0o600 });
          renameSync(temporary, place.file);
          this.#report(place.file);
          this.#sharing =
            place.dir === this.#folder
              ? { kind: 'shared', folder: this.#folder }
              : { kind: 'moved', folder: this.#folder, fallback: place.dir, error: firstError };
          return;
        } catch (error) {
          firstError ??= error;
          if (index === 0) this.#report(place.file, error);
          try {
            unlinkSync(temporary);
          } catch {
            // never written
          }
        }
      }
    }
    // The record stays in memory for this process; the next change tries again.
    this.#sharing = { kind: 'alone', folder: this.#folder, error: firstError };
  }
}

export interface SharedGateFolderOptions {
  /** Where records go when the data folder takes none (default: this user's, in the system's temporary folder). */
  readonly fallbackDir?: string | null;
  /** Release 0.1.0's one file of every environment's state, read once into each key's record. */
  readonly earlierState?: string;
}

export class SharedGateFolder implements GateStores {
  readonly #dir: string;
  readonly #fallback: string | undefined;
  readonly #now: () => number;
  readonly #report: SaveReport;
  readonly #salts = new Map<string, string>();
  readonly #earlierState: string | undefined;

  constructor(
    dir: string,
    now: () => number = Date.now,
    report: SaveReport = () => undefined,
    options: SharedGateFolderOptions = {},
  ) {
    this.#dir = dir;
    this.#now = now;
    this.#report = report;
    this.#fallback =
      options.fallbackDir === null ? undefined : (options.fallbackDir ?? fallbackFolderOf(dir));
    this.#earlierState = options.earlierState;
  }

  open(baseUrl: string, key: string): FileGateStore {
    const places: Place[] = [];
    // Named with the data folder's salt when it can be read, so both files hold one record.
    let salt: string | undefined;
    let openError: unknown;
    try {
      makeFolder(this.#dir);
      this.#sweep(this.#dir);
      salt = this.#readSalt(this.#dir);
    } catch (error) {
      // A full or read-only disk, or a folder we may not write: the fallback folder alone.
      this.#report(this.#dir, error);
      openError = error;
    }
    if (salt !== undefined)
      places.push({
        dir: this.#dir,
        file: this.#recordFile(this.#dir, salt, baseUrl, key),
        fallback: false,
      });
    const fallback = this.#fallback;
    try {
      // With the data folder's salt, the fallback folder is made only if a write ever needs it.
      const fallbackSalt =
        salt ??
        (fallback !== undefined && ownedFolder(fallback, true)
          ? this.#readSalt(fallback)
          : undefined);
      if (fallback !== undefined && fallbackSalt !== undefined) {
        if (salt === undefined) this.#sweep(fallback);
        places.push({
          dir: fallback,
          file: this.#recordFile(fallback, fallbackSalt, baseUrl, key),
          fallback: true,
        });
      }
    } catch {
      // No fallback either: the store says it paces alone.
    }
    const store = new FileGateStore(places, this.#dir, this.#now, this.#report, openError);
    const earlier = this.#earlierState;
    if (earlier !== undefined && existsSync(earlier))
      store.update((record) => adoptEarlierQuotaState(earlier, record, baseUrl, key, this.#now()));
    return store;
  }

  #recordFile(dir: string, salt: string, baseUrl: string, key: string): string {
    const id = createHash('sha256')
      .update(`${salt}\n${baseUrl.replace(/\/+$/, '')}\n${key}`)
      .digest('hex')
      .slice(0, 32);
    return join(dir, `${id}.json`);
  }

  /** A folder's own random salt, made once by whichever process comes first. */
  #readSalt(dir: string): string {
    const known = this.#salts.get(dir);
    if (known) return known;
    const file = join(dir, 'salt');
    const fresh = randomBytes(32).toString('hex');
    try {
      writeFileSync(file, fresh, { flag: 'wx', mode: 0o600 });
      this.#salts.set(dir, fresh);
      return fresh;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') {
        // A read-only disk cannot make one, but may hold one made before; a full one
        // may have made the file and then refused its bytes: the empty file goes.
        const saved = readSaltFile(file);
        if (saved !== undefined) return saved;
        if (errorCode(error) !== 'EROFS') unlinkEmpty(file);
        throw error;
      }
    }
    for (let attempt = 0; attempt < 20; attempt++) {
      const salt = readSaltFile(file);
      if (salt !== undefined) {
        this.#salts.set(dir, salt);
        return salt;
      }
      sleepSync(5); // another process is writing it
    }
    // Left empty by a process that died while making it: replace it whole. Saved
    // records become unreachable, which costs one probing request per key.
    writeFileSync(`${file}.${process.pid}.tmp`, fresh, { mode: 0o600 });
    renameSync(`${file}.${process.pid}.tmp`, file);
    const salt = readFileSync(file, 'utf8').trim();
    this.#salts.set(dir, salt);
    return salt;
  }

  /** Drops records nobody has touched for days, and temporary files of writers that died. */
  #sweep(dir: string): void {
    const now = Date.now();
    let names: string[];
    try {
      names = readdirSync(dir);
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
        if (now - statSync(join(dir, name)).mtimeMs > maxAge) unlinkSync(join(dir, name));
      } catch {
        // gone meanwhile, or a disk that deletes nothing
      }
    }
  }
}

function unlinkEmpty(file: string): void {
  try {
    if (statSync(file).size === 0) unlinkSync(file);
  } catch {
    // never made
  }
}

function readSaltFile(file: string): string | undefined {
  try {
    const salt = readFileSync(file, 'utf8').trim();
    return salt.length === 64 ? salt : undefined;
  } catch {
    return undefined;
  }
}

/** Where the gate records live inside a data folder (the app's and the CLI's are the same folder). */
export function quotaFolder(dataDir: string): string {
  return join(dataDir, 'quota');
}

/**
 * Where the records of `dir` go when it takes no writes: a folder of this
 * user's in the system's temporary folder, named after `dir`'s path, so the
 * app and every run using the same data folder find the same one.
 */
export function fallbackFolderOf(dir: string): string {
  const user = process.getuid?.() ?? 'user';
  const id = createHash('sha256').update(resolve(dir)).digest('hex').slice(0, 16);
  return join(tmpdir(), `store-admin-${user}`, `quota-${id}`);
}

/**
 * Whether `dir` (made first with `make`) is this user's alone: in a
 * temporary folder every user can write, another user could have made it
 * first to read or plant records.
 */
function ownedFolder(dir: string, make: boolean): boolean {
  try {
    if (make) mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const folder of [join(dir, '..'), dir]) {
      const stats = lstatSync(folder);
      if (!stats.isDirectory()) return false;
      if (process.getuid && (stats.uid !== process.getuid() || (stats.mode & 0o077) !== 0))
        return false;
    }
    return true;
  } catch {
    return false;
  }
}
