// Where Store Admin's updates come from: the app's, not an environment's, so
// a section of its own outside the environments' tabs. An address given when the app was
// built is the company's and is only shown; otherwise one can be entered here
// (empty: updates are never looked for). Checked as typed with main's rule.

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { checkUpdateAddress } from '../../../../shared/updates.ts';
import { outcomeMessage, TextField } from '../../components/text-field.tsx';
import { useAppStore } from '../../store-context.tsx';

export function UpdateAddressForm() {
  const settings = useAppStore((state) => state.updateSettings);
  const outcome = useAppStore((state) => state.updateAddressOutcome);
  const load = useAppStore((state) => state.loadUpdateSettings);
  const save = useAppStore((state) => state.saveUpdateAddress);
  const [text, setText] = useState<string | undefined>(undefined);
  const [edited, setEdited] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void load();
  }, [load]);

  if (!settings) return null;
  if (settings.source === 'build') {
    return (
      <section aria-labelledby="settings-updates-heading" className="settings-updates">
        <h3 id="settings-updates-heading">Updates</h3>
        <p className="settings-note">For Store Admin itself, in every environment.</p>
        <p>
          Updates come from {settings.address} ({settings.channel} channel), set by your company
          when Store Admin was built.
        </p>
      </section>
    );
  }

  const value = text ?? settings.address ?? '';
  const check = value.trim() === '' ? undefined : checkUpdateAddress(value);
  const problem = edited && check && !check.ok ? check.message : undefined;
  const saving = outcome?.kind === 'working';

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setEdited(true);
    if (check && !check.ok) {
      inputRef.current?.focus();
      return;
    }
    if (saving) return;
    const saved = await save(value);
    if (saved === undefined) inputRef.current?.focus();
    else {
      setText(saved);
      setEdited(false);
    }
  };

  return (
    <section aria-labelledby="settings-updates-heading" className="settings-updates">
      <h3 id="settings-updates-heading">Updates</h3>
      <p className="settings-note">For Store Admin itself, in every environment.</p>
      <form className="settings-row" noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField
          ref={inputRef}
          className="settings-field"
          label="Update server"
          hint="Where your company publishes Store Admin, e.g. https://updates.example.com/store-admin/. Empty: Store Admin never looks for updates."
          type="url"
          inputMode="url"
          value={value}
          message={problem ? { tone: 'error', text: problem } : outcomeMessage(outcome)}
          onChange={(event) => {
            setText(event.target.value);
            setEdited(true);
          }}
          actions={
            <button type="submit" aria-disabled={saving || undefined}>
              {saving ? 'Saving…' : 'Save update address'}
            </button>
          }
        />
      </form>
    </section>
  );
}
