// What came back from the last cancel, in plain words. Only an answer of kind
// "cancelled" is shown as done; a lost answer says the order must be checked.

import type { Ref } from 'react';
import { ENVIRONMENT_LABELS, isRemoteEnvironment } from '../../../../shared/environments.ts';
import { StatusRegion, type Tone } from '../../components/status-region.tsx';
import { useAppStore } from '../../store-context.tsx';
import { failureNeedsSettings, OpenSettingsButton } from '../settings/open-settings-button.tsx';
import type { CancelFlow } from './orders-slice.ts';

const TONES = {
  cancelled: 'success',
  'not-found': 'warning',
  'already-shipped': 'warning',
} as const;

function toneOf(flow: CancelFlow): Tone {
  if (flow.step === 'answered') return TONES[flow.outcome.kind];
  return flow.step === 'failed' ? 'error' : 'info';
}

export function CancelOutcome({ ref }: { ref?: Ref<HTMLDivElement> }) {
  const flow = useAppStore((state) => state.cancelFlow);
  const hasBaseUrl = useAppStore(
    (state) =>
      flow.step === 'idle' ||
      !isRemoteEnvironment(flow.environment) ||
      state.environments.some((view) => view.id === flow.environment && view.baseUrl),
  );

  let content = null;
  if (flow.step === 'answered') {
    content = (
      <p>
        <strong>{ENVIRONMENT_LABELS[flow.environment]}:</strong> {flow.outcome.message}
      </p>
    );
  } else if (flow.step === 'failed') {
    const { failure, environment, orderId } = flow;
    const notCancelled = `Order ${orderId} was not cancelled.`;
    const lead =
      failure.delivery === 'unknown'
        ? `Order ${orderId} may or may not have been cancelled: the answer was lost. Refresh the list to check.`
        : failure.message.includes(notCancelled)
          ? ''
          : notCancelled;
    content = (
      <>
        <p>
          <strong>{ENVIRONMENT_LABELS[environment]}:</strong> {lead} {failure.message}
        </p>
        {failureNeedsSettings(failure, environment, hasBaseUrl) && (
          <OpenSettingsButton environment={environment} />
        )}
      </>
    );
  }

  return (
    <StatusRegion ref={ref} label="Cancel outcome" tone={toneOf(flow)}>
      {content}
    </StatusRegion>
  );
}
