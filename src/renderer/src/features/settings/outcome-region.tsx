// The outcome of a settings action (saving, removing) in a live region.

import type { Ref } from 'react';
import { StatusRegion } from '../../components/status-region.tsx';
import type { ActionOutcome } from './settings-slice.ts';

export interface OutcomeRegionProps {
  readonly outcome: ActionOutcome | undefined;
  readonly label: string;
  readonly ref?: Ref<HTMLDivElement>;
}

export function OutcomeRegion({ outcome, label, ref }: OutcomeRegionProps) {
  return (
    <StatusRegion
      ref={ref}
      label={label}
      tone={outcome?.kind === 'failed' ? 'error' : outcome?.kind === 'done' ? 'success' : 'info'}
    >
      {outcome?.message}
    </StatusRegion>
  );
}
