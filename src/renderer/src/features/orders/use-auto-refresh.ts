// The automatic refresh of one environment's orders: when the quota allows
// the next one (auto-refresh.ts), and a timer that asks the store to run it.

import { useEffect } from 'react';
import type { EnvironmentId } from '../../../../shared/environments.ts';
import { useAppStore } from '../../store-context.tsx';
import { planAutoRefresh, type AutoRefreshPlan } from './auto-refresh.ts';
import {
  isSetUp,
  lastRefreshOf,
  waitsForSettings,
  type EnvironmentOrders,
  type OrdersLoad,
} from './orders-slice.ts';

const IDLE: OrdersLoad = { kind: 'idle' };

/** Schedules the automatic refresh the quota allows, and says what it will do. */
export function useAutoRefresh(
  environment: EnvironmentId,
  orders: EnvironmentOrders | undefined,
  offline: boolean,
  now: number,
): AutoRefreshPlan {
  const quota = useAppStore((state) => state.quotas[environment]);
  const autoRefreshIfDue = useAppStore((state) => state.autoRefreshIfDue);
  const setUp = useAppStore((state) => isSetUp(state, environment));
  // After a sleep the timer below fires late by as long as the machine slept: set again on waking.
  const wokeAt = useAppStore((state) => state.wokeAt);
  const load = orders?.load ?? IDLE;
  const ready = orders?.local === 'read';
  const plan = planAutoRefresh({
    now,
    lastAttemptAt: lastRefreshOf(orders),
    quota,
    offline,
    refreshing: load.kind === 'loading',
    needsSettings: waitsForSettings(load) || !setUp,
  });
  const at = plan.kind === 'paused' ? undefined : plan.at;
  useEffect(() => {
    if (!ready || at === undefined) return;
    // The store decides again when the timer fires, from the state as it is then.
    const timer = setTimeout(
      () => void autoRefreshIfDue(environment),
      Math.max(0, at - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [ready, at, environment, autoRefreshIfDue, wokeAt]);
  return plan;
}
