// Electron's screen (docs/api/screen.md): one display, 1920×1080 with a
// 40-pixel panel, unless ELECTRON_STANDIN_DISPLAYS gives others as JSON
// ([{"bounds":{...},"workArea":{...}}, ...], the primary first).

import { EventEmitter } from 'node:events';

type Rect = { x: number; y: number; width: number; height: number };

function displays(): Electron.Display[] {
  const given = process.env.ELECTRON_STANDIN_DISPLAYS;
  const list: { bounds: Rect; workArea: Rect }[] = given
    ? (JSON.parse(given) as { bounds: Rect; workArea: Rect }[])
    : [
        {
          bounds: { x: 0, y: 0, width: 1920, height: 1080 },
          workArea: { x: 0, y: 0, width: 1920, height: 1040 },
        },
      ];
  return list.map((display, index) => ({
    id: index + 1,
    label: `Display ${index + 1}`,
    bounds: display.bounds,
    workArea: display.workArea,
    size: { width: display.bounds.width, height: display.bounds.height },
    workAreaSize: { width: display.workArea.width, height: display.workArea.height },
    scaleFactor: 1,
    rotation: 0,
    internal: index === 0,
    monochrome: false,
    accelerometerSupport: 'unknown',
    touchSupport: 'unknown',
    colorDepth: 24,
    colorSpace: '',
    depthPerComponent: 8,
    displayFrequency: 60,
    detected: true,
    maximumCursorSize: { width: 0, height: 0 },
    nativeOrigin: { x: display.bounds.x, y: display.bounds.y },
  }));
}

export const screen = Object.assign(new EventEmitter(), {
  getPrimaryDisplay: (): Electron.Display => displays()[0]!,
  getAllDisplays: (): Electron.Display[] => displays(),
  getCursorScreenPoint: () => ({ x: 0, y: 0 }),
  getDisplayNearestPoint: (): Electron.Display => displays()[0]!,
  getDisplayMatching: (): Electron.Display => displays()[0]!,
});
