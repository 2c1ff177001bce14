// When the order list refreshes by itself. Never more often than the quota
// can spare: at most every five minutes, further apart on plans with a small
// daily quota (a tenth of it at most), never while the service is
// unreachable, while requests are held back (429, ban, quota used up), or
// while few requests are left in the window.

import { planForMinuteLimit } from '../../../../shared/plans.ts';
import type { QuotaSnapshot } from '../../../../shared/quota.ts';

export const MIN_AUTO_REFRESH_MS = 5 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
/** Share of the daily quota automatic refreshes may use. */
const DAILY_SHARE = 0.1;

export type AutoRefreshPlan =
  /** Refresh at this moment (now or later). */
  | { readonly kind: 'at'; readonly at: number }
  /**
   * Refresh at this moment, not before: requests are held back or few are
   * left. `until`: when the hold ends or the quota resets (`at` is later when
   * the usual interval ends later).
   */
  | {
      readonly kind: 'waiting';
      readonly at: number;
      readonly until: number;
      readonly reason: 'held-back' | 'quota-low';
    }
  /** No automatic refresh until something changes. */
  | { readonly kind: 'paused'; readonly reason: 'offline' | 'refreshing' | 'needs-settings' };

export interface AutoRefreshInput {
  readonly now: number;
  /** Epoch ms of the last refresh attempt of this session (success or not); undefined: none yet. */
  readonly lastAttemptAt: number | undefined;
  readonly quota: QuotaSnapshot | undefined;
  /** The last call found the service unreachable. */
  readonly offline: boolean;
  readonly refreshing: boolean;
  /** The last refresh failed in a way only Settings can fix (no key, key refused). */
  readonly needsSettings: boolean;
}

/** Requests that must stay free for what the clerk does by hand (cancels, a manual refresh). */
export function safeMargin(quota: QuotaSnapshot | undefined): number {
  return Math.max(5, Math.ceil((quota?.limit ?? 0) * 0.1));
}

/** Time between automatic refreshes for the quota's plan. */
export function autoRefreshInterval(quota: QuotaSnapshot | undefined): number {
  if (!quota?.known || quota.limit === undefined) return MIN_AUTO_REFRESH_MS;
  const perDay = planForMinuteLimit(quota.limit).perDay;
  if (perDay === undefined) return MIN_AUTO_REFRESH_MS;
  return Math.max(MIN_AUTO_REFRESH_MS, Math.ceil(DAY_MS / (perDay * DAILY_SHARE)));
}

export function planAutoRefresh(input: AutoRefreshInput): AutoRefreshPlan {
  const { now, lastAttemptAt, quota } = input;
  if (input.refreshing) return { kind: 'paused', reason: 'refreshing' };
  if (input.offline) return { kind: 'paused', reason: 'offline' };
  if (input.needsSettings) return { kind: 'paused', reason: 'needs-settings' };
  const due = lastAttemptAt === undefined ? now : lastAttemptAt + autoRefreshInterval(quota);
  if (quota?.holdUntil !== undefined && quota.holdUntil > now) {
    const until = quota.holdUntil;
    return { kind: 'waiting', at: Math.max(due, until), until, reason: 'held-back' };
  }
  const windowOpen = quota?.resetAt === undefined || quota.resetAt > now;
  if (
    quota?.known &&
    quota.remaining !== undefined &&
    windowOpen &&
    quota.remaining <= safeMargin(quota)
  ) {
    // Figures of a window that has ended say nothing about the next one.
    const until = quota.resetAt ?? now + MIN_AUTO_REFRESH_MS;
    return { kind: 'waiting', at: Math.max(due, until), until, reason: 'quota-low' };
  }
  return { kind: 'at', at: Math.max(due, now) };
}
