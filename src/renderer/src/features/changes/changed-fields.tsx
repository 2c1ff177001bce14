// In the order's details: whether it is new since the last refresh, and for
// a changed order, what each changed field was before (in words beside the
// value now, highlighted; the colour only beside the words).

import type { ChangeField, ChangedOrder } from '../../../../shared/order-changes.ts';
import { fieldValueWords } from './change-words.ts';
import type { ChangeMark } from './change-lookup.ts';
import './changes.css';

/** The note under the details' heading. */
export function ChangeNote({ mark, since }: { mark: ChangeMark | undefined; since: string }) {
  if (mark === 'new') return <p className="change-note">New since the last refresh ({since}).</p>;
  if (mark === 'changed')
    return (
      <p className="change-note">
        Changed since the last refresh ({since}): the highlighted fields show what they were.
      </p>
    );
  return null;
}

/** Beside a field's value: "was …" when it changed. */
export function WasValue({
  changed,
  field,
}: {
  changed: ChangedOrder | undefined;
  field: ChangeField;
}) {
  if (!changed?.fields.includes(field)) return null;
  return (
    <span className="was-value">
      {' '}
      <br />
      was {fieldValueWords(changed.before, field)}
    </span>
  );
}

/** The class a field's value takes when it changed (after `base`, its own class). */
export function changedClass(
  changed: ChangedOrder | undefined,
  field: ChangeField,
  base?: string,
): string | undefined {
  const classes = [base, changed?.fields.includes(field) ? 'changed-field' : undefined];
  return classes.filter(Boolean).join(' ') || undefined;
}
