// The grid's scaled scroll position: a list taller than Chromium can lay out
// (3,000,000 rows of 32 px is 96,000,000 px) still scrolls from its first row
// to its last, a list that fits is not scaled at all, and what fits follows
// the zoom.

import { describe, expect, test } from 'vitest';
import {
  gridScroll,
  isScaled,
  MAX_SCROLL_HEIGHT,
  offsetAt,
  scrollCap,
  rowsInView,
  rowTop,
  scrollTopAt,
  scrollTopToReveal,
} from '../../../../../src/renderer/src/features/orders/table/grid-scroll.ts';

const ROW = 32;
const VIEWPORT = 600;

describe('gridScroll', () => {
  test('a list that fits scrolls as it is', () => {
    const scroll = gridScroll(1000, ROW, VIEWPORT);
    expect(isScaled(scroll)).toBe(false);
    expect(scroll.contentHeight).toBe(32_000);
    expect(offsetAt(scroll, 3200)).toBe(3200);
    expect(rowsInView(scroll, 3200)).toEqual({ first: 100, last: 118 });
    expect(rowTop(scroll, 100, 3200)).toBe(3200);
  });

  test('3,000,000 rows: the content is capped, and the end of the scroll bar is the last row', () => {
    const rows = 3_000_000;
    const scroll = gridScroll(rows, ROW, VIEWPORT);
    expect(isScaled(scroll)).toBe(true);
    expect(scroll.contentHeight).toBe(MAX_SCROLL_HEIGHT);
    expect(scroll.contentHeight).toBeLessThan(33_554_428); // Chromium's layout limit
    const end = scroll.contentHeight - VIEWPORT;
    expect(rowsInView(scroll, end).last).toBe(rows - 1);
    expect(rowsInView(scroll, end + 1000).last).toBe(rows - 1); // past the end: clamped
    expect(rowsInView(scroll, 0)).toEqual({ first: 0, last: 18 });
    // The last row is placed beside the viewport, wholly inside it, at the bottom.
    const top = rowTop(scroll, rows - 1, end);
    expect(top).toBeGreaterThanOrEqual(end);
    expect(top + ROW).toBeCloseTo(end + VIEWPORT, 6);
    // Offsets and scroll positions map both ways.
    for (const offset of [0, 12_345_678, 50_000_000, scroll.listHeight - VIEWPORT])
      expect(offsetAt(scroll, scrollTopAt(scroll, offset))).toBeCloseTo(offset, 3);
  });

  test('the cap follows the zoom: a million rows scroll unscaled at 100%, scaled at 200%, safe at 400%', () => {
    const rows = 1_000_000;
    expect(isScaled(gridScroll(rows, ROW, VIEWPORT, scrollCap(1)))).toBe(false);
    // Zooming out never asks for more than at 100%.
    expect(scrollCap(0.5)).toBe(scrollCap(1));
    expect(scrollCap(Number.NaN)).toBe(scrollCap(1));
    const zoomed = gridScroll(rows, ROW, VIEWPORT, scrollCap(2));
    expect(isScaled(zoomed)).toBe(true);
    expect(zoomed.contentHeight * 2).toBeLessThan(33_554_428);
    expect(rowsInView(zoomed, zoomed.contentHeight - VIEWPORT).last).toBe(rows - 1);
    expect(scrollCap(4) * 4).toBeLessThan(33_554_428);
  });

  test('revealing a row far down moves to a whole pixel that shows it whole', () => {
    const scroll = gridScroll(3_000_000, ROW, VIEWPORT);
    for (const row of [0, 1_031_251, 2_000_001, 2_999_999]) {
      const scrollTop = scrollTopToReveal(scroll, row, 0);
      expect(Number.isInteger(scrollTop)).toBe(true);
      const { first, last } = rowsInView(scroll, scrollTop);
      expect(row).toBeGreaterThanOrEqual(first);
      expect(row).toBeLessThanOrEqual(last);
      const top = rowTop(scroll, row, scrollTop);
      expect(top).toBeGreaterThanOrEqual(scrollTop - 1e-6);
      expect(top + ROW).toBeLessThanOrEqual(scrollTop + VIEWPORT + 1e-6);
    }
  });
});
