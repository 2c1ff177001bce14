// The quota of the active environment's key, in one line of the header.

import { useEffect, useState } from 'react';
import { useAppStore } from '../../store-context.tsx';
import { describeHold, describeQuota } from './quota-text.ts';

/** True until the moment `at` has passed (re-rendering then); false without a moment. */
function useBefore(at: number | undefined): boolean {
  const [passed, setPassed] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (at === undefined) return;
    const timer = setTimeout(() => setPassed(at), Math.max(0, at - Date.now()));
    return () => clearTimeout(timer);
  }, [at]);
  return at !== undefined && passed !== at;
}

export function QuotaLine() {
  const environment = useAppStore((state) => state.activeEnvironment);
  const quota = useAppStore((state) => state.quotas[environment]);
  const held = useBefore(quota?.holdUntil);
  const hold = held ? describeHold(quota) : undefined;

  return (
    <p className="quota-line">
      <span>{describeQuota(quota)}</span>
      {hold && <span className="quota-hold"> · {hold}</span>}
    </p>
  );
}
