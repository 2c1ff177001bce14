// The base address of a remote environment, checked as the user types with the
// same rule the main process applies, then saved there.

import { useId, useRef, useState, type FormEvent } from 'react';
import {
  ENVIRONMENT_LABELS,
  validateBaseUrl,
  type RemoteEnvironmentId,
} from '../../../../shared/environments.ts';
import { OutcomeRegion } from './outcome-region.tsx';
import { useAppStore } from '../../store-context.tsx';

export function BaseUrlForm({
  environment,
  savedUrl,
}: {
  environment: RemoteEnvironmentId;
  savedUrl?: string;
}) {
  const saveBaseUrl = useAppStore((state) => state.saveBaseUrl);
  const outcome = useAppStore((state) => state.baseUrlOutcomes[environment]);
  const keySet = useAppStore(
    (state) => state.environments.find((view) => view.id === environment)?.keySet === true,
  );
  const [text, setText] = useState(savedUrl ?? '');
  const [edited, setEdited] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();
  const problemId = useId();
  const movingId = useId();
  const label = ENVIRONMENT_LABELS[environment];
  const check = validateBaseUrl(text);
  const problem = edited && !check.ok ? check.message : undefined;
  const saving = outcome?.kind === 'working';
  const moving = check.ok ? addressChange(savedUrl, check.value) : undefined;
  const describedBy = [hintId, problem && problemId, moving && movingId].filter(Boolean).join(' ');

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setEdited(true);
    if (!check.ok) {
      inputRef.current?.focus();
      return;
    }
    if (saving) return;
    const saved = await saveBaseUrl(environment, text);
    if (saved !== undefined) setText(saved);
  };

  return (
    <form className="settings-block" noValidate onSubmit={(event) => void onSubmit(event)}>
      <h4>Address</h4>
      <label htmlFor={inputId}>{label} base URL</label>
      <p id={hintId} className="hint">
        The address of the {label} store service, ending with /v1, for example
        https://api.example.com/v1.
      </p>
      <div className="field-row">
        <input
          id={inputId}
          ref={inputRef}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          value={text}
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setText(event.target.value);
            setEdited(true);
          }}
        />
        <button type="submit" aria-disabled={saving || undefined}>
          {saving ? 'Saving…' : 'Save address'}
        </button>
      </div>
      {problem && (
        <p id={problemId} className="field-problem">
          {problem}
        </p>
      )}
      {moving && (
        <p id={movingId} className="hint">
          Orders, marks and bulk cancels are kept per address: a new address starts empty, and the
          old ones come back if you switch back.
          {moving.newOrigin &&
            keySet &&
            ' The key is sent to the new address only after you confirm it.'}
        </p>
      )}
      <OutcomeRegion outcome={outcome} label={`${label} address outcome`} />
    </form>
  );
}

/** What saving `typed` would change, said before it is saved; undefined when nothing would. */
function addressChange(
  savedUrl: string | undefined,
  typed: string,
): { readonly newOrigin: boolean } | undefined {
  if (savedUrl === undefined || typed === savedUrl) return undefined;
  return { newOrigin: new URL(typed).origin !== new URL(savedUrl).origin };
}
