// A button that opens a small panel over the page (filters, the quota's
// details): the button says whether it is open, Escape or a click elsewhere
// closes the panel and gives the focus back to the button. However little room
// the window leaves below the button (a zoomed window), the panel ends inside
// it and scrolls.

import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';

/** Room kept between an open panel and the window's bottom edge, in CSS pixels. */
const EDGE_PX = 8;

export interface PopoverProps {
  /** The panel's accessible name, e.g. "Filters". */
  readonly label: string;
  /** What the button shows. */
  readonly button: ReactNode;
  /** The button's accessible name when its words alone would be too short (must contain them). */
  readonly buttonName?: string;
  readonly buttonClassName?: string;
  readonly className?: string;
  readonly panelClassName?: string;
  /** The panel's content; rendered only while it is open. */
  readonly children: ReactNode;
}

export function Popover({
  label,
  button,
  buttonName,
  buttonClassName,
  className,
  panelClassName,
  children,
}: PopoverProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  // The room below the panel's top, measured before paint and again when the window is resized.
  useLayoutEffect(() => {
    const panel = panelRef.current;
    if (!open || !panel) return undefined;
    const fit = () => {
      const room = window.innerHeight - panel.getBoundingClientRect().top - EDGE_PX;
      panel.style.maxHeight = `${Math.max(96, Math.floor(room))}px`;
      panel.style.overflowY = 'auto';
    };
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [open]);

  useCloseOnPointerOutside(open, rootRef, () => setOpen(false));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    // eslint-disable-next-line jsx-a11y-x/no-static-element-interactions -- Escape from the button or the panel inside closes it
    <div
      className={['popover', className].filter(Boolean).join(' ')}
      ref={rootRef}
      onKeyDown={onKeyDown}
    >
      <button
        ref={buttonRef}
        type="button"
        className={buttonClassName}
        aria-label={buttonName}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        {button}
      </button>
      <div
        id={panelId}
        ref={panelRef}
        className={['popover-panel', panelClassName].filter(Boolean).join(' ')}
        role="group"
        aria-label={label}
        // A click inside puts the focus here, so Escape still reaches the handler above.
        tabIndex={-1}
        hidden={!open}
      >
        {open && children}
      </div>
    </div>
  );
}

/** While `open`, a press anywhere outside `root` calls `close` (a panel's light dismiss). */
export function useCloseOnPointerOutside(
  open: boolean,
  root: RefObject<HTMLElement | null>,
  close: () => void,
): void {
  const closeRef = useRef(close);
  useEffect(() => {
    closeRef.current = close;
  });
  useEffect(() => {
    if (!open) return undefined;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) closeRef.current();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, root]);
}
