// A transient message (an outcome: a cancel answered, a file exported) in a
// polite live region that is always in the page, so screen readers announce
// it without moving the focus. It goes away by itself after a while, not
// while the pointer is over it or the focus inside it (so it can be read and
// its button reached), and at once with its Dismiss button. Wherever it is
// written, it shows in the window's message dock (App.tsx), which takes room
// of its own under the screen: no message covers the grid's buttons or the
// side panel.

import {
  createContext,
  useContext,
  useEffect,
  useRef,
  useState,
  type ReactNode,
  type Ref,
} from 'react';
import { createPortal } from 'react-dom';
import type { Tone } from './status-region.tsx';

/** Where toasts show: the window's message dock; null where there is none (they show in place). */
export const ToastDockContext = createContext<HTMLElement | null>(null);

/** How long a toast stays: long enough to read two sentences. */
export const TOAST_MS = 10_000;

export interface ToastProps {
  /** The live region's accessible name, e.g. "Cancel outcome". */
  readonly label: string;
  /** The message; nothing (undefined, null, false) shows no toast. */
  readonly children?: ReactNode;
  /** Changes when a new message arrives, so its time starts again (e.g. an outcome's time). */
  readonly messageKey?: string | number;
  readonly tone?: Tone;
  /** Called when the message has had its time, or is dismissed. */
  readonly onDone: () => void;
  readonly durationMs?: number;
  /** Focusable (tabIndex -1) so a dialog can hand the focus here when its opener is gone. */
  readonly ref?: Ref<HTMLDivElement>;
  /** Shown where it is written (already in the dock, e.g. beside a notice), not in the toast list. */
  readonly inPlace?: boolean;
}

export function Toast({
  label,
  children,
  messageKey,
  tone = 'info',
  onDone,
  durationMs = TOAST_MS,
  ref,
  inPlace = false,
}: ToastProps) {
  const shown = children !== undefined && children !== null && children !== false;
  const dock = useContext(ToastDockContext);
  const [held, setHeld] = useState(false);
  const onDoneRef = useRef(onDone);
  useEffect(() => {
    onDoneRef.current = onDone;
  });

  useEffect(() => {
    if (!shown || held) return undefined;
    const timer = setTimeout(() => onDoneRef.current(), durationMs);
    return () => clearTimeout(timer);
  }, [shown, held, durationMs, messageKey]);

  const toast = (
    <div
      className={shown ? `toast toast-${tone}` : 'toast toast-empty'}
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setHeld(false);
      }}
    >
      {/* The live region holds the message alone, so the button's name is not read with it. */}
      <div
        ref={ref}
        role="status"
        aria-live="polite"
        aria-atomic="true"
        aria-label={label}
        tabIndex={-1}
        className="toast-body"
      >
        {children}
      </div>
      {shown && (
        <button
          type="button"
          className="toast-dismiss small-button"
          onClick={() => {
            setHeld(false);
            onDone();
          }}
        >
          Dismiss
        </button>
      )}
    </div>
  );
  return dock && !inPlace ? createPortal(toast, dock) : toast;
}
