// A quota snapshot in plain words, for the header line and the connection test.

import { planForMinuteLimit } from '../../../../shared/plans.ts';
import type { HoldReason, QuotaSnapshot } from '../../../../shared/quota.ts';
import { formatClock, formatCount } from '../../format.ts';

export function describeQuota(quota: QuotaSnapshot | undefined): string {
  if (!quota?.known || quota.limit === undefined) return 'Quota: unknown until the first answer';
  const remaining = quota.remaining === undefined ? 'unknown' : formatCount(quota.remaining);
  const reset = quota.resetAt === undefined ? '' : `, resets ${formatClock(quota.resetAt)}`;
  return `Quota: ${remaining} of ${formatCount(quota.limit)} left${reset}`;
}

const HOLD_WORDS: Readonly<Record<HoldReason, string>> = {
  'server-429': 'the service asked to slow down',
  banned: 'the key is temporarily banned',
  'quota-exhausted': 'the quota is used up',
};

export function describeHold(quota: QuotaSnapshot | undefined): string | undefined {
  if (quota?.holdUntil === undefined) return undefined;
  const why = HOLD_WORDS[quota.holdReason ?? 'server-429'];
  return `Requests paused until ${formatClock(quota.holdUntil)}: ${why}`;
}

/** "Pro plan: 300 requests a minute, 10,000 a day", inferred from the per-minute limit. */
export function describePlan(limit: number): string {
  const plan = planForMinuteLimit(limit);
  const perDay = plan.perDay === undefined ? '' : `, ${formatCount(plan.perDay)} a day`;
  return `${plan.label} plan: ${formatCount(limit)} requests a minute${perDay}`;
}
