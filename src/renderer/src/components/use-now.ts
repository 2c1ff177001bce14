// Re-rendering as time passes: the one clock hook of the renderer (the "3 min
// ago" texts, a step that waits on the clock), and a flag that flips when a
// moment is reached (a wait that ends, a button that comes back). The quota
// meter's per-second countdowns use their own injectable clock
// (features/quota/meter-clock.tsx).

import { useEffect, useState } from 'react';

/** setTimeout waits at most this long (~24.8 days); longer waits take several. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** The current time in epoch ms, updated every `everyMs`. */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** True until the moment `at` has passed (re-rendering then); false without a moment. */
export function useBefore(at: number | undefined): boolean {
  const [passed, setPassed] = useState<number | undefined>(undefined);
  const [checks, setChecks] = useState(0);
  useEffect(() => {
    if (at === undefined) return;
    const timer = setTimeout(
      () => (Date.now() >= at ? setPassed(at) : setChecks((n) => n + 1)),
      Math.min(MAX_TIMEOUT_MS, Math.max(0, at - Date.now())),
    );
    return () => clearTimeout(timer);
  }, [at, checks]);
  return at !== undefined && passed !== at;
}
