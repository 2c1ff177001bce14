// Release 0.1.0 kept the quota state of every environment in one file,
// `quota-state.json` in the data folder: per environment, the key's figures
// (a hold or ban among them), the day's local count and the chart, tied to
// the key by a fingerprint, a hash of the environment, the address and the
// key. Today each key and address has a gate record of its own (quota/).
// The key is needed to find an entry's record, so an entry is read when its
// key's gate is opened, at its address: merged into the record and removed
// from the earlier file under the record's lock, so it counts once whichever
// process (the app, a CLI run) opens it first. Entries of keys never used
// again stay in the small file, read by nobody.

import { createHash } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { ENVIRONMENT_IDS } from '../../shared/environments.ts';
import { validateBaseUrl } from '../../shared/environments.ts';
import { sanitizeRecord, setHold, type GateRecord } from '../quota/gate-record.ts';
import { LockHeldError, lockSync } from './file-lock.ts';

/** The file's name in the data folder. */
export const EARLIER_QUOTA_STATE = 'quota-state.json';

/** How 0.1.0 tied an entry to its key (never kept: a short hash). */
function fingerprint(environment: string, baseUrl: string, key: string): string {
  return createHash('sha256')
    .update(`${environment}\n${baseUrl}\n${key}`)
    .digest('hex')
    .slice(0, 16);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An entry as today's record: the figures, the hold, the day's count and the chart. */
function recordOf(entry: Record<string, unknown>, now: number): GateRecord {
  return sanitizeRecord(
    {
      snapshot: entry.snapshot,
      usage: { day: entry.day, sentToday: entry.sentToday, history: entry.history },
    },
    now,
  );
}

/**
 * Adds what an earlier entry knew to a record: the newer figures, the later
 * hold, and the day's count and chart (the two counted different requests).
 */
export function mergeEarlierRecord(record: GateRecord, earlier: GateRecord, now: number): void {
  const was = earlier.snapshot;
  const is = record.snapshot;
  if (was.known && (!is.known || (was.observedAt ?? 0) > (is.observedAt ?? 0))) {
    record.snapshot = {
      ...is,
      known: true,
      ...(was.limit !== undefined ? { limit: was.limit } : {}),
      ...(was.remaining !== undefined ? { remaining: was.remaining } : {}),
      ...(was.resetAt !== undefined ? { resetAt: was.resetAt } : {}),
      ...(was.observedAt !== undefined ? { observedAt: was.observedAt } : {}),
    };
  }
  if (was.holdUntil !== undefined && was.holdUntil > now)
    setHold(record, was.holdUntil, was.holdReason ?? 'server-429', now);
  const usage = record.usage;
  const before = earlier.usage;
  if (before.day !== '' && (usage.day === '' || before.day > usage.day)) {
    record.usage = { day: before.day, sentToday: before.sentToday, history: before.history };
  } else if (before.day === usage.day) {
    usage.sentToday += before.sentToday;
    const buckets = new Map(usage.history.map((point) => [point.at, { ...point }]));
    for (const point of before.history) {
      const same = buckets.get(point.at);
      if (same) same.sent += point.sent;
      else buckets.set(point.at, { ...point });
    }
    usage.history = [...buckets.values()].sort((a, b) => a.at - b.at);
  }
}

function readState(file: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined; // none (the usual case), or torn: nothing to carry over
  }
}

/** The environment whose entry belongs to this key at this address, if one does. */
function entryFor(
  state: Record<string, unknown>,
  baseUrl: string,
  key: string,
): string | undefined {
  const checked = validateBaseUrl(baseUrl);
  const addresses = new Set([baseUrl, baseUrl.replace(/\/+$/, '')]);
  if (checked.ok) addresses.add(checked.value);
  return ENVIRONMENT_IDS.find((environment) => {
    const entry = state[environment];
    if (!isObject(entry) || typeof entry.fingerprint !== 'string') return false;
    return [...addresses].some(
      (address) => fingerprint(environment, address, key) === entry.fingerprint,
    );
  });
}

/**
 * Called under the lock of the record of `key` at `baseUrl`: merges the
 * earlier file's entry for them, if there is one, and removes it from the
 * file (the file goes once it is empty). A file that cannot be rewritten
 * (a read-only disk) keeps its entry, read again at the next start into a
 * record that could not be saved either, so nothing is counted twice.
 */
export function adoptEarlierQuotaState(
  file: string,
  record: GateRecord,
  baseUrl: string,
  key: string,
  now: number,
): void {
  const found = readState(file);
  if (!found || entryFor(found, baseUrl, key) === undefined) return;
  // The file is shared by every key's record: rewritten under a lock of its own.
  let release: (() => void) | undefined;
  try {
    release = lockSync(`${file}.lock`, { staleMs: 2_000 });
  } catch (error) {
    if (error instanceof LockHeldError) return; // another key's entry is being taken out: next time
    return; // a disk that takes no lock: read again at the next start
  }
  try {
    const state = readState(file);
    const environment = state && entryFor(state, baseUrl, key);
    if (!state || environment === undefined) return;
    const rest = { ...state };
    delete rest[environment];
    try {
      if (ENVIRONMENT_IDS.some((id) => isObject(rest[id]))) {
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, JSON.stringify(rest), { mode: 0o600 });
        renameSync(temporary, file);
      } else {
        unlinkSync(file);
      }
    } catch {
      return; // the entry stays where it was, and so does the record
    }
    mergeEarlierRecord(record, recordOf(state[environment] as Record<string, unknown>, now), now);
  } finally {
    release();
  }
}
