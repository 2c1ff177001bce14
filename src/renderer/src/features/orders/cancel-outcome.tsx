// What came back from the last cancel, as one short message that goes away
// (the row keeps the outcome in its status chip). Only an answer of kind
// "cancelled" is shown as done; a request that never left says the order was
// not cancelled; one that left without an answer saying what was done says
// why, and how to check.
// A condition behind a failure (a hold, a ban, a refused key, no connection)
// is said once, in the notice area, with its time and action: this message
// only names it.

import type { Ref } from 'react';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import type { Failure } from '../../../../shared/failures.ts';
import {
  checkAgainWords,
  environmentPlace,
  unsureWords,
  type Unsure,
} from '../../../../shared/unsure-words.ts';
import type { Tone } from '../../components/status-region.tsx';
import { Toast } from '../../components/toast.tsx';
import { serviceWordsAdd, splitServiceWords } from '../../service-words.ts';
import { useAppStore } from '../../store-context.tsx';
import type { CancelOutcomeView } from '../../../../shared/ipc-contract.ts';
import type { CancelFlow } from './orders-slice.ts';
import { cancelledBefore } from './row-status.ts';

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

/** What the row's status chip now says, after the answer's own sentence. */
function afterAnswer(kind: CancelOutcomeView['kind'], knownCancelled: boolean): string {
  switch (kind) {
    case 'cancelled':
      return 'It leaves the list at the next refresh.';
    case 'already-shipped':
      return 'The list now shows it as shipped.';
    case 'not-found':
    case 'gone':
      // "Already cancelled at HH:MM": the row says cancelled, not gone.
      return knownCancelled ? 'The list shows it as cancelled.' : 'The list marks it as gone.';
  }
}

/**
 * What left a cancel's outcome unknown: as main says it (`unsure`, the first
 * try that did), else as far as the failure itself tells.
 */
function unsureOf(failure: Failure): Unsure {
  if (failure.unsure) return failure.unsure;
  switch (failure.kind) {
    case 'network':
      // A network failure with a status is an answer from something in between (a sign-in page).
      return failure.status === undefined
        ? { why: 'no-answer' }
        : { why: 'web-page', status: failure.status };
    case 'timeout':
      return { why: 'timeout' };
    case 'aborted':
      return { why: 'stopped' };
    case 'redirect':
      return failure.status === undefined
        ? { why: 'redirect' }
        : { why: 'redirect', status: failure.status };
    case 'rate-limited':
    case 'banned':
      return { why: 'earlier-try' };
    default:
      return failure.status === undefined
        ? { why: 'earlier-try' }
        : { why: 'status', status: failure.status, between: false };
  }
}

/** The failure of a cancel, led by what it means for the order. */
export function describeCancelFailure(
  failure: Failure,
  orderId: string,
  environment: EnvironmentId,
): string {
  const label = ENVIRONMENT_LABELS[environment];
  const notCancelled = `Order ${orderId} was not cancelled`;
  if (failure.delivery === 'unknown') {
    // Cancelling again is safe either way: a second DELETE of a cancelled order only meets 404.
    // The words are the command line's too (unsure-words.ts), with the environment for the address.
    const why = unsureWords(unsureOf(failure), environmentPlace(label));
    const now =
      failure.kind === 'rate-limited'
        ? `, and requests to ${label} are now paused`
        : failure.kind === 'banned'
          ? `, and the ${label} API key is now banned for a while`
          : '';
    return `Order ${orderId} may or may not have been cancelled: ${why}${now}. ${checkAgainWords(orderId)}`;
  }
  switch (failure.kind) {
    case 'rate-limited':
      return `${notCancelled}: requests to ${label} are paused.`;
    case 'banned':
      return `${notCancelled}: the ${label} API key is banned for a while.`;
    case 'unauthorized':
      return `${notCancelled}: the service did not accept the ${label} API key.`;
    case 'no-key':
      return `${notCancelled}: no API key is set for ${label}.`;
    case 'network':
      // Refused, an unknown host, a proxy's or a certificate's refusal: nothing left this computer.
      return failure.delivery === 'not-sent'
        ? `${notCancelled}: the request never reached ${label}, as the connection failed before anything was sent. It is safe to try again once ${label} answers.`
        : `${notCancelled}: ${label} did not answer.`;
    case 'timeout':
      // Timed out waiting for its turn (the quota's pace), before it was sent.
      return failure.delivery === 'not-sent'
        ? `${notCancelled}: the request waited too long for its turn and was never sent. It is safe to try again.`
        : `${notCancelled}: ${label} did not answer.`;
    default: {
      const { plain, service } = splitServiceWords(failure.message);
      const lead = plain.includes(`${notCancelled}.`) ? '' : `${notCancelled}. `;
      const said =
        service !== undefined && serviceWordsAdd(failure) ? ` The service said: “${service}”` : '';
      return `${lead}${plain}${said}`;
    }
  }
}

export function CancelOutcome({ ref }: { ref?: Ref<HTMLDivElement> }) {
  const flow = useAppStore((state) => state.cancelFlow);
  const dismiss = useAppStore((state) => state.dismissCancelOutcome);

  const log = useAppStore((state) =>
    flow.step === 'answered' ? state.orders[flow.environment]?.cancelLog : undefined,
  );

  let content = null;
  if (flow.step === 'answered') {
    // The status says it all: the service's words stay in the cancel log.
    content = (
      <p>
        <strong>{ENVIRONMENT_LABELS[flow.environment]}:</strong>{' '}
        {splitServiceWords(flow.outcome.message).plain}{' '}
        {afterAnswer(flow.outcome.kind, cancelledBefore(log ?? [], flow.orderId))}
      </p>
    );
  } else if (flow.step === 'failed') {
    const { failure, environment, orderId } = flow;
    content = (
      <p>
        <strong>{ENVIRONMENT_LABELS[environment]}:</strong>{' '}
        {describeCancelFailure(failure, orderId, environment)}
      </p>
    );
  }

  return (
    <Toast
      ref={ref}
      label="Cancel outcome"
      tone={toneOf(flow)}
      onDone={dismiss}
      messageKey={flow.step === 'answered' || flow.step === 'failed' ? flow.orderId : undefined}
    >
      {content}
    </Toast>
  );
}
