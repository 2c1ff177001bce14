// The meter's pure parts: levels and words, countdowns, the state a view
// means at a moment, and the chart's sums and their text alternative.

import { describe, expect, test } from 'vitest';
import {
  CHART_SLOTS,
  formatCountdown,
  LEVEL_WORDS,
  quotaLevel,
  quotaMeterState,
  summarizeHistory,
  pendingHold,
} from '../../../../src/renderer/src/features/quota/quota-meter-model.ts';
import {
  describeHistory,
  describeLocalCount,
  describePlanShort,
  describeQuota,
} from '../../../../src/renderer/src/features/quota/quota-text.ts';
import type { QuotaView } from '../../../../src/shared/quota.ts';
import { formatClock, formatMomentWithSeconds } from '../../../../src/renderer/src/format.ts';

const NOW = Date.UTC(2025, 0, 15, 10, 0, 5);

function view(fields: Partial<QuotaView>): QuotaView {
  return { known: true, sentToday: 0, history: [], ...fields };
}

describe('quotaLevel', () => {
  test.each([
    [300, 300, 'plenty'],
    [151, 300, 'plenty'],
    [150, 300, 'getting-low'],
    [60, 300, 'getting-low'],
    [59, 300, 'almost-out'],
    [1, 300, 'almost-out'],
    [0, 300, 'used-up'],
    [31, 60, 'plenty'],
    [30, 60, 'getting-low'],
    [11, 60, 'almost-out'],
  ] as const)('%i of %i left is %s', (remaining, limit, level) => {
    expect(quotaLevel(remaining, limit)).toBe(level);
  });

  test('every level has its word', () => {
    expect(LEVEL_WORDS).toEqual({
      plenty: 'plenty',
      'getting-low': 'getting low',
      'almost-out': 'almost out',
      'used-up': 'used up',
    });
  });
});

test('formatCountdown rounds up to the second and never goes below zero', () => {
  expect(formatCountdown(42_000)).toBe('0:42');
  expect(formatCountdown(41_001)).toBe('0:42');
  expect(formatCountdown(61_000)).toBe('1:01');
  expect(formatCountdown(3_600_000)).toBe('1:00:00');
  expect(formatCountdown(3_725_000)).toBe('1:02:05');
  expect(formatCountdown(0)).toBe('0:00');
  expect(formatCountdown(-5_000)).toBe('0:00');
});

describe('quotaMeterState', () => {
  test('unknown without a view, before the first answer, and without a limit', () => {
    expect(quotaMeterState(undefined, NOW)).toEqual({ kind: 'unknown' });
    expect(quotaMeterState(view({ known: false }), NOW)).toEqual({ kind: 'unknown' });
    expect(quotaMeterState(view({ remaining: 5 }), NOW)).toEqual({ kind: 'unknown' });
  });

  test('open: the figures, their level and the plan the limit implies', () => {
    const state = quotaMeterState(view({ limit: 300, remaining: 120, resetAt: NOW + 30_000 }), NOW);
    expect(state).toEqual({
      kind: 'open',
      figures: {
        limit: 300,
        remaining: 120,
        level: 'getting-low',
        resetAt: NOW + 30_000,
        windowPassed: false,
        plan: { label: 'Pro', perDay: 10_000 },
      },
    });
    const custom = quotaMeterState(view({ limit: 5_000, remaining: 4_000, resetAt: NOW + 1 }), NOW);
    expect(custom.kind === 'open' && custom.figures.plan).toEqual({ label: 'Enterprise (custom)' });
  });

  test('Remaining 0 before the reset holds requests back until the reset; after it, the figures are old', () => {
    const spent = view({ limit: 60, remaining: 0, resetAt: NOW + 20_000 });
    expect(quotaMeterState(spent, NOW)).toMatchObject({
      kind: 'limited',
      reason: 'quota-exhausted',
      until: NOW + 20_000,
    });
    expect(quotaMeterState(spent, NOW + 20_000)).toMatchObject({
      kind: 'open',
      figures: { windowPassed: true },
    });
  });

  test('a hold from the main process wins while it lasts: 429 or ban', () => {
    const limited = view({
      limit: 60,
      remaining: 0,
      resetAt: NOW + 50_000,
      holdUntil: NOW + 9_000,
      holdReason: 'server-429',
    });
    expect(quotaMeterState(limited, NOW)).toMatchObject({
      kind: 'limited',
      reason: 'server-429',
      until: NOW + 9_000,
    });
    const banned = view({
      limit: 60,
      remaining: 0,
      resetAt: NOW + 900_000,
      holdUntil: NOW + 900_000,
      holdReason: 'banned',
    });
    expect(quotaMeterState(banned, NOW)).toMatchObject({ kind: 'banned', until: NOW + 900_000 });
    // A 429 without rate-limit headers: held, with no figures to show.
    expect(
      quotaMeterState(
        view({ known: false, holdUntil: NOW + 1_000, holdReason: 'server-429' }),
        NOW,
      ),
    ).toEqual({
      kind: 'limited',
      reason: 'server-429',
      until: NOW + 1_000,
    });
    // A hold that has ended no longer counts.
    expect(
      quotaMeterState({ ...banned, remaining: 10, resetAt: NOW + 2_000_000 }, NOW + 900_000),
    ).toMatchObject({ kind: 'open' });
  });
});

