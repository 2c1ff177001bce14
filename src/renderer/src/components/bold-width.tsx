// A label that takes the width it has in bold whether or not it is bold now:
// a tab or a switcher option drawn bold when chosen no longer moves what
// stands after it (the header shifted by a few pixels at every switch).

import type { ReactNode } from 'react';

export function BoldWidth({ label, children }: { label: string; children?: ReactNode }) {
  return (
    // One grid item for the label, whatever it holds (text and a span are two otherwise).
    <span className="bold-width" data-label={label}>
      <span>{children ?? label}</span>
    </span>
  );
}
