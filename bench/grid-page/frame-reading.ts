// What the page's frame-checked scroll (scroll-frames.ts) tells the bench of
// each frame: types only, shared by the page and Node.

export interface FrameReading {
  /** The frame's requestAnimationFrame timestamp, ms. */
  readonly at: number;
  readonly scrollTop: number;
  /** The ids the scroll position implies at the top, middle and bottom of the viewport. */
  readonly expected: readonly string[];
  /** The ids shown there: '' for a row with its id not drawn, null for no row at all. */
  readonly shown: readonly (string | null)[];
}
