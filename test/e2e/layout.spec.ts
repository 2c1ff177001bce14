// The window as a desktop tool, measured in Chromium: the page never
// scrolls, the header keeps one height and one line, the orders grid takes
// the height left (at least 15 rows in view at 1280×800, 25 at 1920×1080) and
// scrolls inside itself, nothing is cut off from 1100 to 1920 px wide (with
// the details panel open too, and with ids above 2^53), and Settings and
// Domains scroll inside the same frame. The page's CSP (no inline styles, no
// eval) holds throughout, and the check of it is shown to catch a violation.
//
// Rows after a resize: the grid places them in its ResizeObserver's callback
// and, when the scroll position moves, in the scroll event, both of which come
// with the next frame, before it is painted. Read before that frame, the rows
// stand where they were: after a scroll back to the top and a resize to
// 1920×1080 with no frame between, a read finds no row in view (what this
// file's first test once met in CI, reading at once; it reads two frames on
// now). Before the grid placed rows in the callback, a frame did paint the
// old height's rows with the bottom empty under load (8 of 33 resizes in
// the test below, with the grid of then).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startE2EApp, type E2EApp, describeOnHarness } from './support/app.ts';
import { inPage } from './support/in-page-shapes.ts';
import { axeSummary, checkScreen } from './support/screens.ts';

let app: E2EApp;
let bigIds: E2EApp;

const SIZES = [
  { width: 1280, height: 800, rows: 15 },
  { width: 1920, height: 1080, rows: 25 },
] as const;

const WIDTHS = [1100, 1180, 1280, 1366, 1440, 1600, 1920] as const;

interface RowsAtResize {
  height: number;
  whole: number;
  topCovered: boolean;
  bottomCovered: boolean;
}

/**
 * Page code: records, each time the grid's scroll area changes size, whether
 * its rows cover it from top to bottom and how many are wholly in it. Read in
 * a ResizeObserver's callback: after the layout of the new size, before the
 * frame is painted.
 */
const WATCH_ROWS_AT_RESIZE = `(() => {
  const scroller = document.querySelector('.orders-grid-scroll');
  window.rowsAtResize = [];
  const observer = new ResizeObserver(() => {
    const box = scroller.getBoundingClientRect();
    const top = box.top;
    const bottom = top + scroller.clientHeight;
    const rows = [...scroller.querySelectorAll('.orders-grid-item:not([hidden])')].map((row) =>
      row.getBoundingClientRect(),
    );
    window.rowsAtResize.push({
      height: scroller.clientHeight,
      whole: rows.filter((row) => row.top >= top - 0.5 && row.bottom <= bottom + 0.5).length,
      topCovered: rows.some((row) => row.top <= top + 0.5 && row.bottom > top),
      bottomCovered: rows.some((row) => row.top < bottom && row.bottom >= bottom - 0.5),
    });
  });
  observer.observe(scroller);
  window.stopRowsAtResize = () => observer.disconnect();
})()`;

/**
 * Page code: as WATCH_ROWS_AT_RESIZE, for a grid that may come and go (a list
 * arriving mounts it): each grid's scroll area gets an observer of its own,
 * made after the grid's (on the frame after the grid mounted), so it is told
 * of each size after the grid's and reads what that frame paints. Records
 * the scroll position and the list's length with each.
 */
const WATCH_EVERY_GRID = `(() => {
  window.rowsAtResize = [];
  let watched, observer;
  const record = (scroller) => {
    const box = scroller.getBoundingClientRect();
    const top = box.top;
    const bottom = top + scroller.clientHeight;
    const rows = [...scroller.querySelectorAll('.orders-grid-item:not([hidden])')].map((row) =>
      row.getBoundingClientRect(),
    );
    const fits = scroller.scrollHeight <= scroller.clientHeight;
    window.rowsAtResize.push({
      height: scroller.clientHeight,
      scrollTop: scroller.scrollTop,
      orders: Number(document.querySelector('[role="grid"]')?.getAttribute('aria-rowcount') ?? 1) - 1,
      whole: rows.filter((row) => row.top >= top - 0.5 && row.bottom <= bottom + 0.5).length,
      topCovered: rows.some((row) => row.top <= top + 0.5 && row.bottom > top),
      // A list shorter than the area leaves room below its last row.
      bottomCovered: fits || rows.some((row) => row.top < bottom && row.bottom >= bottom - 0.5),
    });
  };
  const follow = () => {
    if (window.stopRowsAtResize === undefined) return;
    const scroller = document.querySelector('.orders-grid-scroll');
    if (scroller !== watched) {
      observer?.disconnect();
      watched = scroller;
      if (scroller) {
        observer = new ResizeObserver(() => record(scroller));
        observer.observe(scroller);
      }
    }
    requestAnimationFrame(follow);
  };
  window.stopRowsAtResize = () => {
    observer?.disconnect();
    window.stopRowsAtResize = undefined;
  };
  follow();
})()`;

