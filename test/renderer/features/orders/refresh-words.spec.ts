// The status bar's line on when the list refreshes by itself agrees with the
// notice and the meter: "when the quota resets" (or "when the pause ends")
// only when that is the moment it names; a later refresh (the plan's usual
// interval) is just a time.

import { expect, test } from 'vitest';
import { planAutoRefresh } from '../../../../src/renderer/src/features/orders/auto-refresh.ts';
import { refreshWords } from '../../../../src/renderer/src/features/orders/orders-status-bar.tsx';
import { formatClock } from '../../../../src/renderer/src/format.ts';
import { quotaMeterState } from '../../../../src/renderer/src/features/quota/quota-meter-model.ts';

const NOW = new Date(2025, 5, 13, 9, 30, 0).getTime();
const RESET = NOW + 3 * 60_000;

test('the quota used up, the next refresh later than the reset: the time alone, and the notice’s time is the reset', () => {
  // Free plan: a refresh every 14.4 minutes at most; the last one a minute ago.
  const quota = { known: true, limit: 60, remaining: 0, resetAt: RESET } as const;
  const plan = planAutoRefresh({
    now: NOW,
    lastAttemptAt: NOW - 60_000,
    quota,
    offline: false,
    refreshing: false,
    needsSettings: false,
  });
  expect(plan).toMatchObject({ kind: 'waiting', until: RESET });
  expect(plan.kind === 'waiting' && plan.at).toBeGreaterThan(RESET);
  const words = refreshWords(undefined, plan, NOW);
  expect(words).toBe(
    `Next automatic refresh at ${formatClock(plan.kind === 'waiting' ? plan.at : 0)}.`,
  );
  expect(words).not.toContain('when the quota resets');
  // The notice says paused until the reset; the status bar does not give that moment another meaning.
  const hold = quotaMeterState({ ...quota, sentToday: 60, history: [] }, NOW);
  expect(hold).toMatchObject({ kind: 'limited', until: RESET });
});

test('the next refresh at the reset itself: it says why then', () => {
  const quota = { known: true, limit: 300, remaining: 10, resetAt: RESET } as const;
  const plan = planAutoRefresh({
    now: NOW,
    lastAttemptAt: NOW - 10 * 60_000,
    quota,
    offline: false,
    refreshing: false,
    needsSettings: false,
  });
  expect(plan).toEqual({ kind: 'waiting', at: RESET, until: RESET, reason: 'quota-low' });
  expect(refreshWords(undefined, plan, NOW)).toBe(
    `Next automatic refresh at ${formatClock(RESET)}, when the quota resets.`,
  );
});

test('a hold (429) ending before the usual interval: the refresh’s own time, no reason that would contradict the notice', () => {
  const hold = NOW + 30_000;
  const plan = planAutoRefresh({
    now: NOW,
    lastAttemptAt: NOW - 60_000,
    quota: { known: true, limit: 300, remaining: 0, holdUntil: hold, holdReason: 'server-429' },
    offline: false,
    refreshing: false,
    needsSettings: false,
  });
  expect(plan).toMatchObject({ kind: 'waiting', until: hold, reason: 'held-back' });
  expect(refreshWords(undefined, plan, NOW)).toBe(
    `Next automatic refresh at ${formatClock(NOW + 4 * 60_000)}.`,
  );
  const atHold = planAutoRefresh({
    now: NOW,
    lastAttemptAt: NOW - 10 * 60_000,
    quota: { known: true, limit: 300, remaining: 0, holdUntil: hold, holdReason: 'server-429' },
    offline: false,
    refreshing: false,
    needsSettings: false,
  });
  expect(refreshWords(undefined, atHold, NOW)).toBe(
    `Next automatic refresh at ${formatClock(hold)}, when the pause ends.`,
  );
});
