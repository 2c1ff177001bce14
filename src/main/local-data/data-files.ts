// Every file main keeps, in one list: its name, the version of its format
// this app writes, where that version is written, and how each earlier form
// (an earlier release's name, layout or format) is read. A store writes the
// version given here, so a format change is made here first. A release adds
// its data folder to the corpus that proves each earlier form is read
// (test/fixtures/releases, docs/testing.md).
//
// A file of a later version than this app knows (written by a newer
// release, after a downgrade) is left as it is: no write reaches it (the
// file layer refuses with NewerDataError, which the app takes as it takes a
// full disk: what changes is kept in memory for the session), lines of a
// later version in a log are skipped, and it is said once, to the clerk in
// the storage notice and in the log.

import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { LocalFiles } from './local-files.ts';

/** Where a file keeps its format's version. */
export type VersionIn =
  /** A `version` field of the JSON object; a file without one is version 1. */
  | 'field'
  /** A `v` field first on each line of JSON Lines (`{"v":1,…`); a line without one is version 1. */
  | 'lines'
  /** The `version` of the order cache's header line. */
  | 'header'
  /** Not JSON (a salt of 64 hex digits): anything else is made again. */
  | 'none';

export interface EarlierForm {
  /** The releases that wrote it. */
  readonly releases: string;
  readonly form: string;
  /** What this version does with it (and where). */
  readonly read: string;
}

export interface DataFile {
  /** The file's name in the data folder; `<scope>` is an environment and a hash of its address. */
  readonly name: string;
  readonly pattern: RegExp;
  readonly what: string;
  /** The version of its format this app writes and reads. */
  readonly version: number;
  readonly versionIn: VersionIn;
  readonly earlier: readonly EarlierForm[];
}

const SCOPE = '(?:sandbox|staging-[0-9a-f]{16}|production-[0-9a-f]{16}|cli-[0-9a-f]{16})';
const scoped = (pattern: string) => new RegExp(`^${pattern.replace('<scope>', SCOPE)}$`);

const RENAMED_TO_SCOPE =
  'renamed, at the first start, to the scope of the address the environment has then (environments/service-scope.ts)';

