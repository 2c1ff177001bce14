// A polite live region that is always in the page, so screen readers announce
// what appears in it (outcomes, progress milestones) without moving the focus.

import type { ReactNode, Ref } from 'react';

export type Tone = 'info' | 'success' | 'warning' | 'error';

export interface StatusRegionProps {
  readonly children?: ReactNode;
  readonly tone?: Tone;
  readonly label?: string;
  readonly className?: string;
  /** Focusable (tabIndex -1) so a dialog can hand the focus here when its opener is gone. */
  readonly ref?: Ref<HTMLDivElement>;
}

export function StatusRegion({
  children,
  tone = 'info',
  label,
  className,
  ref,
}: StatusRegionProps) {
  const empty = children === undefined || children === null || children === false;
  const classes = ['status-region', empty ? 'status-empty' : `message message-${tone}`, className];
  return (
    <div
      ref={ref}
      role="status"
      aria-live="polite"
      aria-atomic="true"
      aria-label={label}
      tabIndex={-1}
      className={classes.filter(Boolean).join(' ')}
    >
      {children}
    </div>
  );
}
