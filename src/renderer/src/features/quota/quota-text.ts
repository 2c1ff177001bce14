// A quota snapshot in plain words, for the header meter and the connection test.

import { planForMinuteLimit } from '../../../../shared/plans.ts';
import { HISTORY_SPAN_MS, type HoldReason, type QuotaSnapshot } from '../../../../shared/quota.ts';
import { formatCount, formatMomentWithSeconds } from '../../format.ts';
import type { HistorySummary, LimitReason } from './quota-meter-model.ts';

/** A reset on another day than the answer's carries its day ("resets 29 Nov, 00:00:30"). */
export function describeQuota(quota: QuotaSnapshot | undefined): string {
  if (!quota?.known || quota.limit === undefined) return 'Quota: unknown until the first answer';
  const remaining = quota.remaining === undefined ? 'unknown' : formatCount(quota.remaining);
  const reset =
    quota.resetAt === undefined
      ? ''
      : `, resets ${formatMomentWithSeconds(quota.resetAt, quota.observedAt ?? quota.resetAt)}`;
  return `Quota: ${remaining} of ${formatCount(quota.limit)} left${reset}`;
}

const HOLD_WORDS: Readonly<Record<HoldReason, string>> = {
  'server-429': 'the service asked to slow down',
  'gateway-429': 'a gateway between this computer and the store service is limiting requests',
  banned: 'the key is temporarily banned',
  'quota-exhausted': 'the quota is used up',
};

export function describeHold(quota: QuotaSnapshot | undefined): string | undefined {
  if (quota?.holdUntil === undefined) return undefined;
  const why = HOLD_WORDS[quota.holdReason ?? 'server-429'];
  return `Requests paused until ${formatMomentWithSeconds(quota.holdUntil, Date.now())}: ${why}`;
}

/** "Pro plan: 300 requests a minute, 10,000 a day", inferred from the per-minute limit. */
export function describePlan(limit: number): string {
  const plan = planForMinuteLimit(limit);
  const perDay = plan.perDay === undefined ? '' : `, ${formatCount(plan.perDay)} a day`;
  return `${plan.label} plan: ${formatCount(limit)} requests a minute${perDay}`;
}

// The meter's words (quota-line.tsx). Absolute times are local HH:MM:SS; the
// live countdowns are rendered apart from these, so an announcement never
// carries a number that changes every second.

const LIMIT_REASONS: Readonly<Record<LimitReason, string>> = {
  'server-429': 'The service answered 429 Too Many Requests.',
  'gateway-429':
    'Something between this computer and the store service (a gateway or proxy) answered 429 Too Many Requests; the service’s own quota is not used up.',
  'quota-exhausted':
    'The quota for this window is used up, so Store Admin holds requests back until it resets.',
};

export function describeLimitReason(reason: LimitReason): string {
  return LIMIT_REASONS[reason];
}

export const BAN_WARNING =
  'Store Admin waits rather than retrying: repeated requests after a limit can get the API key banned.';

/** "This computer: 213 of 10,000 today (local count)": what this app sent, not the service's figure. */
export function describeLocalCount(sentToday: number, perDay: number | undefined): string {
  const against = perDay === undefined ? '' : ` of ${formatCount(perDay)}`;
  return `This computer: ${formatCount(sentToday)}${against} today (local count)`;
}

/** "Pro plan · 10,000 a day", or the custom plan without a daily figure. */
export function describePlanShort(plan: {
  readonly label: string;
  readonly perDay?: number;
}): string {
  const perDay =
    plan.perDay === undefined
      ? 'daily limit agreed individually'
      : `${formatCount(plan.perDay)} a day`;
  return `${plan.label} plan · ${perDay}`;
}

/** The chart's text alternative: the totals a sighted reader takes from the picture. */
export function describeHistory(summary: HistorySummary, limit: number | undefined): string {
  const minutes = Math.round(HISTORY_SPAN_MS / 60_000);
  const sent =
    summary.totalSent === 0
      ? `No requests sent from this computer in the last ${minutes} minutes.`
      : `${formatCount(summary.totalSent)} ${summary.totalSent === 1 ? 'request' : 'requests'} sent from this computer in the last ${minutes} minutes, at most ${formatCount(summary.busiest)} in 10 seconds.`;
  const { firstRemaining, lastRemaining, lowestRemaining } = summary;
  const of = limit === undefined ? '' : ` of ${formatCount(limit)}`;
  const left =
    firstRemaining === undefined || lastRemaining === undefined || lowestRemaining === undefined
      ? 'No remaining quota reported in that time.'
      : `Requests left${of}: from ${formatCount(firstRemaining)} to ${formatCount(lastRemaining)}, lowest ${formatCount(lowestRemaining)}.`;
  return `${sent} ${left}`;
}
