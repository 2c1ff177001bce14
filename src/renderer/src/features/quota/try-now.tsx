// "Try now": the clerk ends a hold by hand with one request, after saying so
// in a dialog, since another request too soon can get the key banned. Main
// lets exactly that one request through (quota:try-now); its answer lifts the
// hold or sets the one the service asks for, and pacing goes on as usual.

import { useRef, useState, type RefObject } from 'react';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import { Dialog } from '../../components/dialog.tsx';
import { formatClock } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';

export function TryNow({ until, banned }: { until: number; banned: boolean }) {
  const environment = useAppStore((state) => state.activeEnvironment);
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<string | undefined>();
  const buttonRef = useRef<HTMLButtonElement>(null);
  return (
    <p className="quota-try-now">
      <button ref={buttonRef} type="button" onClick={() => setConfirming(true)}>
        Try now…
      </button>
      {/* The meter's own live region announces the new state; this says what the try came to. */}
      {outcome && <span className="quota-try-outcome"> {outcome}</span>}
      {confirming && (
        <TryNowDialog
          environment={environment}
          until={until}
          banned={banned}
          fallbackFocus={buttonRef}
          onDone={(message) => {
            setConfirming(false);
            setOutcome(message);
          }}
        />
      )}
    </p>
  );
}

interface TryNowDialogProps {
  readonly environment: EnvironmentId;
  readonly until: number;
  readonly banned: boolean;
  readonly fallbackFocus: RefObject<HTMLButtonElement | null>;
  readonly onDone: (message?: string) => void;
}

function TryNowDialog({ environment, until, banned, fallbackFocus, onDone }: TryNowDialogProps) {
  const tryQuotaNow = useAppStore((state) => state.tryQuotaNow);
  const [sending, setSending] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  const send = async () => {
    if (sending) return;
    setSending(true);
    onDone(await tryQuotaNow(environment));
  };
  return (
    <Dialog
      title="Send one request now?"
      onDismiss={() => onDone()}
      initialFocus={keepRef}
      fallbackFocus={fallbackFocus}
      busy={sending}
    >
      <p>
        {banned
          ? `The service said the ${ENVIRONMENT_LABELS[environment]} key is banned until ${formatClock(until)}.`
          : `The service asked Store Admin to wait until ${formatClock(until)}.`}{' '}
        Store Admin will send one request to check. If the service still refuses, Store Admin waits
        again: repeated tries can get the key banned.
      </p>
      <div className="dialog-actions">
        <button
          type="button"
          ref={keepRef}
          onClick={() => onDone()}
          aria-disabled={sending || undefined}
        >
          Keep waiting
        </button>
        <button type="button" onClick={() => void send()} aria-disabled={sending || undefined}>
          {sending ? 'Sending…' : 'Send one request'}
        </button>
      </div>
    </Dialog>
  );
}
