// The API key of a remote environment. The field is masked and uncontrolled,
// so what is typed is never written into the page's markup, and a stored key
// is never shown back: only where it is kept, and anything the user should know.

import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { ENVIRONMENT_LABELS, type RemoteEnvironmentId } from '../../../../shared/environments.ts';
import type { KeyStatus } from '../../../../shared/key-status.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { useAppStore } from '../../store-context.tsx';
import { EnvironmentBand } from '../environments/environment-band.tsx';
import { describeKeyStatus } from './key-status-text.ts';
import { OutcomeRegion } from './outcome-region.tsx';

export function ApiKeyForm({
  environment,
  status,
}: {
  environment: RemoteEnvironmentId;
  status: KeyStatus | undefined;
}) {
  const saveKey = useAppStore((state) => state.saveKey);
  const outcome = useAppStore((state) => state.keyOutcomes[environment]);
  const [acceptWeak, setAcceptWeak] = useState(status?.storage === 'weak-accepted');
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const inputId = useId();
  const hintId = useId();
  const statusId = useId();
  const label = ENVIRONMENT_LABELS[environment];
  const working = outcome?.kind === 'working';
  const canAcceptWeak = status?.canAcceptWeakStorage === true;
  const removable = status?.set === true || status?.problem === 'locked';

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = inputRef.current;
    if (!input || working) return;
    const saved = await saveKey(
      environment,
      input.value,
      canAcceptWeak ? { acceptWeakStorage: acceptWeak } : undefined,
    );
    if (saved) input.value = '';
  };

  return (
    <form className="settings-block" noValidate onSubmit={(event) => void onSubmit(event)}>
      <h4>API key</h4>
      <p
        id={statusId}
        className={`key-status ${status?.set ? 'key-status-set' : 'key-status-none'}`}
      >
        {status ? describeKeyStatus(status) : 'Key status unknown'}
      </p>
      {status && <KeyNotice status={status} />}

      <label htmlFor={inputId}>{label} API key</label>
      <p id={hintId} className="hint">
        {status?.set
          ? 'A stored key is never shown. Enter a new key here to replace it.'
          : `Paste the key issued for ${label}. It is sent only to the ${label} address.`}
      </p>
      <div className="field-row">
        <input
          id={inputId}
          ref={inputRef}
          type="password"
          name="api-key"
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="off"
          aria-describedby={`${hintId} ${statusId}`}
        />
        <button type="submit" aria-disabled={working || undefined}>
          Save key
        </button>
        {removable && (
          <button type="button" className="danger-button" onClick={() => setConfirmingRemove(true)}>
            Remove key…
          </button>
        )}
      </div>
      {canAcceptWeak && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={acceptWeak}
            onChange={(event) => setAcceptWeak(event.target.checked)}
          />
          Save it anyway with weak protection
        </label>
      )}
      <OutcomeRegion ref={outcomeRef} outcome={outcome} label={`${label} key outcome`} />
      {confirmingRemove && (
        <RemoveKeyDialog
          environment={environment}
          onClose={() => setConfirmingRemove(false)}
          fallbackFocus={outcomeRef}
        />
      )}
    </form>
  );
}

/** The plain-words warning when this computer cannot protect a saved key, or any other notice. */
function KeyNotice({ status }: { status: KeyStatus }) {
  if (status.weak) {
    return (
      <div className="message message-warning" role="note" aria-label="Weak key protection">
        <p>
          <strong>Warning: this computer cannot properly protect a saved key</strong> (password
          store: {status.backend}).
        </p>
        {status.notice && <p>{status.notice}</p>}
      </div>
    );
  }
  if (!status.notice) return null;
  return (
    <div className={`message ${status.problem ? 'message-warning' : 'message-info'}`} role="note">
      <p>{status.notice}</p>
    </div>
  );
}

interface RemoveKeyDialogProps {
  readonly environment: RemoteEnvironmentId;
  readonly onClose: () => void;
  /** The "Remove key" button goes away with the key; the focus then goes here. */
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
      <p>
        Store Admin will forget the {label} key, saved or not, and send nothing to {label} until you
        enter a key again.
      </p>
    </ConfirmDialog>
  );
}
