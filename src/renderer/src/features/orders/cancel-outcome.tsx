// What came back from the last cancel, in plain words. Only an answer of kind
// "cancelled" is shown as done; a lost answer says the order must be checked;
// a wait says until when.

import type { Ref } from 'react';
import { ENVIRONMENT_LABELS, isRemoteEnvironment } from '../../../../shared/environments.ts';
import type { Failure } from '../../../../shared/failures.ts';
import { StatusRegion, type Tone } from '../../components/status-region.tsx';
import { formatClock } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { failureNeedsSettings, OpenSettingsButton } from '../settings/open-settings-button.tsx';
import type { CancelFlow } from './orders-slice.ts';

const TONES = {
  cancelled: 'success',
  'not-found': 'warning',
  gone: 'warning',
  'already-shipped': 'warning',
} as const;

function toneOf(flow: CancelFlow): Tone {
  if (flow.step === 'answered') return TONES[flow.outcome.kind];
  return flow.step === 'failed' ? 'error' : 'info';
}

const AFTER_ANSWER = {
  cancelled: 'It leaves the list at the next refresh.',
  'not-found': 'The list marks it as no longer existing.',
  gone: 'The list marks it as no longer existing.',
  'already-shipped': 'The list now shows it as shipped.',
} as const;

/** The failure of a cancel, led by what it means for the order. */
export function describeCancelFailure(failure: Failure, orderId: string): string {
  const notCancelled = `Order ${orderId} was not cancelled.`;
  const lead =
    failure.delivery === 'unknown'
      ? `Order ${orderId} may or may not have been cancelled: the answer was lost. Refresh the list to check.`
      : failure.delivery === 'not-sent' &&
          (failure.kind === 'network' || failure.kind === 'timeout')
        ? `Order ${orderId} was not cancelled: the request was not sent.`
        : failure.message.includes(notCancelled)
          ? ''
          : notCancelled;
  const wait =
    (failure.kind === 'rate-limited' || failure.kind === 'banned') && failure.retryAt !== undefined
      ? ` The Cancel buttons come back at ${formatClock(failure.retryAt)}.`
      : '';
  return `${lead ? `${lead} ` : ''}${failure.message}${wait}`;
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
        <strong>{ENVIRONMENT_LABELS[flow.environment]}:</strong> {flow.outcome.message}{' '}
        {AFTER_ANSWER[flow.outcome.kind]}
      </p>
    );
  } else if (flow.step === 'failed') {
    const { failure, environment, orderId } = flow;
    content = (
      <>
        <p>
          <strong>{ENVIRONMENT_LABELS[environment]}:</strong>{' '}
          {describeCancelFailure(failure, orderId)}
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
