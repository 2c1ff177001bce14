// Scrolling a list taller than a browser can lay out. Chromium stops at
// ~33.5 million layout pixels (its layout unit's range), and zoom and the
// screen's scale multiply CSS pixels into layout pixels, so three million
// 32-pixel rows cannot simply be one tall element. As large-grid libraries
// do, the scrolling content is capped at what the current zoom can lay out
// (scrollCap), and past it the scroll position is scaled: scrolling from top
// to bottom of the capped content moves the viewport from the first row to
// the last. Rows are placed next to the viewport, so no coordinate near the
// cap is ever used for a row. Lists that fit are not scaled at all, so a
// scroll pixel is a row pixel wherever it can be (at 100% zoom, up to a
// million rows).
//
// "Offset" below is a position in the list as if it were laid out whole (row
// i's top is i * rowHeight); "scrollTop" is the scrolling element's.

/** Layout pixels Chromium lays out safely: under its limit of 2^31 / 64 (~33.5 million), with room to spare. */
export const LAYOUT_LIMIT = 32_000_000;

/**
 * The tallest scrolling content at a device pixel ratio (zoom times the
 * screen's scale): 32,000,000 CSS pixels at 100%, 8,000,000 at 400%. Never
 * more than at 100%, so zooming out does not need a taller one.
 */
export function scrollCap(devicePixelRatio: number): number {
  const ratio = Number.isFinite(devicePixelRatio) && devicePixelRatio > 1 ? devicePixelRatio : 1;
  return Math.floor(LAYOUT_LIMIT / ratio);
}

/** The cap at 100% zoom on a screen of scale 1. */
export const MAX_SCROLL_HEIGHT = scrollCap(1);

export interface GridScroll {
  readonly rows: number;
  readonly rowHeight: number;
  /** The viewport's height. */
  readonly viewport: number;
  /** The whole list's height, unscaled. */
  readonly listHeight: number;
  /** The scrolling content's height: the list's, capped. */
  readonly contentHeight: number;
}

export function gridScroll(
  rows: number,
  rowHeight: number,
  viewport: number,
  maxHeight = MAX_SCROLL_HEIGHT,
): GridScroll {
  const listHeight = rows * rowHeight;
  return { rows, rowHeight, viewport, listHeight, contentHeight: Math.min(listHeight, maxHeight) };
}

const maxScrollTopOf = (scroll: GridScroll) => Math.max(0, scroll.contentHeight - scroll.viewport);
const maxOffsetOf = (scroll: GridScroll) => Math.max(0, scroll.listHeight - scroll.viewport);

/** Whether the scroll position is scaled (the list is taller than the cap). */
export function isScaled(scroll: GridScroll): boolean {
  return scroll.listHeight > scroll.contentHeight;
}

/** The list offset at the viewport's top for a scrollTop. */
export function offsetAt(scroll: GridScroll, scrollTop: number): number {
  const top = Math.min(Math.max(0, scrollTop), maxScrollTopOf(scroll));
  if (!isScaled(scroll)) return top;
  const maxScrollTop = maxScrollTopOf(scroll);
  return maxScrollTop === 0 ? 0 : (top / maxScrollTop) * maxOffsetOf(scroll);
}

/** The scrollTop that puts list offset `offset` at the viewport's top (not rounded). */
export function scrollTopAt(scroll: GridScroll, offset: number): number {
  const clamped = Math.min(Math.max(0, offset), maxOffsetOf(scroll));
  if (!isScaled(scroll)) return clamped;
  const maxOffset = maxOffsetOf(scroll);
  return maxOffset === 0 ? 0 : (clamped / maxOffset) * maxScrollTopOf(scroll);
}

/** The rows wholly or partly in view at a scrollTop: [first, last], or last < first when none. */
export function rowsInView(scroll: GridScroll, scrollTop: number): { first: number; last: number } {
  if (scroll.rows === 0) return { first: 0, last: -1 };
  const offset = offsetAt(scroll, scrollTop);
  const first = Math.min(scroll.rows - 1, Math.floor(offset / scroll.rowHeight));
  const last = Math.min(
    scroll.rows - 1,
    Math.max(first, Math.ceil((offset + scroll.viewport) / scroll.rowHeight) - 1),
  );
  return { first, last };
}

/** Where row `row`'s top is in the scrolling content at a scrollTop: beside the viewport, whatever the list's length. */
export function rowTop(scroll: GridScroll, row: number, scrollTop: number): number {
  return scrollTop + row * scroll.rowHeight - offsetAt(scroll, scrollTop);
}

/**
 * The whole-pixel scrollTop that shows all of `row`, moving as little as
 * possible (none if it is in view already). Rounded towards the row, so the
 * scaled position (several list pixels per scroll pixel) never leaves the
 * row cut at the viewport's edge.
 */
export function scrollTopToReveal(scroll: GridScroll, row: number, scrollTop: number): number {
  const offset = offsetAt(scroll, scrollTop);
  const top = row * scroll.rowHeight;
  const bottom = top + scroll.rowHeight;
  if (top < offset) return Math.floor(scrollTopAt(scroll, top));
  if (bottom > offset + scroll.viewport)
    return Math.min(
      maxScrollTopOf(scroll),
      Math.ceil(scrollTopAt(scroll, bottom - scroll.viewport)),
    );
  return scrollTop;
}