export const DATA_FILES = {
  orderCache: {
    name: 'orders-<scope>.cache, orders-<scope>.previous.cache',
    pattern: scoped('orders-<scope>(?:\\.previous)?\\.cache'),
    what: 'The last two lists of a service: a header line, then the body as the service sent it',
    version: 2,
    versionIn: 'header',
    earlier: [
      {
        releases: '0.1.0',
        form: 'orders-<environment>.cache (the same format; no previous list)',
        read: RENAMED_TO_SCOPE,
      },
      {
        releases: '0.2.0 to 0.4.0',
        form: "the command line's own lists, in its cache folder",
        read: "merged into the app's, once (cli/data-folder.ts)",
      },
    ],
  },
  cancelLog: {
    name: 'cancel-log-<scope>.jsonl, cancel-log-<scope>.previous.jsonl',
    pattern: scoped('cancel-log-<scope>(?:\\.previous)?\\.jsonl'),
    what: 'Every cancel attempt of a service, one line each, appended',
    version: 1,
    versionIn: 'lines',
    earlier: [
      { releases: '0.1.0', form: 'cancel-log-<environment>.jsonl', read: RENAMED_TO_SCOPE },
      {
        releases: '0.2.0 to 0.4.0',
        form: "the command line's own cancel log, in its cache folder",
        read: "merged into the app's, once (cli/data-folder.ts)",
      },
    ],
  },
  reviewMarks: {
    name: 'review-marks-<scope>.json',
    pattern: scoped('review-marks-<scope>\\.json'),
    what: 'Review marks and notes of a service',
    version: 1,
    versionIn: 'field',
    earlier: [
      { releases: '0.1.0', form: 'review-marks-<environment>.json', read: RENAMED_TO_SCOPE },
    ],
  },
  bulkJournal: {
    name: 'bulk-cancel-<scope>.jsonl, bulk-cancel-<scope>.<job>.jsonl (finished jobs), bulk-cancel-cli-<hash>.jsonl (the command line’s)',
    pattern: scoped('bulk-cancel-<scope>(?:\\.[0-9a-f-]{36})?\\.jsonl'),
    what: 'A bulk cancel’s journal: the job, each DELETE before it leaves, each answer',
    version: 1,
    versionIn: 'lines',
    earlier: [
      { releases: '0.1.0', form: 'bulk-cancel-<environment>.jsonl', read: RENAMED_TO_SCOPE },
      {
        releases: '0.2.0',
        form: 'its lock, bulk-cancel-cli-<hash>.jsonl.lock, a plain file holding a process id',
        read: 'a lock like today’s folder: taken over when its process is gone or stale (file-lock.ts)',
      },
    ],
  },
  gateRecord: {
    name: 'quota/<key and address hash>.json, quota/salt',
    pattern: /^(?:[0-9a-f]{32}\.json)$/,
    what: 'A key’s gate at an address, shared by the app and the command line: the quota, a hold or ban, the day’s count',
    version: 1,
    versionIn: 'field',
    earlier: [
      {
        releases: '0.1.0',
        form: 'quota-state.json: every environment’s state in one file, tied to its key by a fingerprint',
        read: 'read once into the record of its key and address when that key is first used (earlier-quota-state.ts)',
      },
      {
        releases: '0.2.0',
        form: 'its lock, <record>.json.lock, a plain file holding a process id',
        read: 'a lock like today’s folder (file-lock.ts)',
      },
      { releases: '0.2.0 to 0.4.0', form: 'no version field', read: 'version 1' },
    ],
  },
  gateSalt: {
    name: 'quota/salt',
    pattern: /^salt$/,
    what: 'The folder’s own random salt that names the gate records',
    version: 1,
    versionIn: 'none',
    earlier: [],
  },
  domainProjects: {
    name: 'domain-projects.json',
    pattern: /^domain-projects\.json$/,
    what: 'The published projects the assistant keeps domains for',
    version: 1,
    versionIn: 'field',
    earlier: [
      {
        releases: '0.1.0, 0.2.0',
        form: 'none: domains were kept per environment',
        read: 'each environment’s work becomes the project “Domains saved under <environment>” (domains/workspace-store.ts)',
      },
    ],
  },
  domainWorkspace: {
    name: 'domains-project-<project>.json',
    pattern: /^domains-project-[a-z0-9-]+\.json$/,
    what: 'A project’s domain work: settings, each domain’s progress, redirects',
    version: 1,
    versionIn: 'field',
    earlier: [
      {
        releases: '0.1.0, 0.2.0',
        form: 'domains-<environment>.json',
        read: 'copied into its project’s file; the earlier file is left as it was',
      },
      { releases: '0.3.0, 0.4.0', form: 'no version field', read: 'version 1' },
    ],
  },
  domainSchedules: {
    name: 'domain-watch.json',
    pattern: /^domain-watch\.json$/,
    what: 'Where each watched domain’s re-checks are (domains/domain-watcher.ts)',
    version: 1,
    versionIn: 'field',
    earlier: [
      {
        releases: '0.2.0',
        form: 'schedules saved under "<environment> <domain>"',
        read: 'moved, at start-up, to the project the work became, the wait going on (earlier-domain-schedules.ts)',
      },
    ],
  },
  deprecationNotices: {
    name: 'deprecation-notices.json',
    pattern: /^deprecation-notices\.json$/,
    what: 'The service’s deprecation notices, and which the clerk put away',
    version: 1,
    versionIn: 'field',
    earlier: [],
  },
  updateSettings: {
    name: 'update-settings.json',
    pattern: /^update-settings\.json$/,
    what: 'The update address entered in Settings',
    version: 1,
    versionIn: 'field',
    earlier: [{ releases: '0.3.0, 0.4.0', form: 'no version field', read: 'version 1' }],
  },
} as const satisfies Record<string, DataFile>;

/** A file of the userData folder, beside the data folder. */
export interface UserDataFile extends DataFile {
  /** Moved from 0.1.0's userData folder, `store-admin` (earlier-user-data.ts). */
  readonly fromEarlierFolder: boolean;
}

