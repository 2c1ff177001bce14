// Scrolling the orders grid of 1,000,000 orders as a clerk does, with the
// wheel and by dragging the scroll bar's thumb down its track and back up:
// every frame painted meanwhile shows the rows its scroll position implies.
// Each frame is read after its layout and before its paint (a ResizeObserver
// callback, which Chromium runs after every requestAnimationFrame callback):
// the order ids drawn at the top, middle and bottom of the grid, against the
// sandbox's own list at the rows the frame's scrollTop puts there. A million
// 32-pixel rows fit Chromium's layout at 100%, so a scroll pixel is a row
// pixel (checked below).

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { E2EApp } from './support/app.ts';
import { describeOnHarness } from './support/app.ts';
import { gridShown, specApps } from './support/spec-apps.ts';

const ORDERS = 1_000_000;
const ROW_HEIGHT = 32;

interface Frame {
  readonly scrollTop: number;
  /** The grid's top and the three points read, in the page's pixels. */
  readonly top: number;
  readonly points: readonly number[];
  /** The id drawn at each point: '' for a row without its id, null for no row. */
  readonly shown: readonly (string | null)[];
}

declare global {
  interface Window {
    scrollFrames?: Frame[];
    stopScrollFrames?: () => void;
  }
}

/** Page code: reads every frame from now on into window.scrollFrames. */
function watchFrames(): void {
  const scroller = document.querySelector<HTMLElement>('.orders-grid-scroll')!;
  const probe = document.createElement('div');
  probe.setAttribute('aria-hidden', 'true');
  probe.style.cssText = 'position:fixed;left:0;top:0;height:1px;pointer-events:none';
  document.body.append(probe);
  const frames: Frame[] = [];
  window.scrollFrames = frames;
  let width = 1;
  let running = true;
  const observer = new ResizeObserver(() => {
    const box = scroller.getBoundingClientRect();
    const x = box.left + scroller.clientWidth / 2;
    const points = [
      box.top + 1,
      box.top + scroller.clientHeight / 2,
      box.top + scroller.clientHeight - 2,
    ];
    const shown = points.map((y) => {
      const row = document.elementFromPoint(x, y)?.closest('[role="row"]');
      if (!row) return null;
      return row.querySelector('[role="rowheader"]')?.textContent?.trim() ?? '';
    });
    frames.push({ scrollTop: scroller.scrollTop, top: box.top, points, shown });
  });
  const tick = () => {
    width = 3 - width;
    probe.style.width = `${width}px`;
    if (running) requestAnimationFrame(tick);
  };
  window.stopScrollFrames = () => {
    running = false;
    observer.disconnect();
    probe.remove();
  };
  observer.observe(probe);
  requestAnimationFrame(tick);
}

/** Starts reading frames, and waits for the first (the position before any scroll). */
async function startWatching(page: Page): Promise<void> {
  await page.evaluate(watchFrames);
  await page.waitForFunction(() => window.scrollFrames!.length > 0, undefined, { polling: 'raf' });
}

/** The frames read since `watchFrames`, once `settle` more have been painted. */
async function framesRead(page: Page, settle = 10): Promise<Frame[]> {
  const count = await page.evaluate(() => window.scrollFrames!.length);
  await page.waitForFunction((at) => window.scrollFrames!.length >= at, count + settle, {
    polling: 'raf',
  });
  return page.evaluate(() => {
    window.stopScrollFrames!();
    return window.scrollFrames!;
  });
}

/** The frames that do not show the rows their scrollTop implies, as the clerk would see them. */
function wrongFrames(frames: readonly Frame[], ids: readonly string[]): string[] {
  return frames.flatMap((frame) => {
    const expected = frame.points.map(
      (y) => ids[Math.floor((frame.scrollTop + y - frame.top) / ROW_HEIGHT)] ?? null,
    );
    const right = expected.every((id, k) => id === frame.shown[k]);
    return right
      ? []
      : [
          `at ${frame.scrollTop} px: shows ${JSON.stringify(frame.shown)}, not ${JSON.stringify(expected)}`,
        ];
  });
}

const apps = specApps('scroll-input');
let app: E2EApp;
let ids: string[];

describeOnHarness('scrolling a million orders by wheel and by scroll bar', () => {
  beforeAll(async () => {
    app = await apps.open({ sandbox: { orders: ORDERS } });
    ids = app.sandbox.orderIds();
    await gridShown(app.page);
    const whole = `Showing ${ORDERS.toLocaleString('en')} of ${ORDERS.toLocaleString('en')} orders`;
    await app.page.locator('.view-count', { hasText: whole }).waitFor({ timeout: 120_000 });
    const height = await app.page.evaluate(
      () => document.querySelector('.orders-grid-scroll')!.scrollHeight,
    );
    expect(height, 'the list is laid out unscaled').toBe(ORDERS * ROW_HEIGHT);
  }, 180_000);
  afterAll(() => apps.closeAll());

  it('shows the right rows in every frame of a turn of the wheel', async () => {
    const { page } = app;
    const box = (await page.locator('.orders-grid-scroll').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await startWatching(page);
    for (let turn = 0; turn < 6; turn++) await page.mouse.wheel(0, 1_200);
    const frames = await framesRead(page);
    expect(frames[0]!.scrollTop).toBe(0);
    expect(frames.at(-1)!.scrollTop, 'the wheel moved the grid 7,200 px').toBe(7_200);
    expect(wrongFrames(frames, ids)).toEqual([]);
  });

  it('shows the right rows in every frame while the thumb is dragged down the track and back', async () => {
    const { page } = app;
    const scroller = page.locator('.orders-grid-scroll');
    await scroller.evaluate((element) => element.scrollTo(0, 0));
    const box = (await scroller.boundingBox())!;
    const gutter = await scroller.evaluate(
      (element) => element.getBoundingClientRect().width - element.clientWidth,
    );
    expect(gutter, 'the grid has a scroll bar').toBeGreaterThan(0);
    // The thumb, at the top of its track: this Chromium's scroll bar has an arrow above the
    // track, a square of the bar's width (if the press misses the thumb, the check of how far
    // the grid went says so).
    const x = box.x + box.width - gutter / 2;
    await startWatching(page);
    await page.mouse.move(x, box.y + gutter + 4);
    await page.mouse.down();
    for (const stop of [0.2, 0.55, 0.9, 0.4, 0.05])
      await page.mouse.move(x, box.y + stop * box.height, { steps: 8 });
    await page.mouse.up();
    const frames = await framesRead(page);
    const furthest = Math.max(...frames.map((frame) => frame.scrollTop));
    const positions = new Set(frames.map((frame) => frame.scrollTop));
    expect(positions.size, 'the grid followed the thumb frame by frame').toBeGreaterThan(5);
    expect(
      furthest / (ORDERS * ROW_HEIGHT),
      'the thumb took the grid most of the way down',
    ).toBeGreaterThan(0.7);
    expect(wrongFrames(frames, ids)).toEqual([]);
  });
});