/** Window sizes a clerk goes through: from the smallest the app allows to a tall one. */
const RESIZES = [
  { width: 1920, height: 1080 },
  { width: 1100, height: 700 },
  { width: 1600, height: 900 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1200 },
  { width: 1280, height: 600 },
  { width: 1440, height: 1000 },
  { width: 1100, height: 1080 },
] as const;

describeOnHarness('the desktop layout in Chromium', () => {
  beforeAll(async () => {
    [app, bigIds] = await Promise.all([
      startE2EApp({ sandbox: { orders: 2000 } }),
      startE2EApp({ sandbox: { orders: 2000, bigIds: true } }),
    ]);
  });
  afterAll(async () => {
    console.log(axeSummary('layout'));
    await Promise.all([app?.close(), bigIds?.close()]);
  });

  it('the page never scrolls; the header keeps one height on one line; the grid fills the rest with enough rows in view', async () => {
    const { page } = app;
    const grid = page.getByRole('grid', { name: 'Sandbox orders' });
    const heights = new Set<number>();
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await grid.getByRole('row').nth(1).waitFor();
      // The grid places the rows of a new height in the frame of the resize (the next test).
      await page.evaluate(inPage.twoFrames);
      const rows = await page.evaluate(inPage.rowsInView);
      console.log(`rows in view at ${size.width}×${size.height}: ${rows}`);
      expect(rows).toBeGreaterThanOrEqual(size.rows);
      const layout = await page.evaluate(inPage.frameOf);
      expect(layout).toMatchObject({
        pageScrollsDown: false,
        pageScrollsAcross: false,
        headerLines: 1,
      });
      heights.add(layout.headerHeight);

      // A wheel over the grid scrolls the grid, never the page.
      await grid.hover();
      await page.mouse.wheel(0, 2_000);
      await expect
        .poll(async () => (await page.evaluate(inPage.gridScroll)).top)
        .toBeGreaterThan(0);
      expect((await page.evaluate(inPage.frameOf)).pageScrolled).toBe(false);
      await page.evaluate(inPage.scrollGrid, { top: 0, left: 0 });
    }
    expect(heights.size).toBe(1);
  });

  it('a window made taller shows the rows for its new height in the very frame it grows, at the top and mid-list', async () => {
    const { page } = app;
    const grid = page.getByRole('grid', { name: 'Sandbox orders' });
    await page.setViewportSize({ width: 1280, height: 600 });
    await grid.getByRole('row').nth(1).waitFor();
    // An observer made after the grid's is told of a size after it, in the same frame and
    // before that frame is painted: what it finds is what the frame shows.
    await page.evaluate(WATCH_ROWS_AT_RESIZE);
    for (const top of [0, 20_000]) {
      await page.setViewportSize({ width: 1280, height: 600 });
      await page.evaluate(inPage.scrollGrid, { top, left: 0 });
      await expect.poll(async () => (await page.evaluate(inPage.gridScroll)).top).toBe(top);
      await page.evaluate(inPage.twoFrames);
      await page.evaluate('window.rowsAtResize.length = 0');
      await page.setViewportSize({ width: 1920, height: 1080 });
      await expect
        .poll(() => page.evaluate<number>('window.rowsAtResize.length'))
        .toBeGreaterThan(0);
      const seen = await page.evaluate<RowsAtResize[]>('window.rowsAtResize');
      const grown = seen.find((frame) => frame.height > 700);
      expect(grown, `scrolled to ${top}: ${JSON.stringify(seen)}`).toMatchObject({
        topCovered: true,
        bottomCovered: true,
      });
      expect(grown!.whole, `scrolled to ${top}`).toBeGreaterThanOrEqual(25);
    }
    await page.evaluate('window.stopRowsAtResize()');
    await page.evaluate(inPage.scrollGrid, { top: 0, left: 0 });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('under load, at several sizes, while a list arrives and mid-list: the grid shows rows over its whole height in the frame of every resize', async () => {
    // A list of 300,000 orders arriving at 6 MB/s (about 4 s): rows come while the window
    // changes size. The page's CPU four times slower: what a busy machine does to a frame.
    const slow = await startE2EApp({
      sandbox: { orders: 300_000, bytesPerSecond: 6_000_000 },
      viewport: { width: 1280, height: 800 },
    });
    try {
      const { page } = slow;
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.evaluate(WATCH_EVERY_GRID);
      const seen: (RowsAtResize & { scrollTop: number; orders: number })[] = [];
      const grid = page.getByRole('grid', { name: 'Sandbox orders' });
      await grid.locator('[role="row"][aria-rowindex="2"]').waitFor({ timeout: 60_000 });
      let arriving = 0;
      for (let round = 0; round < 4; round++) {
        for (const size of RESIZES) {
          if (await grid.getAttribute('aria-busy')) arriving += 1;
          // Mid-list in odd rounds (the position the list has come to), at the top in even ones.
          await page.evaluate(inPage.scrollGrid, {
            top: round % 2 === 1 ? 24_000 + round * 320 : 0,
            left: 0,
          });
          await page.setViewportSize(size);
          await page.evaluate(inPage.twoFrames);
        }
        seen.push(...(await page.evaluate<typeof seen>('window.rowsAtResize.splice(0)')));
      }
      await page.evaluate('window.stopRowsAtResize()');
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      console.log(
        `resizes under load: ${seen.length} seen by the watch, ${arriving} of ${4 * RESIZES.length} while the list was arriving`,
      );
      // The list was still arriving during part of it, and each size was seen.
      expect(arriving).toBeGreaterThan(0);
      expect(seen.length).toBeGreaterThanOrEqual(4 * RESIZES.length);
      const empty = seen.filter(
        (frame) =>
          frame.orders > 0 &&
          !(
            frame.topCovered &&
            frame.bottomCovered &&
            frame.whole >= Math.floor(frame.height / 32) - 1
          ),
      );
      expect(empty, JSON.stringify(empty.slice(0, 5))).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('nothing is cut off from 1100 to 1920 px wide, with and without the details panel, with ids above 2^53 too', async () => {
    for (const [name, current] of [
      ['ids below 10,000', app],
      ['ids above 2^53', bigIds],
    ] as const) {
      const { page } = current;
      const grid = page.getByRole('grid', { name: 'Sandbox orders' });
      await grid.getByRole('row').nth(1).waitFor();
      for (const panel of ['closed', 'open'] as const) {
        if (panel === 'open') await grid.getByRole('row').nth(3).click();
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 800 });
          const found = await page.evaluate(inPage.cutOff);
          const where = `${name}, ${width} px wide, details ${panel}`;
          expect(found.cut, where).toEqual([]);
          expect((await page.evaluate(inPage.frameOf)).headerLines, where).toBe(1);
          if (name === 'ids below 10,000' || panel === 'closed' || width >= 1280) {
            expect(found.sideways, where).toBe(false);
          } else if (found.sideways) {
            console.log(`${where}: the grid scrolls sideways, its header following`);
            // 19-digit ids beside the panel in a narrow window: the grid scrolls sideways,
            // and its header follows the rows, so every column can still be read whole.
            // (The header follows in the frame after the scroll, as its scroll event comes.)
            await page.evaluate(inPage.scrollGrid, { top: 0, left: -1 });
            await expect
              .poll(
                async () => {
                  const { left, headLeft } = await page.evaluate(inPage.gridScroll);
                  return left > 0 && headLeft === left;
                },
                { message: where },
              )
              .toBe(true);
            await page.evaluate(inPage.scrollGrid, { top: 0, left: 0 });
            await expect
              .poll(async () => (await page.evaluate(inPage.gridScroll)).headLeft, {
                message: where,
              })
              .toBe(0);
          }
        }
      }
      await page.getByRole('button', { name: 'Close order details' }).click();
    }
  });

  it('Settings and Domains sit in the same frame: the header stays, their content scrolls inside', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1280, height: 600 });
    const before = await page.evaluate(inPage.frameOf);
    for (const name of ['Domains', 'Settings'] as const) {
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name }).click();
      await page.locator('.screen-scroll').waitFor();
      const layout = await page.evaluate(inPage.frameOf);
      expect(layout).toMatchObject({ pageScrollsDown: false, headerLines: 1 });
      expect(layout.headerHeight).toBe(before.headerHeight);
      const scroller = await page.evaluate(inPage.screenScroll);
      expect(scroller.overflowY).toBe('auto');
      // Content taller than the window scrolls in the frame; the page and the header stay.
      await page.evaluate(inPage.stretchScreen, true);
      expect(await page.evaluate(inPage.screenScroll)).toEqual({
        overflowY: 'auto',
        fits: false,
      });
      expect(await page.evaluate(inPage.frameOf)).toMatchObject({
        pageScrollsDown: false,
        headerLines: 1,
        headerHeight: before.headerHeight,
      });
      await page.evaluate(inPage.stretchScreen, false);
      await page.setViewportSize({ width: 1280, height: 800 });
      await checkScreen(page, name.toLowerCase());
      await page.setViewportSize({ width: 1280, height: 600 });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // A remote environment's settings, and the confirmation before its key is removed.
    await page.evaluate(inPage.setStagingKey, 'a-staging-key');
    await page
      .getByRole('navigation', { name: 'Environment settings' })
      .getByRole('button', { name: 'Staging' })
      .click();
    await page.getByRole('heading', { name: 'Staging settings' }).waitFor();
    await checkScreen(page, 'settings-staging');
    await page.getByRole('button', { name: 'Remove key…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the Staging API key?' });
    await dialog.waitFor();
    await checkScreen(page, 'remove-key-confirmation');
    await dialog.getByRole('button', { name: 'Keep the key' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Orders' })
      .click();
  });

  it('production’s red band and staging’s yellow band read in both themes, in words as well', async () => {
    const { page } = app;
    for (const [name, band] of [
      ['Production', 'PRODUCTION — live orders'],
      ['Staging', 'STAGING — test service'],
    ] as const) {
      await page.getByRole('radio', { name: new RegExp(`^${name}`) }).check();
      await page.getByText(band, { exact: true }).first().waitFor();
      // No address yet: one neutral prompt where the orders would be says so, with the way to
      // Settings; no alert, and no notice saying it again.
      const prompt = page.locator('.orders-placeholder');
      await prompt.waitFor();
      expect(await prompt.textContent()).toContain(`${name} is not set up yet.`);
      expect(await prompt.getByRole('button').allTextContents()).toEqual([`Set up ${name}`]);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await page.locator('[data-notice="set-up"]').count()).toBe(0);
      await checkScreen(page, `environment-${name.toLowerCase()}`);
    }
    await page.getByRole('radio', { name: 'Sandbox' }).check();
    await page.getByRole('grid', { name: 'Sandbox orders' }).getByRole('row').nth(1).waitFor();
  });

  it('the Content-Security-Policy holds with no inline styles and no eval, and its check does catch a violation', async () => {
    const { page } = app;
    expect(app.cspViolations()).toEqual([]);
    const csp = await page.evaluate(inPage.contentSecurityPolicy);
    expect(csp).toContain("style-src 'self';");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    // A style attribute in markup is refused and reported: the check is not blind.
    await page.evaluate(inPage.tryInlineStyle);
    // Both ways Chromium tells: the page's securitypolicyviolation event and the console.
    await expect
      .poll(() =>
        app
          .cspViolations()
          .map((text) => /style-src-attr blocked|inline style violates/.exec(text)?.[0]),
      )
      .toEqual(expect.arrayContaining(['style-src-attr blocked', 'inline style violates']));
    app.forgetCspViolations();
  });
});
