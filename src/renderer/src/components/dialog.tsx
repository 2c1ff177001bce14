// A modal dialog: labelled by its title, the rest of the window inert while
// it is open, focus moved in and kept inside, Escape closes, focus given back
// on close.

import {
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  readonly title: ReactNode;
  readonly children: ReactNode;
  /** Escape and the dismiss buttons call this; ignored while `busy`. */
  readonly onDismiss: () => void;
  /** Where the focus goes on open; the first focusable element when left out. */
  readonly initialFocus?: RefObject<HTMLElement | null>;
  /** Where the focus goes on close when the element that had it is gone. */
  readonly fallbackFocus?: RefObject<HTMLElement | null>;
  readonly tone?: 'neutral' | 'danger';
  readonly busy?: boolean;
}

export function Dialog({
  title,
  children,
  onDismiss,
  initialFocus,
  fallbackFocus,
  tone = 'neutral',
  busy = false,
}: DialogProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const backdropRef = useRef<HTMLDivElement>(null);

  // Whatever had the focus when the dialog opened gets it back on close.
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );

  useEffect(() => {
    // Everything else on the page is out of reach (and of screen readers) until the dialog closes.
    const others = [...document.body.children].filter(
      (element) => element !== backdropRef.current && !element.hasAttribute('inert'),
    );
    for (const element of others) element.setAttribute('inert', '');
    const first =
      initialFocus?.current ?? ref.current?.querySelector<HTMLElement>(FOCUSABLE) ?? ref.current;
    first?.focus();
    return () => {
      for (const element of others) element.removeAttribute('inert');
      // Runs after the commit that removed the dialog: the opener may have gone with it.
      if (opener?.isConnected && !opener.matches(':disabled')) opener.focus();
      // The fallback as it is at close time, not at open time.
      // eslint-disable-next-line react-hooks/exhaustive-deps
      else fallbackFocus?.current?.focus();
    };
    // Once per opening: the refs are read at that moment on purpose.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      if (!busy) onDismiss();
      return;
    }
    if (event.key !== 'Tab' || !ref.current) return;
    const focusable = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className="dialog-backdrop" ref={backdropRef}>
      <div
        ref={ref}
        className={`dialog dialog-${tone}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-busy={busy || undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        {children}
      </div>
    </div>,
    document.body,
  );
}
