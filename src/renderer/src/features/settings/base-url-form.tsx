// The base address of a remote environment, checked as the user types with the
// same rule the main process applies, then saved there.

import { useRef, useState, type FormEvent } from 'react';
import {
  ENVIRONMENT_LABELS,
  validateBaseUrl,
  type RemoteEnvironmentId,
} from '../../../../shared/environments.ts';
import { outcomeMessage, TextField } from '../../components/text-field.tsx';
import { useAppStore } from '../../store-context.tsx';

export function BaseUrlForm({
  environment,
  savedUrl,
}: {
  environment: RemoteEnvironmentId;
  savedUrl?: string;
}) {
  const saveBaseUrl = useAppStore((state) => state.saveBaseUrl);
  const forgetOutcome = useAppStore((state) => state.forgetOutcome);
  const outcome = useAppStore((state) => state.baseUrlOutcomes[environment]);
  const [text, setText] = useState(savedUrl ?? '');
  const [edited, setEdited] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const check = validateBaseUrl(text);
  const problem = edited && !check.ok ? check.message : undefined;
  const saving = outcome?.kind === 'working';

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setEdited(true);
    if (!check.ok) {
      inputRef.current?.focus();
      return;
    }
    if (saving) return;
    const saved = await saveBaseUrl(environment, text);
    if (saved !== undefined) {
      setText(saved);
      setEdited(false);
    } else {
      inputRef.current?.focus();
    }
  };

  return (
    <form className="settings-row" noValidate onSubmit={(event) => void onSubmit(event)}>
      <h4>Address</h4>
      <TextField
        ref={inputRef}
        label={`${ENVIRONMENT_LABELS[environment]} base URL`}
        hint="Ends with /v1, e.g. https://api.example.com/v1"
        type="url"
        inputMode="url"
        value={text}
        message={problem ? { tone: 'error', text: problem } : outcomeMessage(outcome)}
        onChange={(event) => {
          setText(event.target.value);
          setEdited(true);
          forgetOutcome('baseUrl', environment);
        }}
        actions={
          <button type="submit" aria-disabled={saving || undefined}>
            {saving ? 'Saving…' : 'Save address'}
          </button>
        }
      />
    </form>
  );
}
