// The hold that stops requests to an environment now, as the gate in main
// reports it (a 429's wait, a ban, a used-up window): the one source for
// every control that would send a request, so the bulk strip, Refresh and the
// notice area never disagree about it.

import type { EnvironmentId } from '../../../../shared/environments.ts';
import { MAX_INLINE_WAIT_MS, type HoldReason } from '../../../../shared/quota.ts';
import { useBefore } from '../../components/use-now.ts';
import { useAppStore } from '../../store-context.tsx';
import { pendingHold } from './quota-meter-model.ts';

export interface CurrentHold {
  readonly until: number;
  readonly reason: HoldReason;
  /** A request sent now would fail at once rather than wait for the end (the hold is long). */
  readonly failsAtOnce: boolean;
}

/** The environment's hold while it lasts (re-rendering when it ends); undefined when there is none. */
export function useCurrentHold(environment: EnvironmentId): CurrentHold | undefined {
  const quota = useAppStore((state) => state.quotas[environment]);
  const hold = pendingHold(quota);
  const holding = useBefore(hold?.until);
  // The last stretch of a hold a request waits out rather than failing.
  const long = useBefore(hold === undefined ? undefined : hold.until - MAX_INLINE_WAIT_MS);
  return hold && holding ? { ...hold, failsAtOnce: long } : undefined;
}