describe('the chart', () => {
  const bucket = (secondsAgo: number) => Math.floor((NOW - secondsAgo * 1000) / 10_000) * 10_000;

  test('lays the last 15 minutes on 90 slots and sums them; older buckets are left out', () => {
    const summary = summarizeHistory(
      [
        { at: bucket(20 * 60), sent: 50, remaining: 1 }, // older than 15 minutes
        { at: bucket(14 * 60), sent: 2, remaining: 298 },
        { at: bucket(60), sent: 5, remaining: 120 },
        { at: bucket(0), sent: 1, remaining: 280 },
      ],
      NOW,
    );
    expect(summary.slots).toHaveLength(CHART_SLOTS);
    expect(summary.slots.at(-1)).toEqual({ at: bucket(0), sent: 1, remaining: 280 });
    expect(summary).toMatchObject({
      totalSent: 8,
      busiest: 5,
      firstRemaining: 298,
      lastRemaining: 280,
      lowestRemaining: 120,
    });
    expect(describeHistory(summary, 300)).toBe(
      '8 requests sent from this computer in the last 15 minutes, at most 5 in 10 seconds. Requests left of 300: from 298 to 280, lowest 120.',
    );
  });

  test('says so when nothing was sent or reported', () => {
    expect(describeHistory(summarizeHistory([], NOW), undefined)).toBe(
      'No requests sent from this computer in the last 15 minutes. No remaining quota reported in that time.',
    );
  });
});

test('the local count is labelled as such, against the plan’s daily limit when there is one', () => {
  expect(describeLocalCount(213, 10_000)).toBe('This computer: 213 of 10,000 today (local count)');
  expect(describeLocalCount(4, undefined)).toBe('This computer: 4 today (local count)');
  expect(describePlanShort({ label: 'Business', perDay: 100_000 })).toBe(
    'Business plan · 100,000 a day',
  );
  expect(describePlanShort({ label: 'Enterprise (custom)' })).toBe(
    'Enterprise (custom) plan · daily limit agreed individually',
  );
});

test('the connection test’s quota names the day of a reset that falls after the answer’s day', () => {
  const evening = new Date(2025, 0, 15, 23, 59, 40).getTime();
  const sameDay = new Date(2025, 0, 15, 23, 59, 50).getTime();
  const nextDay = new Date(2025, 0, 16, 0, 0, 0).getTime();
  const quota = { known: true, limit: 300, remaining: 298, observedAt: evening };
  expect(describeQuota({ ...quota, resetAt: sameDay })).toBe(
    `Quota: 298 of 300 left, resets ${formatClock(sameDay)}`,
  );
  const tomorrow = describeQuota({ ...quota, resetAt: nextDay });
  expect(tomorrow).toBe(
    `Quota: 298 of 300 left, resets ${formatMomentWithSeconds(nextDay, evening)}`,
  );
  expect(tomorrow).not.toBe(`Quota: 298 of 300 left, resets ${formatClock(nextDay)}`);
  expect(describeQuota({ known: false })).toBe('Quota: unknown until the first answer');
});

test("the pending hold is the gate's: a 429 or a ban until its time, a used-up window until its reset, the later of the two", () => {
  const reset = NOW + 30_000;
  expect(pendingHold(undefined)).toBeUndefined();
  expect(pendingHold(view({ limit: 60, remaining: 5, resetAt: reset }))).toBeUndefined();
  expect(pendingHold(view({ limit: 60, remaining: 0, resetAt: reset }))).toEqual({
    until: reset,
    reason: 'quota-exhausted',
  });
  expect(
    pendingHold(
      view({
        limit: 60,
        remaining: 0,
        resetAt: reset,
        holdUntil: NOW + 90_000,
        holdReason: 'banned',
      }),
    ),
  ).toEqual({ until: NOW + 90_000, reason: 'banned' });
  expect(
    pendingHold(
      view({
        limit: 60,
        remaining: 0,
        resetAt: reset,
        holdUntil: NOW + 10_000,
        holdReason: 'server-429',
      }),
    ),
  ).toEqual({ until: reset, reason: 'quota-exhausted' });
  // A window reset in whole seconds, rounded up, on the service's clock (known to a second), a
  // moment after a ban's end: the ban's moment (the same one), said as a ban, not as a pause.
  const banEnd = NOW + 12_345;
  for (const resetAt of [NOW + 13_000, banEnd + 999, banEnd + 1999])
    expect(
      pendingHold(
        view({ limit: 3, remaining: 0, resetAt, holdUntil: banEnd, holdReason: 'banned' }),
      ),
    ).toEqual({ until: banEnd, reason: 'banned' });
  expect(
    pendingHold(
      view({
        limit: 3,
        remaining: 0,
        resetAt: banEnd + 2000,
        holdUntil: banEnd,
        holdReason: 'banned',
      }),
    ),
  ).toEqual({ until: banEnd + 2000, reason: 'quota-exhausted' });
});