const NO_VERSION_FIELD = 'no version field: version 1, read as it is; the next save adds the field';

/**
 * Files the app keeps beside the data folder, in its userData folder, kept
 * by electron-store or the desktop edge. Each keeps its version in a
 * `version` field (electron-store's files beside their own keys, through
 * versioned-store-file.ts); their readers take every earlier form (fields
 * are only ever added).
 */
export const USER_DATA_FILES = {
  settings: {
    name: 'settings.json',
    pattern: /^settings\.json$/,
    what: 'The environment chosen and each one’s address (electron-store)',
    version: 1,
    versionIn: 'field',
    earlier: [{ releases: '0.1.0 to 0.4.0', form: NO_VERSION_FIELD, read: 'version 1' }],
    fromEarlierFolder: true,
  },
  apiKeys: {
    name: 'api-keys.json',
    pattern: /^api-keys\.json$/,
    what: 'The keys’ ciphertext (electron-store, safeStorage), each with the address it may be sent to',
    version: 1,
    versionIn: 'field',
    earlier: [
      {
        releases: '0.1.0',
        form: 'a key saved without the address it was entered for',
        read: 'bound to the environment’s address at the first start (keys/key-store.ts)',
      },
      { releases: '0.1.0 to 0.4.0', form: NO_VERSION_FIELD, read: 'version 1' },
    ],
    fromEarlierFolder: true,
  },
  windowState: {
    name: 'window-state.json',
    pattern: /^window-state\.json$/,
    what: 'Where the window was (desktop/window-state.ts)',
    version: 1,
    versionIn: 'field',
    earlier: [{ releases: '0.2.0 to 0.4.0', form: NO_VERSION_FIELD, read: 'version 1' }],
    fromEarlierFolder: false,
  },
} as const satisfies Record<string, UserDataFile>;

/** What the userData folder holds of 0.1.0's, to move from its folder: the data folder and these. */
export const CARRIED_FROM_EARLIER_FOLDER: readonly string[] = [
  'local-data',
  ...Object.values(USER_DATA_FILES)
    .filter((file: UserDataFile) => file.fromEarlierFolder)
    .map((file) => file.name),
];

/** The data file a name in the data folder (or its quota folder) is, if it is one. */
export function dataFileOf(file: string): DataFile | undefined {
  const name = basename(file);
  return Object.values(DATA_FILES).find((format: DataFile) => format.pattern.test(name));
}

/** A write refused because the file is of a later version than this app knows. */
export class NewerDataError extends Error {
  readonly code = 'ENEWER';
  readonly file: string;
  readonly found: number;
  readonly known: number;
  constructor(file: string, found: number, known: number) {
    super(
      `${file} was written by a newer version of Store Admin (format ${found}; this version knows up to ${known}), so it is left as it is.`,
    );
    this.name = 'NewerDataError';
    this.file = file;
    this.found = found;
    this.known = known;
  }
}

/** Files already said to be newer: said once each, in the log. */
const told = new Set<string>();

/** Says once, in the log, that a file is of a later version and is left as it is. */
export function tellNewer(error: NewerDataError): void {
  if (told.has(error.file)) return;
  told.add(error.file);
  console.warn(error.message);
}

/** The version a JSON value says it is (`version` or `v`); 1 when it says none. */
export function versionOf(value: unknown, name: 'version' | 'v' = 'version'): number {
  const found =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : 1;
  return Number.isSafeInteger(found) && (found as number) > 0 ? (found as number) : 1;
}

/** The first `bytes` of a file; empty when there is none. */
function head(file: string, bytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return Buffer.alloc(0);
  }
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

/** How much of a log's end is looked at: its newest lines. */
const LOG_TAIL_BYTES = 64 * 1024;

/**
 * A log's first line's start and its last lines, whole lines only: a log is
 * appended to, so a newer version's lines are at its end (or it is all of
 * them), and a bulk cancel's journal can be hundreds of megabytes.
 */
