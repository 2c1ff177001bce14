// What the quota meter shows, worked out from a QuotaView and the time: the
// state (unknown, open, limited, banned), how full the gauge is and in which
// words, and what the chart's buckets add up to. Pure, so the thresholds and
// the sums are tested without rendering.

import { planForMinuteLimit } from '../../../../shared/plans.ts';
import {
  HISTORY_BUCKET_MS,
  HISTORY_SPAN_MS,
  type HoldReason,
  type QuotaHistoryPoint,
  type QuotaView,
} from '../../../../shared/quota.ts';

export type QuotaLevel = 'plenty' | 'getting-low' | 'almost-out' | 'used-up';

/** The word beside the gauge, so the colour is never the only signal. */
export const LEVEL_WORDS: Readonly<Record<QuotaLevel, string>> = {
  plenty: 'plenty',
  'getting-low': 'getting low',
  'almost-out': 'almost out',
  'used-up': 'used up',
};

/** Above half left: plenty; 20–50%: getting low; under 20%: almost out; none: used up. */
export function quotaLevel(remaining: number, limit: number): QuotaLevel {
  if (remaining <= 0 || limit <= 0) return 'used-up';
  const share = remaining / limit;
  if (share > 0.5) return 'plenty';
  if (share >= 0.2) return 'getting-low';
  return 'almost-out';
}

export interface QuotaFigures {
  readonly limit: number;
  /** Undefined when the service sent a limit but no Remaining. */
  readonly remaining?: number;
  readonly level?: QuotaLevel;
  readonly resetAt?: number;
  /** The window the figures belong to has reset since: they are the last answer's, not now's. */
  readonly windowPassed: boolean;
  readonly plan: { readonly label: string; readonly perDay?: number };
}

export type LimitReason = 'server-429' | 'gateway-429' | 'quota-exhausted';

export type QuotaMeterState =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'open'; readonly figures: QuotaFigures }
  | {
      readonly kind: 'limited';
      readonly reason: LimitReason;
      /** When requests may be sent again. */
      readonly until: number;
      readonly figures?: QuotaFigures;
    }
  | { readonly kind: 'banned'; readonly until: number; readonly figures?: QuotaFigures };

function figuresOf(view: QuotaView, now: number): QuotaFigures | undefined {
  if (!view.known || view.limit === undefined) return undefined;
  const { limit, remaining, resetAt } = view;
  const plan = planForMinuteLimit(limit);
  return {
    limit,
    ...(remaining === undefined ? {} : { remaining, level: quotaLevel(remaining, limit) }),
    ...(resetAt === undefined ? {} : { resetAt }),
    windowPassed: resetAt !== undefined && resetAt <= now,
    plan: { label: plan.label, ...(plan.perDay === undefined ? {} : { perDay: plan.perDay }) },
  };
}

/**
 * The meter's state at `now`. A hold the main process set (429, ban) wins;
 * otherwise a Remaining of 0 before the reset means the client holds back
 * until then, as the request gate does (src/main/quota/gate.ts).
 */
export function quotaMeterState(view: QuotaView | undefined, now: number): QuotaMeterState {
  if (!view) return { kind: 'unknown' };
  const figures = figuresOf(view, now);
  const withFigures = figures ? { figures } : {};
  if (view.holdUntil !== undefined && view.holdUntil > now) {
    if (view.holdReason === 'banned')
      return { kind: 'banned', until: view.holdUntil, ...withFigures };
    return {
      kind: 'limited',
      reason: view.holdReason ?? 'server-429',
      until: view.holdUntil,
      ...withFigures,
    };
  }
  if (!figures) return { kind: 'unknown' };
  if (figures.remaining === 0 && figures.resetAt !== undefined && !figures.windowPassed) {
    return { kind: 'limited', reason: 'quota-exhausted', until: figures.resetAt, figures };
  }
  return { kind: 'open', figures };
}

