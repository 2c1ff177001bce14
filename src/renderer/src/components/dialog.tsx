// Modal dialogs, on the native <dialog>: showModal() puts it in the top layer
// and makes the rest of the window inert; it is labelled by its title, takes
// the focus on open and keeps it inside, Escape closes it (not while busy),
// and the focus goes back where it was on close. Where showModal is missing
// (jsdom), the same attributes make the rest inert.
//
// ConfirmDialog is the one confirmation every decision uses (all of them undo
// nothing: cancel, remove): what will happen and where, the safe choice
// focused, the action in its own words.

import {
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  type SyntheticEvent,
} from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

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
  const ref = useRef<HTMLDialogElement>(null);

  // Whatever had the focus when the dialog opened gets it back on close.
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    // Everything else on the page is out of reach (and of screen readers) until the dialog closes.
    const others = [...document.body.children].filter(
      (element) => element !== dialog && !element.hasAttribute('inert'),
    );
    for (const element of others) element.setAttribute('inert', '');
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    const first = initialFocus?.current ?? dialog.querySelector<HTMLElement>(FOCUSABLE) ?? dialog;
    first.focus();
    return () => {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
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

  // The browser's own close request (Escape): the dialog closes only through onDismiss.
  const onCancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    event.preventDefault();
    if (!busy) onDismiss();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      if (!busy) onDismiss();
      return;
    }
    // showModal keeps the focus out of the page, not inside the dialog: Tab goes round.
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
    <dialog
      ref={ref}
      className={`dialog dialog-${tone}`}
      // Implied by showModal; said outright for where it is missing.
      aria-modal="true"
      aria-labelledby={titleId}
      aria-busy={busy || undefined}
      onCancel={onCancel}
      onKeyDown={onKeyDown}
    >
      <h2 id={titleId} className="dialog-title">
        {title}
      </h2>
      {children}
    </dialog>,
    document.body,
  );
}

export interface ConfirmDialogProps {
  readonly title: string;
  /** What will happen, to what and where. */
  readonly children: ReactNode;
  /** The safe choice, focused on open: "Keep the order". */
  readonly keepLabel: string;
  /** The action in its own words: "Cancel order 42". */
  readonly confirmLabel: string;
  /** The action's words while it runs: "Cancelling…". */
  readonly busyLabel?: string;
  /** Said in the dialog's live line while it runs: "Cancelling order 42…". */
  readonly progress?: string;
  readonly onConfirm: () => void;
  readonly onDismiss: () => void;
  /** Production: a red top edge (the action button is red in every environment: it cannot be undone). */
  readonly tone?: 'neutral' | 'danger';
  readonly busy?: boolean;
  readonly fallbackFocus?: RefObject<HTMLElement | null>;
  /** Another way out beside the two, placed first (e.g. "Add a redirect first"). */
  readonly alternative?: { readonly label: string; readonly onSelect: () => void };
  /**
   * The step the alternative opened (e.g. the redirect's form), shown in place
   * of the decision's buttons with its own; when it goes, the focus returns to
   * the alternative's button.
   */
  readonly detour?: ReactNode;
  /**
   * The action waits for something the clerk still has to do (type a number):
   * its button is disabled, described by the element with this id.
   */
  readonly confirmWaitsFor?: string | undefined;
  /** The action's button pressed while it waits (to say what it waits for). */
  readonly onConfirmWaiting?: () => void;
}

export function ConfirmDialog({
  title,
  children,
  keepLabel,
  confirmLabel,
  busyLabel,
  progress,
  onConfirm,
  onDismiss,
  tone = 'neutral',
  busy = false,
  fallbackFocus,
  alternative,
  detour,
  confirmWaitsFor,
  onConfirmWaiting,
}: ConfirmDialogProps) {
  const keepRef = useRef<HTMLButtonElement>(null);
  const alternativeRef = useRef<HTMLButtonElement>(null);
  const detouring = detour !== undefined;
  const detoured = useRef(false);

  // Back from the detour: the focus goes to the button that led there, not to the page.
  useEffect(() => {
    if (detouring) detoured.current = true;
    else if (detoured.current) alternativeRef.current?.focus();
  }, [detouring]);

  return (
    <Dialog
      title={title}
      onDismiss={onDismiss}
      initialFocus={alternative ? alternativeRef : keepRef}
      {...(fallbackFocus ? { fallbackFocus } : {})}
      tone={tone}
      busy={busy}
    >
      {children}
      {detouring ? (
        detour
      ) : (
        <>
          <p role="status" aria-live="polite" className="dialog-progress">
            {busy ? (progress ?? '') : ''}
          </p>
          <div className="dialog-actions">
            {alternative && (
              <button
                type="button"
                ref={alternativeRef}
                className="dialog-alternative"
                onClick={() => !busy && alternative.onSelect()}
                aria-disabled={busy || undefined}
              >
                {alternative.label}
              </button>
            )}
            <button
              type="button"
              ref={keepRef}
              onClick={() => !busy && onDismiss()}
              aria-disabled={busy || undefined}
            >
              {keepLabel}
            </button>
            <button
              type="button"
              className="danger-button"
              onClick={() => {
                if (busy) return;
                if (confirmWaitsFor) onConfirmWaiting?.();
                else onConfirm();
              }}
              aria-disabled={busy || confirmWaitsFor !== undefined || undefined}
              aria-describedby={confirmWaitsFor}
            >
              {busy && busyLabel ? busyLabel : confirmLabel}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
