// The clock the quota meter's countdowns read, injected through context so a
// test can move time by exact seconds while the network stays real.

import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

export interface MeterClock {
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

export const realMeterClock: MeterClock = {
  now: () => Date.now(),
  every: (ms, tick) => {
    const timer = setInterval(tick, ms);
    return () => clearInterval(timer);
  },
};

const MeterClockContext = createContext<MeterClock>(realMeterClock);

export function MeterClockProvider({
  clock,
  children,
}: {
  clock: MeterClock;
  children: ReactNode;
}) {
  return <MeterClockContext value={clock}>{children}</MeterClockContext>;
}

/**
 * The time, re-read once a second while `active` (a countdown is on screen).
 * It can lag by up to a second; callers take the later of it and the time of
 * the figures they show.
 */
export function useSecondTicks(active: boolean): number {
  const clock = useContext(MeterClockContext);
  const [now, setNow] = useState(() => clock.now());
  useEffect(() => {
    if (!active) return undefined;
    return clock.every(1000, () => setNow(clock.now()));
  }, [clock, active]);
  return now;
}
