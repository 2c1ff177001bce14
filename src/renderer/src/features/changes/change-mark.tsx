// A row's mark in the orders grid: new or changed since the last refresh, in
// words (the colour only beside them), with the full meaning as its tooltip.

import type { ChangeMark } from './change-lookup.ts';
import './changes.css';

const WORDS: Readonly<Record<ChangeMark, { readonly short: string; readonly full: string }>> = {
  new: { short: 'New', full: 'New since the last refresh' },
  changed: { short: 'Changed', full: 'Changed since the last refresh: the details show what was' },
};

export function ChangeMarkChip({ mark }: { mark: ChangeMark | undefined }) {
  if (!mark) return null;
  return (
    <span className={`change-chip change-${mark}`} title={WORDS[mark].full}>
      {WORDS[mark].short}
    </span>
  );
}
