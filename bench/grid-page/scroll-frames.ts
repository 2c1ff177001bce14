// A frame-checked scroll, in the page. Each scroll arrives between frames,
// as input does (a task after the last frame's paint moves scrollTop by
// `step`), and each frame is read after its layout and before its paint (in
// a ResizeObserver callback, which Chromium runs there, after every
// requestAnimationFrame callback): what the frame will show at three points
// of the viewport (its top, middle and bottom), against the rows its scroll
// position implies. The frame's time is its requestAnimationFrame timestamp.

import type { FrameReading } from './frame-reading.ts';
import type { BenchGrid } from './page.tsx';

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

export async function scrollFrames(
  grid: BenchGrid,
  step: number,
  frames: number,
): Promise<FrameReading[]> {
  const scroller = grid.scroller();
  scroller.scrollTop = 0;
  for (let i = 0; i < 5; i++) await nextFrame();
  const top = grid.rowsTop();
  const bottom = scroller.getBoundingClientRect().top + scroller.clientHeight;
  const points = [top + 1, (top + bottom) / 2, bottom - 2];
  const x = grid.idX();
  const rowHeight = 32;
  const probe = document.createElement('div');
  probe.className = 'bench-probe';
  document.body.append(probe);
  const after = new MessageChannel();
  const readings: FrameReading[] = [];
  let frameAt = 0;
  let width = 1;

  return new Promise((resolve) => {
    const observer = new ResizeObserver(() => {
      if (frameAt === 0) return; // the observation's first report, before the first frame counted
      const scrollTop = scroller.scrollTop;
      const offset = grid.offsetAt(scrollTop);
      const expected = points.map((y) => grid.idOf(Math.floor((offset + y - top) / rowHeight)));
      const shown = points.map((y) => grid.idAt(x, y) ?? null);
      readings.push({ at: frameAt, scrollTop, expected, shown });
      if (readings.length >= frames) {
        observer.disconnect();
        probe.remove();
        resolve(readings);
        return;
      }
      // After this frame's paint: the next scroll, for the next frame to show.
      after.port2.postMessage(null);
    });
    after.port1.onmessage = () => {
      scroller.scrollTop += step;
    };
    const tick = (time: number) => {
      frameAt = time;
      width = 3 - width;
      probe.style.width = `${width}px`;
      if (readings.length < frames) requestAnimationFrame(tick);
    };
    observer.observe(probe);
    scroller.scrollTop += step;
    requestAnimationFrame(tick);
  });
}
