// The API key of a remote environment. The field is masked and uncontrolled,
// so what is typed is never written into the page's markup, and a stored key
// is never shown back: only where it is kept, and anything the user should know.

import { useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { ENVIRONMENT_LABELS, type RemoteEnvironmentId } from '../../../../shared/environments.ts';
import type { KeyStatus } from '../../../../shared/key-status.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { outcomeMessage, TextField } from '../../components/text-field.tsx';
import { useAppStore } from '../../store-context.tsx';
import { EnvironmentBand } from '../environments/environment-band.tsx';
import { describeKeyStatus } from './key-status-text.ts';

export function ApiKeyForm({
  environment,
  status,
}: {
  environment: RemoteEnvironmentId;
  status: KeyStatus | undefined;
}) {
  const saveKey = useAppStore((state) => state.saveKey);
  const confirmKeyOrigin = useAppStore((state) => state.confirmKeyOrigin);
  const forgetOutcome = useAppStore((state) => state.forgetOutcome);
  const outcome = useAppStore((state) => state.keyOutcomes[environment]);
  const [acceptWeak, setAcceptWeak] = useState(status?.storage === 'weak-accepted');
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  // The key's actions share one outcome; each button says only its own work.
  const [running, setRunning] = useState<'save' | 'confirm-origin'>();
  const inputRef = useRef<HTMLInputElement>(null);
  const statusId = useId();
  const label = ENVIRONMENT_LABELS[environment];
  const working = outcome?.kind === 'working' || outcome?.kind === 'checking';
  const canAcceptWeak = status?.canAcceptWeakStorage === true;
  const removable = status?.set === true || status?.problem === 'locked';

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = inputRef.current;
    if (!input || working) return;
    setRunning('save');
    const saved = await saveKey(
      environment,
      input.value,
      canAcceptWeak ? { acceptWeakStorage: acceptWeak } : undefined,
    );
    setRunning(undefined);
    if (saved) input.value = '';
    else input.focus();
  };

  const onConfirmOrigin = async () => {
    if (working) return;
    setRunning('confirm-origin');
    await confirmKeyOrigin(environment);
    setRunning(undefined);
  };

  return (
    <form className="settings-row" noValidate onSubmit={(event) => void onSubmit(event)}>
      <TextField
        ref={inputRef}
        className="settings-field"
        label="API key"
        above={
          <>
            <p id={statusId} className="key-status">
              {status ? describeKeyStatus(status) : 'Key status unknown'}
            </p>
            {status && (
              <KeyNotice status={status}>
                {status.problem === 'other-address' && (
                  <button
                    type="button"
                    aria-disabled={working || undefined}
                    onClick={() => void onConfirmOrigin()}
                  >
                    {running === 'confirm-origin'
                      ? 'Waiting for your answer…'
                      : 'Confirm the new address…'}
                  </button>
                )}
              </KeyNotice>
            )}
          </>
        }
        hint={
          status?.set
            ? 'The key is never shown. Enter a new one to replace it.'
            : `Sent only to the ${label} address.`
        }
        type="password"
        name="api-key"
        autoCapitalize="off"
        describedBy={statusId}
        message={outcome?.kind === 'checking' ? undefined : outcomeMessage(outcome)}
        onChange={() => forgetOutcome('key', environment)}
        actions={
          <>
            <button type="submit" aria-disabled={working || undefined}>
              {running !== 'save'
                ? 'Save key'
                : outcome?.kind === 'checking'
                  ? 'Checking…'
                  : 'Saving…'}
            </button>
            {removable && (
              <button
                type="button"
                className="danger-button"
                onClick={() => setConfirmingRemove(true)}
              >
                Remove key…
              </button>
            )}
          </>
        }
      />
      {canAcceptWeak && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={acceptWeak}
            onChange={(event) => setAcceptWeak(event.target.checked)}
          />
          Save it anyway, without protection
        </label>
      )}
      {confirmingRemove && (
        <RemoveKeyDialog
          environment={environment}
          onClose={() => setConfirmingRemove(false)}
          fallbackFocus={inputRef}
        />
      )}
    </form>
  );
}

/**
 * Why this computer cannot protect a saved key, or anything else to know about
 * the key, with the action it offers (`children`), if any.
 */
function KeyNotice({ status, children }: { status: KeyStatus; children?: ReactNode }) {
  const action = children ? <p>{children}</p> : null;
  // The other-address notice stands alone: it is what stops requests now.
  if (status.weak && status.problem !== 'other-address') {
    return (
      <div className="message message-warning" role="note" aria-label="Weak key protection">
        <p>
          <strong>This computer’s password store is not available.</strong> {status.notice}
        </p>
        {action}
      </div>
    );
  }
  if (!status.notice) return null;
  return (
    <div className={`message ${status.problem ? 'message-warning' : 'message-info'}`} role="note">
      <p>{status.notice}</p>
      {action}
    </div>
  );
}

interface RemoveKeyDialogProps {
  readonly environment: RemoteEnvironmentId;
  readonly onClose: () => void;
  /** The "Remove key" button goes away with the key; the focus then goes here (the key field). */
  readonly fallbackFocus: RefObject<HTMLElement | null>;
}

function RemoveKeyDialog({ environment, onClose, fallbackFocus }: RemoveKeyDialogProps) {
  const removeKey = useAppStore((state) => state.removeKey);
  const [removing, setRemoving] = useState(false);
  const label = ENVIRONMENT_LABELS[environment];

  const remove = async () => {
    if (removing) return;
    setRemoving(true);
    await removeKey(environment);
    onClose();
  };

  return (
    <ConfirmDialog
      title={`Remove the ${label} API key?`}
      keepLabel="Keep the key"
      confirmLabel="Remove key"
      busyLabel="Removing…"
      onConfirm={() => void remove()}
      onDismiss={onClose}
      fallbackFocus={fallbackFocus}
      tone={environment === 'production' ? 'danger' : 'neutral'}
      busy={removing}
    >
      <EnvironmentBand environment={environment} />
      <p>Store Admin forgets the key and sends nothing to {label} until you enter one again.</p>
    </ConfirmDialog>
  );
}
