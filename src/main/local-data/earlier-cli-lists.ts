// Releases 0.2.0 to 0.4.0 kept the command line's lists and cancel log in a
// folder of its own (the user's cache folder, or `cli-lists` in
// STORE_ADMIN_DATA_DIR), apart from the app's: a cancel from a shell read
// as "Not cancelled here" in the app, and the other way round. Since 0.5.0
// the command line keeps them in the app's data folder, as the app's own
// data for the address. What it kept before is merged in once, by whichever
// comes first (a command-line run, or the app at its start), under the
// files' locks:
// - the lists: of the two the app had and the two the command line had for
//   an address, the newest two stay (the newest the current, the next the
//   previous), as the cache keeps two;
// - the cancel log: every entry the command line logged joins the app's log,
//   in the order of their times, none twice;
// and the earlier folder's files go (the folder too, once empty).

import { closeSync, existsSync, openSync, readdirSync, readSync, rmdirSync } from 'node:fs';
import { copyFile, readFile, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { DATA_FOLDER_NAME } from '../desktop/app-identity.ts';
import { inFileSection } from './file-section.ts';

export const DATA_DIR_VARIABLE = 'STORE_ADMIN_DATA_DIR';
export const CACHE_DIR_VARIABLE = 'STORE_ADMIN_CACHE_DIR';

/**
 * Where 0.2.0 to 0.4.0 kept the command line's lists, when it is not where
 * they are kept now: undefined when STORE_ADMIN_CACHE_DIR names the folder
 * (it still does).
 */
export function earlierCliListsFolder(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string | undefined {
  if (env[CACHE_DIR_VARIABLE]?.trim()) return undefined;
  const data = env[DATA_DIR_VARIABLE]?.trim();
  if (data) return join(data, 'cli-lists');
  if (platform === 'win32')
    return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), DATA_FOLDER_NAME, 'Cache');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', DATA_FOLDER_NAME);
  return join(env.XDG_CACHE_HOME ?? join(home, '.cache'), 'store-admin');
}

/** What the merge did, for the log and the tests. */
export interface CliListsMerge {
  /** Per address (the scope in the file names): which lists stayed, by their time. */
  readonly lists: {
    readonly scope: string;
    readonly kept: readonly number[];
    readonly dropped: number;
  }[];
  /** Per address: the command line's entries added to the app's cancel log. */
  readonly cancelLog: { readonly scope: string; readonly added: number }[];
}

const LIST = /^orders-([a-z0-9-]+?)(\.previous)?\.cache$/;
const LOG = /^cancel-log-([a-z0-9-]+?)(\.previous)?\.jsonl$/;

/** When a cached list was received (its header's `receivedAt`), or undefined for a file that is not one. */
function receivedAt(file: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(1024);
    const read = readSync(fd, head, 0, 1024, 0);
    const header = JSON.parse(head.subarray(0, read).toString('utf8')) as { receivedAt?: unknown };
    return typeof header.receivedAt === 'number' ? header.receivedAt : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Moves a file, across disks too (the cache folder may be on another one). */
async function move(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, `${to}.${process.pid}.part`);
    await rename(`${to}.${process.pid}.part`, to);
    await rm(from, { force: true });
  }
}

async function mergeLists(
  from: string,
  into: string,
  scope: string,
): Promise<CliListsMerge['lists'][number]> {
  const current = join(into, `orders-${scope}.cache`);
  const previous = join(into, `orders-${scope}.previous.cache`);
  return inFileSection(current, async () => {
    const lists = [
      current,
      previous,
      join(from, `orders-${scope}.cache`),
      join(from, `orders-${scope}.previous.cache`),
    ]
      .map((file) => ({ file, at: receivedAt(file) }))
      .filter((list): list is { file: string; at: number } => list.at !== undefined)
      .sort((a, b) => b.at - a.at);
    const [newest, next] = lists;
    // The next first, so the newest is never moved over before it has moved aside.
    if (next && next.file !== previous) await move(next.file, previous);
    if (newest && newest.file !== current) await move(newest.file, current);
    // Older than both kept: the earlier folder's go; the app's were moved over.
    const dropped = lists.slice(2);
    for (const list of dropped)
      if (list.file.startsWith(from)) await rm(list.file, { force: true });
    return {
      scope,
      kept: [newest?.at, next?.at].filter((at) => at !== undefined),
      dropped: dropped.length,
    };
  });
}

/** A log's lines that are entries (torn ones left out), each with its time. */
function entriesOf(text: string): { line: string; at: number }[] {
  return text.split('\n').flatMap((line) => {
    if (!line) return [];
    try {
      const at = (JSON.parse(line) as { at?: unknown }).at;
      return typeof at === 'number' ? [{ line, at }] : [];
    } catch {
      return [];
    }
  });
}

async function mergeLog(
  from: string,
  into: string,
  scope: string,
): Promise<CliListsMerge['cancelLog'][number]> {
  const log = join(into, `cancel-log-${scope}.jsonl`);
  return inFileSection(log, async () => {
    const read = (file: string) => readFile(file, 'utf8').catch(() => '');
    const mine = entriesOf(await read(log));
    const known = new Set(
      [...mine, ...entriesOf(await read(log.replace(/\.jsonl$/, '.previous.jsonl')))].map(
        (e) => e.line,
      ),
    );
    const theirs = [
      ...entriesOf(await read(join(from, `cancel-log-${scope}.previous.jsonl`))),
      ...entriesOf(await read(join(from, `cancel-log-${scope}.jsonl`))),
    ].filter((entry) => !known.has(entry.line));
    const added = [...new Set(theirs.map((entry) => entry.line))].length;
    if (added > 0) {
      const merged = [...mine, ...theirs]
        .filter(
          (entry, index, all) => all.findIndex((other) => other.line === entry.line) === index,
        )
        .sort((a, b) => a.at - b.at);
      await writeFileAtomic(log, merged.map((entry) => `${entry.line}\n`).join(''), {
        mode: 0o600,
      });
    }
    await rm(join(from, `cancel-log-${scope}.jsonl`), { force: true });
    await rm(join(from, `cancel-log-${scope}.previous.jsonl`), { force: true });
    return { scope, added };
  });
}

/**
 * Merges the command line's earlier lists and cancel log (`from`) into the
 * app's data folder (`into`), once: the earlier files go as they are merged.
 * Nothing to do (the usual case) costs one look at a folder.
 */
export async function mergeEarlierCliLists(
  from: string | undefined,
  into: string,
): Promise<CliListsMerge> {
  const done: CliListsMerge = { lists: [], cancelLog: [] };
  if (from === undefined || from === into || !existsSync(from)) return done;
  let names: string[];
  try {
    names = readdirSync(from);
  } catch {
    return done;
  }
  const scopes = (pattern: RegExp) => [
    ...new Set(names.flatMap((name) => pattern.exec(name)?.[1] ?? [])),
  ];
  for (const scope of scopes(LIST)) done.lists.push(await mergeLists(from, into, scope));
  for (const scope of scopes(LOG)) done.cancelLog.push(await mergeLog(from, into, scope));
  // Writes a crash cut short there, and the folder once nothing else is in it.
  for (const name of names)
    if (name.endsWith('.tmp')) await rm(join(from, name), { force: true }).catch(() => undefined);
  try {
    rmdirSync(from);
  } catch {
    // something else is in it (not ours to remove), or it is gone
  }
  return done;
}
