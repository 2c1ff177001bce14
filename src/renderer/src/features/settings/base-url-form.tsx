// The base address of a remote environment, checked as the user types with the
// same rule the main process applies, then saved there. Named "Address" only:
// the tab and the heading above say whose.

import { useId, useRef, useState, type FormEvent } from 'react';
import { validateBaseUrl, type RemoteEnvironmentId } from '../../../../shared/environments.ts';
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
  // Where the key may go now: a key bound elsewhere comes back without a question.
  const keyOrigin = useAppStore((state) => {
    const key = state.environments.find((view) => view.id === environment)?.key;
    return key?.set ? key.origin : undefined;
  });
  const [text, setText] = useState(savedUrl ?? '');
  const [edited, setEdited] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const movingId = useId();
  const check = validateBaseUrl(text);
  const problem = edited && !check.ok ? check.message : undefined;
  const saving = outcome?.kind === 'working';
  const moving = check.ok ? addressChange(savedUrl, check.value, keyOrigin) : undefined;

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
      <TextField
        ref={inputRef}
        className="settings-field"
        label="Address"
        hint="Ends with /v1, e.g. https://api.example.com/v1"
        type="url"
        inputMode="url"
        value={text}
        message={problem ? { tone: 'error', text: problem } : outcomeMessage(outcome)}
        describedBy={moving ? movingId : undefined}
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
      {moving && (
        <p id={movingId} className="settings-hint settings-address-change">
          Orders, marks and bulk cancels are kept per address: a new address starts empty, and the
          old ones come back if you switch back.
          {moving.keyAsks && ' The key is sent to the new address only after you confirm it.'}
        </p>
      )}
    </form>
  );
}

/**
 * What saving `typed` would change, said before it is saved; undefined when
 * nothing would. `keyAsks`: the key, bound to `keyOrigin`, would need the
 * clerk's confirmation there.
 */
function addressChange(
  savedUrl: string | undefined,
  typed: string,
  keyOrigin: string | undefined,
): { readonly keyAsks: boolean } | undefined {
  if (savedUrl === undefined || typed === savedUrl) return undefined;
  return { keyAsks: keyOrigin !== undefined && new URL(typed).origin !== keyOrigin };
}