/**
 * How far a window's reset can fall after a hold that ends at the same
 * moment: X-RateLimit-Reset is in whole seconds, rounded up, and is set
 * against the service's clock, which is known to a second (its Date header);
 * Retry-After counts from the answer.
 */
const RESET_ROUNDING_MS = 2000;

/**
 * The moment requests are held until, and why, as the gate in main has it,
 * without looking at the clock: a hold (429, ban), else a used-up window
 * until its reset. Whether it still holds is for the caller to tell (e.g.
 * useBefore), so a component can re-render exactly when it ends.
 */
export function pendingHold(
  view: QuotaView | undefined,
): { readonly until: number; readonly reason: HoldReason } | undefined {
  if (!view) return undefined;
  const hold =
    view.holdUntil === undefined
      ? undefined
      : { until: view.holdUntil, reason: view.holdReason ?? ('server-429' as const) };
  const usedUp =
    view.known && view.remaining === 0 && view.resetAt !== undefined
      ? { until: view.resetAt, reason: 'quota-exhausted' as const }
      : undefined;
  // Whichever lasts longer; an ended one is then no hold at all. A reset within
  // RESET_ROUNDING_MS after the hold's end is the same moment (a ban's answer resets the
  // window when the ban ends), and the hold says why.
  if (hold && usedUp) return usedUp.until >= hold.until + RESET_ROUNDING_MS ? usedUp : hold;
  return hold ?? usedUp;
}

/** A wait as m:ss (h:mm:ss from an hour), rounded up to the second, never below 0:00. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}`
    : `${minutes}:${seconds}`;
}

/** The chart's slots: one per history bucket over the last 15 minutes, oldest first. */
export const CHART_SLOTS = HISTORY_SPAN_MS / HISTORY_BUCKET_MS;

export interface ChartSlot {
  readonly at: number;
  readonly sent: number;
  readonly remaining?: number;
}

export interface HistorySummary {
  readonly slots: readonly ChartSlot[];
  readonly totalSent: number;
  readonly busiest: number;
  /** First and last Remaining reported in the span, and the lowest. */
  readonly firstRemaining?: number;
  readonly lastRemaining?: number;
  readonly lowestRemaining?: number;
}

/** The history laid on a fixed 15-minute axis ending with the bucket `now` falls in. */
export function summarizeHistory(
  history: readonly QuotaHistoryPoint[],
  now: number,
): HistorySummary {
  const last = Math.floor(now / HISTORY_BUCKET_MS) * HISTORY_BUCKET_MS;
  const first = last - (CHART_SLOTS - 1) * HISTORY_BUCKET_MS;
  const slots: ChartSlot[] = Array.from({ length: CHART_SLOTS }, (_, i) => ({
    at: first + i * HISTORY_BUCKET_MS,
    sent: 0,
  }));
  let totalSent = 0;
  let busiest = 0;
  let firstRemaining: number | undefined;
  let lastRemaining: number | undefined;
  let lowestRemaining: number | undefined;
  for (const point of [...history].sort((a, b) => a.at - b.at)) {
    const index = Math.floor((point.at - first) / HISTORY_BUCKET_MS);
    const slot = slots[index];
    if (!slot) continue;
    const merged: ChartSlot = {
      at: slot.at,
      sent: slot.sent + point.sent,
      ...(point.remaining === undefined
        ? slot.remaining === undefined
          ? {}
          : { remaining: slot.remaining }
        : { remaining: point.remaining }),
    };
    slots[index] = merged;
    totalSent += point.sent;
    busiest = Math.max(busiest, merged.sent);
    if (point.remaining !== undefined) {
      firstRemaining ??= point.remaining;
      lastRemaining = point.remaining;
      lowestRemaining = Math.min(lowestRemaining ?? point.remaining, point.remaining);
    }
  }
  return {
    slots,
    totalSent,
    busiest,
    ...(firstRemaining === undefined ? {} : { firstRemaining }),
    ...(lastRemaining === undefined ? {} : { lastRemaining }),
    ...(lowestRemaining === undefined ? {} : { lowestRemaining }),
  };
}
