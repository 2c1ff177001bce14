// "Try now": the clerk ends a hold by hand with one request, after saying so
// in a dialog, since another request too soon can get the key banned (not
// behind a gateway's own limit, which has no key to ban). Main
// lets exactly that one request through (quota:try-now); its answer lifts the
// hold or sets the one the service asks for, and pacing goes on as usual.

import { useState, type RefObject } from 'react';
import type { StoreAdminApi } from '../../../../shared/api.ts';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { splitServiceWords } from '../../service-words.ts';
import { useAppStore } from '../../store-context.tsx';

/** What sends the one request: window.storeAdmin.quota.tryNow. */
export type TryNow = StoreAdminApi['quota']['tryNow'];

/** What the try came to, in the service's answer's words. */
export interface TryNowOutcome {
  readonly environment: EnvironmentId;
  readonly ok: boolean;
  readonly message: string;
}

/** The "Try now…" button of a hold's notice, and its confirmation. */
export function TryNowButton({
  environment,
  hold,
  gateway = false,
  tryNow,
  fallbackFocus,
  onTried,
}: {
  environment: EnvironmentId;
  /** The hold as the notice says it: "Requests to Staging are paused until 07:30:00. …". */
  hold: string;
  /** The hold is a gateway's limit, not the service's: a try risks no ban. */
  gateway?: boolean;
  tryNow: TryNow;
  /** Where the focus goes when the hold has ended and this button with it. */
  fallbackFocus: RefObject<HTMLElement | null>;
  onTried: (outcome: TryNowOutcome) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <button type="button" className="notice-action" onClick={() => setConfirming(true)}>
        Try now…
      </button>
      {confirming && (
        <TryNowDialog
          environment={environment}
          hold={hold}
          gateway={gateway}
          tryNow={tryNow}
          fallbackFocus={fallbackFocus}
          onClose={(outcome) => {
            setConfirming(false);
            if (outcome) onTried(outcome);
          }}
        />
      )}
    </>
  );
}

/**
 * What the try came to, without repeating the notice: a new hold's time is
 * the notice's to say.
 */
function triedWords(result: Awaited<ReturnType<TryNow>>, gateway: boolean): string {
  if (result.ok) return result.value.message;
  const { kind, message } = result.error;
  if (kind === 'rate-limited' || kind === 'banned') {
    // Behind a gateway's hold, the refusal may be the gateway's or the service's: said as either.
    return gateway
      ? 'The request was refused again; Store Admin waits until the time the notice gives.'
      : 'The service refused the request again; Store Admin waits until the time the notice gives.';
  }
  return splitServiceWords(message).plain;
}

function TryNowDialog({
  environment,
  hold,
  gateway,
  tryNow,
  fallbackFocus,
  onClose,
}: {
  environment: EnvironmentId;
  hold: string;
  gateway: boolean;
  tryNow: TryNow;
  fallbackFocus: RefObject<HTMLElement | null>;
  onClose: (outcome?: TryNowOutcome) => void;
}) {
  const loadQuota = useAppStore((state) => state.loadQuota);
  const [sending, setSending] = useState(false);
  const label = ENVIRONMENT_LABELS[environment];

  const send = async () => {
    setSending(true);
    const result = await tryNow(environment);
    onClose({ environment, ok: result.ok, message: triedWords(result, gateway) });
    // The answer lifted the hold or set a new one: the meter and the notice follow.
    await loadQuota(environment);
  };

  return (
    <ConfirmDialog
      title="Send one request now?"
      keepLabel="Keep waiting"
      confirmLabel="Send one request"
      busyLabel="Sending…"
      progress={`Sending one request to ${label}…`}
      onConfirm={() => void send()}
      onDismiss={() => onClose()}
      fallbackFocus={fallbackFocus}
      busy={sending}
    >
      <p>{hold}</p>
      <p>
        {gateway
          ? 'Store Admin will send one request to check. If the gateway still refuses it, Store Admin waits again.'
          : 'Store Admin will send one request to check. If the service still refuses, Store Admin waits again: repeated tries can get the key banned.'}
      </p>
    </ConfirmDialog>
  );
}
