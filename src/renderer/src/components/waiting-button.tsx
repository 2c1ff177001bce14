// A button whose action waits for something (a key, an answer, the end of a
// hold): while `waitsFor` says what, it stays focusable and announced but
// does nothing, says why on hover and, given `reasonId`, to screen readers
// through the element that says it on screen. Not `disabled`, which would
// drop it from the tab order and hide the reason.

import type { ButtonHTMLAttributes } from 'react';

export interface WaitingButtonProps extends Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'onClick' | 'title' | 'type'
> {
  /** Why the button waits, in a sentence; undefined when it can act. */
  readonly waitsFor: string | undefined;
  /** The id of the element that says `waitsFor` on screen, if one does. */
  readonly reasonId?: string;
  readonly onPress: () => void;
}

export function WaitingButton({ waitsFor, reasonId, onPress, ...rest }: WaitingButtonProps) {
  return (
    <button
      type="button"
      {...rest}
      aria-disabled={waitsFor ? true : undefined}
      aria-describedby={waitsFor && reasonId ? reasonId : undefined}
      title={waitsFor}
      onClick={() => {
        if (!waitsFor) onPress();
      }}
    />
  );
}