function ends(file: string): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return '';
  }
  try {
    const size = fstatSync(fd).size;
    const start = Buffer.alloc(Math.min(64, size));
    readSync(fd, start, 0, start.length, 0);
    const tailFrom = Math.max(0, size - LOG_TAIL_BYTES);
    const tail = Buffer.alloc(size - tailFrom);
    readSync(fd, tail, 0, tail.length, tailFrom);
    const text = tail.toString('utf8');
    // From the first whole line of the tail (all of it when it is the whole file).
    const lines = tailFrom === 0 ? text : text.slice(text.indexOf('\n') + 1);
    return `${start.toString('utf8').split('\n')[0]}\n${lines}`;
  } finally {
    closeSync(fd);
  }
}

/** The highest format version in a file's text, as its format keeps it. */
export function versionInText(text: string, versionIn: VersionIn): number {
  switch (versionIn) {
    case 'field':
      try {
        return versionOf(JSON.parse(text), 'version');
      } catch {
        return 1; // torn or damaged: the reader's own problem, not a newer version
      }
    case 'lines': {
      // Each line says its version first (`{"v":2,…`), so a line is read no further than that.
      let highest = 1;
      for (const match of text.matchAll(/(?:^|\n)\{"v":(\d+)[,}]/g))
        highest = Math.max(highest, Number(match[1]));
      return highest;
    }
    case 'header':
      try {
        return versionOf(JSON.parse(text.slice(0, text.indexOf('\n'))), 'version');
      } catch {
        return 1;
      }
    case 'none':
      return 1;
  }
}

/**
 * The version of the file on disk when it is later than this app's, else
 * undefined (no file, an earlier or the same version, or no such data file).
 */
export function newerVersionOf(file: string, format = dataFileOf(file)): number | undefined {
  if (!format || format.versionIn === 'none') return undefined;
  let text: string;
  try {
    text =
      format.versionIn === 'header'
        ? head(file, 1025).toString('utf8')
        : format.versionIn === 'lines'
          ? ends(file)
          : readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const found = versionInText(text, format.versionIn);
  return found > format.version ? found : undefined;
}

/** Throws NewerDataError (said once in the log) when the file is of a later version. */
export function refuseNewer(file: string, format = dataFileOf(file)): void {
  const found = newerVersionOf(file, format);
  if (found === undefined || !format) return;
  const error = new NewerDataError(file, found, format.version);
  tellNewer(error);
  throw error;
}

/**
 * The file layer with every write to a data file of a later version
 * refused, leaving the file as it is. A log is looked at before its first
 * append in this process (a log is long; a newer version's lines only come
 * with a newer version, which does not run beside this one), a file replaced
 * whole before each replace (they are small).
 */
export function refusingNewer(files: LocalFiles): LocalFiles {
  const appendable = new Set<string>();
  return {
    async append(file, text, options) {
      if (!appendable.has(file)) {
        refuseNewer(file);
        appendable.add(file);
      }
      return files.append(file, text, options);
    },
    async replace(file, text) {
      refuseNewer(file);
      return files.replace(file, text);
    },
    create: (file) => files.create(file),
  };
}

/**
 * Every data file in the data folder (and its quota folder) of a later
 * version than this app knows, each said once in the log: looked at once at
 * start-up, so the clerk is told before anything would have been written.
 */
export function newerFilesIn(dir: string): NewerDataError[] {
  const found: NewerDataError[] = [];
  for (const folder of [dir, join(dir, 'quota')]) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      const format = dataFileOf(name);
      const version = format && newerVersionOf(join(folder, name), format);
      if (!format || version === undefined) continue;
      const error = new NewerDataError(join(folder, name), version, format.version);
      tellNewer(error);
      found.push(error);
    }
  }
  return found;
}

/**
 * The userData folder's own files (USER_DATA_FILES) of a later version than
 * this app knows, each said once in the log: looked at once at start-up, as
 * the data folder's are (newerFilesIn).
 */
export function newerUserDataFiles(userData: string): NewerDataError[] {
  return Object.values(USER_DATA_FILES).flatMap((format: UserDataFile) => {
    const file = join(userData, format.name);
    const version = newerVersionOf(file, format);
    if (version === undefined) return [];
    const error = new NewerDataError(file, version, format.version);
    tellNewer(error);
    return [error];
  });
}
