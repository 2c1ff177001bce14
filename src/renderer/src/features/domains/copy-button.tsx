// A Copy button for a value the user must paste elsewhere (a DNS record, the
// configuration), with a visible, announced confirmation. The value stays on
// the page as selectable text too, for when the clipboard is not available.

import { useState } from 'react';
import { StatusRegion } from '../../components/status-region.tsx';

type CopyState =
  { readonly kind: 'idle' } | { readonly kind: 'copied' } | { readonly kind: 'failed' };

export function CopyButton({
  text,
  label,
  what,
}: {
  /** Exactly what goes on the clipboard. */
  text: string;
  /** The button's text, which is also its accessible name, e.g. "Copy name". */
  label: string;
  /** What was copied, for the confirmation, e.g. "the name shop". */
  what: string;
}) {
  const [state, setState] = useState<CopyState>({ kind: 'idle' });

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState({ kind: 'copied' });
    } catch {
      setState({ kind: 'failed' });
    }
  };

  return (
    <span className="copy">
      <button type="button" className="small-button" onClick={() => void copy()}>
        {label}
      </button>
      <StatusRegion className="copy-status" tone={state.kind === 'failed' ? 'error' : 'success'}>
        {state.kind === 'copied'
          ? `Copied ${what}.`
          : state.kind === 'failed'
            ? 'Could not copy. Select the text and copy it with Ctrl+C (⌘C on a Mac).'
            : undefined}
      </StatusRegion>
    </span>
  );
}
