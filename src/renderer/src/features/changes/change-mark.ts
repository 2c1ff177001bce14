// A row's mark in the orders grid: new or changed since the last refresh, in
// words (the colour only beside them), with the full meaning as its tooltip.
// The grid draws the chip itself (table/order-cells.ts) from these words.

import type { ChangeMark } from './change-lookup.ts';
import './changes.css';

/** A mark's word on the chip and its full meaning (the orders grid draws the same chip). */
export const CHANGE_MARK_WORDS: Readonly<
  Record<ChangeMark, { readonly short: string; readonly full: string }>
> = {
  new: { short: 'New', full: 'New since the last refresh' },
  changed: { short: 'Changed', full: 'Changed since the last refresh: the details show what was' },
};
