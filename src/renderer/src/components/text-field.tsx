// A labelled text input with its hint and at most one message under it: the
// field's problem (aria-invalid), a warning, or how saving it went. Whoever
// uses it decides which message is the latest; the field never shows two.

import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import './text-field.css';

export type FieldTone = 'error' | 'warning' | 'success';

export interface FieldMessage {
  readonly tone: FieldTone;
  readonly text: string;
}

/**
 * What a save can come back with, in the shape the settings and domains slices
 * keep. A `done` with the warning tone went through but changed nothing the
 * clerk asked for (a question answered no).
 */
export type SaveOutcome =
  | { readonly kind: 'working'; readonly message: string }
  | { readonly kind: 'done'; readonly message: string; readonly tone?: 'warning' }
  | { readonly kind: 'failed'; readonly message: string };

/** A field's message from a save's outcome: nothing while the save runs (the button says so). */
export function outcomeMessage(outcome: SaveOutcome | undefined): FieldMessage | undefined {
  if (outcome?.kind === 'failed') return { tone: 'error', text: outcome.message };
  if (outcome?.kind === 'done') return { tone: outcome.tone ?? 'success', text: outcome.message };
  return undefined;
}

// The word the glyph stands for, so the tone is never told by colour alone.
const TONE_WORDS: Readonly<Record<FieldTone, string>> = {
  error: 'Problem',
  warning: 'Note',
  success: 'Done',
};

export interface TextFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'aria-invalid' | 'aria-describedby' | 'className' | 'children'
> {
  readonly label: ReactNode;
  readonly hint?: ReactNode;
  /** Between the label and the hint: what is set already (a key's status, a notice about it). */
  readonly above?: ReactNode;
  readonly message?: FieldMessage | undefined;
  /** Buttons beside the input, e.g. Save. */
  readonly actions?: ReactNode;
  /** Ids of other text describing the input (a status line above it). */
  readonly describedBy?: string | undefined;
  readonly className?: string;
  readonly ref?: Ref<HTMLInputElement>;
}

export function TextField({
  label,
  hint,
  above,
  message,
  actions,
  describedBy,
  className,
  ref,
  type = 'text',
  ...input
}: TextFieldProps) {
  const inputId = useId();
  const hintId = useId();
  const messageId = useId();
  const described = [hint ? hintId : undefined, message ? messageId : undefined, describedBy]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={['text-field', className].filter(Boolean).join(' ')}>
      <label htmlFor={inputId} className="text-field-label">
        {label}
      </label>
      {above}
      {hint && (
        <p id={hintId} className="text-field-hint">
          {hint}
        </p>
      )}
      <div className="text-field-row">
        <input
          {...input}
          ref={ref}
          id={inputId}
          type={type}
          autoComplete={input.autoComplete ?? 'off'}
          spellCheck={input.spellCheck ?? false}
          aria-invalid={message?.tone === 'error' ? true : undefined}
          aria-describedby={described || undefined}
        />
        {actions}
      </div>
      {/* Always in the page, so a message that appears is announced. */}
      <div id={messageId} className="text-field-message" aria-live="polite">
        {message && (
          <p className={`text-field-${message.tone}`}>
            <span className="text-field-glyph" role="img" aria-label={TONE_WORDS[message.tone]} />
            {message.text}
          </p>
        )}
      </div>
    </div>
  );
}
