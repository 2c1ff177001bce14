// A button that opens a small panel over the page (filters, the quota's
// details): the button says whether it is open, Escape or a click elsewhere
// closes the panel and gives the focus back to the button.

import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

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

  useEffect(() => {
    if (!open) return undefined;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !rootRef.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

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
