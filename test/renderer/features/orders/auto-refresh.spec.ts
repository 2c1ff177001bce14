// When the list refreshes by itself: at once on opening, then every five
// minutes or more (more on plans with a small daily quota), never offline,
// never while requests are held back, and not while few requests are left.

import { expect, test } from 'vitest';
import {
  autoRefreshInterval,
  MIN_AUTO_REFRESH_MS,
  planAutoRefresh,
  type AutoRefreshInput,
} from '../../../../src/renderer/src/features/orders/auto-refresh.ts';
import { tableOf } from './table/table-of.ts';
import { lastRefreshOf } from '../../../../src/renderer/src/features/orders/orders-slice.ts';

const NOW = Date.UTC(2025, 10, 22, 9, 0, 0);
const BASE: AutoRefreshInput = {
  now: NOW,
  lastAttemptAt: undefined,
  quota: undefined,
  offline: false,
  refreshing: false,
  needsSettings: false,
};

test('at once on opening; then after the interval', () => {
  expect(planAutoRefresh(BASE)).toEqual({ kind: 'at', at: NOW });
  expect(planAutoRefresh({ ...BASE, lastAttemptAt: NOW - 60_000 })).toEqual({
    kind: 'at',
    at: NOW - 60_000 + MIN_AUTO_REFRESH_MS,
  });
  expect(planAutoRefresh({ ...BASE, lastAttemptAt: NOW - 10 * 60_000 })).toEqual({
    kind: 'at',
    at: NOW,
  });
});

test('the interval leaves most of the daily quota to the clerk', () => {
  expect(autoRefreshInterval(undefined)).toBe(5 * 60_000);
  // Pro: 10,000 a day, a tenth is 1,000 refreshes: every 86 s would do, five minutes it is.
  expect(autoRefreshInterval({ known: true, limit: 300, remaining: 200 })).toBe(5 * 60_000);
  // Free: 1,000 a day, at most 100 automatic refreshes: every 14.4 minutes.
  expect(autoRefreshInterval({ known: true, limit: 60, remaining: 50 })).toBe(864_000);
  // Enterprise (custom): the minimum.
  expect(autoRefreshInterval({ known: true, limit: 5000, remaining: 50 })).toBe(5 * 60_000);
});

test('never while refreshing, offline, or waiting for Settings', () => {
  expect(planAutoRefresh({ ...BASE, refreshing: true })).toEqual({
    kind: 'paused',
    reason: 'refreshing',
  });
  expect(planAutoRefresh({ ...BASE, offline: true })).toEqual({
    kind: 'paused',
    reason: 'offline',
  });
  expect(planAutoRefresh({ ...BASE, needsSettings: true })).toEqual({
    kind: 'paused',
    reason: 'needs-settings',
  });
});

test('waits while requests are held back (429, ban)', () => {
  const quota = {
    known: true,
    limit: 300,
    remaining: 0,
    holdUntil: NOW + 30_000,
    holdReason: 'server-429' as const,
  };
  expect(planAutoRefresh({ ...BASE, quota })).toEqual({
    kind: 'waiting',
    at: NOW + 30_000,
    until: NOW + 30_000,
    reason: 'held-back',
  });
  // A hold in the past holds nothing.
  expect(
    planAutoRefresh({ ...BASE, quota: { ...quota, holdUntil: NOW - 1, remaining: 100 } }),
  ).toEqual({
    kind: 'at',
    at: NOW,
  });
});

test('waits for the window to reset while few requests are left', () => {
  const low = { known: true, limit: 60, remaining: 6, resetAt: NOW + 20_000 };
  expect(planAutoRefresh({ ...BASE, quota: low })).toEqual({
    kind: 'waiting',
    at: NOW + 20_000,
    until: NOW + 20_000,
    reason: 'quota-low',
  });
  expect(planAutoRefresh({ ...BASE, quota: { ...low, remaining: 7 } })).toEqual({
    kind: 'at',
    at: NOW,
  });
  // Figures of a window that has ended say nothing about the next one.
  expect(planAutoRefresh({ ...BASE, quota: { ...low, resetAt: NOW - 1 } })).toEqual({
    kind: 'at',
    at: NOW,
  });
  // The margin grows with the plan: a tenth of the per-minute limit.
  expect(
    planAutoRefresh({
      ...BASE,
      quota: { known: true, limit: 1000, remaining: 100, resetAt: NOW + 5000 },
    }).kind,
  ).toBe('waiting');
});

test('the last refresh is the later of this session’s last try and the time of the list shown', () => {
  const base = {
    load: { kind: 'idle' as const },
    local: 'read' as const,
    marks: {},
    cancelLog: [],
  };
  const list = (receivedAt: number, partial = false) => ({
    table: tableOf([]),
    receivedAt,
    bytes: 2,
    source: 'cache' as const,
    partial,
  });
  expect(lastRefreshOf(undefined)).toBeUndefined();
  expect(lastRefreshOf(base)).toBeUndefined();
  // A saved copy counts from when it was downloaded; only the first rows of one do not count yet.
  expect(lastRefreshOf({ ...base, list: list(NOW - 60_000) })).toBe(NOW - 60_000);
  expect(lastRefreshOf({ ...base, list: list(NOW - 60_000, true) })).toBeUndefined();
  expect(lastRefreshOf({ ...base, list: list(NOW - 60_000), lastAttemptAt: NOW - 1000 })).toBe(
    NOW - 1000,
  );
  expect(lastRefreshOf({ ...base, list: list(NOW - 60_000), lastAttemptAt: NOW - 3_600_000 })).toBe(
    NOW - 60_000,
  );
  // So a copy from a minute ago is refreshed four minutes on; one from an hour ago at once.
  expect(planAutoRefresh({ ...BASE, lastAttemptAt: NOW - 60_000 })).toEqual({
    kind: 'at',
    at: NOW + 4 * 60_000,
  });
  expect(planAutoRefresh({ ...BASE, lastAttemptAt: NOW - 3_600_000 })).toEqual({
    kind: 'at',
    at: NOW,
  });
});
