// The current time, refreshed while a step waits on the clock (the 30 minutes
// a certificate may take), so the page moves on without a reload.

import { useEffect, useState } from 'react';

export function useNow(refreshMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs]);
  return now;
}
