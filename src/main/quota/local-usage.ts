// This computer's own count of one key's requests, beside what the service
// reports: how many went out today (a local count against the plan's daily
// limit) and a short history for the meter's chart. It lives in the key's
// gate record (gate-record.ts), so every process that sends with the key
// counts into it, and a restart forgets nothing.

import { HISTORY_BUCKET_MS, HISTORY_SPAN_MS, type QuotaHistoryPoint } from '../../shared/quota.ts';

interface HistoryPoint {
  at: number;
  sent: number;
  remaining?: number;
}

export interface LocalUsage {
  /** Local date (YYYY-MM-DD) the count belongs to; empty before the first send. */
  day: string;
  sentToday: number;
  /** The last minutes, oldest first. */
  history: HistoryPoint[];
}

export function emptyUsage(): LocalUsage {
  return { day: '', sentToday: 0, history: [] };
}

function localDay(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Starts a new day's count at local midnight and forgets history older than the chart shows. */
function roll(usage: LocalUsage, now: number): void {
  const today = localDay(now);
  if (today !== usage.day) {
    usage.day = today;
    usage.sentToday = 0;
  }
  const since = now - HISTORY_SPAN_MS;
  if (usage.history.length > 0 && usage.history[0]!.at < since) {
    usage.history = usage.history.filter((p) => p.at >= since);
  }
}

function bucket(usage: LocalUsage, now: number): HistoryPoint {
  const at = Math.floor(now / HISTORY_BUCKET_MS) * HISTORY_BUCKET_MS;
  let last = usage.history.at(-1);
  if (!last || last.at !== at) {
    last = { at, sent: 0 };
    usage.history.push(last);
  }
  return last;
}

export function countSend(usage: LocalUsage, now: number): void {
  roll(usage, now);
  usage.sentToday += 1;
  bucket(usage, now).sent += 1;
}

export function noteRemaining(usage: LocalUsage, remaining: number, now: number): void {
  roll(usage, now);
  bucket(usage, now).remaining = remaining;
}

/** The counts as the meter shows them now (a copy). */
export function usageNow(
  usage: LocalUsage,
  now: number,
): { sentToday: number; history: QuotaHistoryPoint[] } {
  const copy: LocalUsage = { ...usage, history: usage.history.map((p) => ({ ...p })) };
  roll(copy, now);
  return { sentToday: copy.sentToday, history: copy.history };
}
