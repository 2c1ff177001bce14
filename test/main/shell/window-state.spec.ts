// The window's placement between runs, checked against the displays there are now.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const electron = await vi.hoisted(async () => {
  const { createElectronMock } = await import('../../support/electron-mock.ts');
  return createElectronMock();
});
vi.mock('electron', () => electron);

const { placeWindow, readWindowState, trackWindowState, writeWindowState } =
  await import('../../../src/main/desktop/window-state.ts');

const size = { width: 1280, height: 820, minWidth: 900, minHeight: 600 };
const laptop = { x: 0, y: 0, width: 1440, height: 860 };
const rightMonitor = { x: 1440, y: 0, width: 2560, height: 1400 };
const dirs: string[] = [];

function stateFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-window-'));
  dirs.push(dir);
  return join(dir, 'window-state.json');
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('placeWindow', () => {
  it('opens at the default size, centred, the first time', () => {
    expect(placeWindow(undefined, [laptop], size)).toEqual({
      bounds: { width: 1280, height: 820 },
      maximized: false,
      fullScreen: false,
    });
  });

  it('restores the saved bounds on the display they were on', () => {
    const saved = {
      bounds: { x: 1600, y: 100, width: 1500, height: 900 },
      maximized: true,
      fullScreen: false,
    };
    expect(placeWindow(saved, [laptop, rightMonitor], size)).toEqual(saved);
  });

  it('opens on the primary display when the saved one is gone', () => {
    const saved = {
      bounds: { x: 1600, y: 100, width: 1500, height: 900 },
      maximized: false,
      fullScreen: true,
    };
    expect(placeWindow(saved, [laptop], size)).toEqual({
      bounds: { width: 1280, height: 820 },
      maximized: false,
      fullScreen: false,
    });
  });

  it('treats a window whose title strip is off screen as lost, and pulls a half-visible one in', () => {
    const aboveTheScreen = { bounds: { x: 100, y: -900, width: 1200, height: 800 } };
    expect(
      placeWindow({ ...aboveTheScreen, maximized: false, fullScreen: false }, [laptop], size)
        .bounds,
    ).toEqual({ width: 1280, height: 820 });
    const hangingOffTheRight = {
      bounds: { x: 1000, y: 50, width: 1200, height: 1200 },
      maximized: false,
      fullScreen: false,
    };
    expect(placeWindow(hangingOffTheRight, [laptop], size).bounds).toEqual({
      x: 240,
      y: 0,
      width: 1200,
      height: 860,
    });
  });

  it('never makes the window smaller than the layout needs', () => {
    const tiny = { x: 0, y: 0, width: 800, height: 500 };
    expect(placeWindow(undefined, [tiny], size).bounds).toEqual({ width: 900, height: 600 });
  });
});

describe('the saved state', () => {
  it('round-trips, and anything unreadable or malformed counts as none', () => {
    const file = stateFile();
    expect(readWindowState(file)).toBeUndefined();
    const state = {
      bounds: { x: 10, y: 20, width: 1000, height: 700 },
      maximized: false,
      fullScreen: false,
    };
    expect(writeWindowState(file, state)).toBe(true);
    expect(readWindowState(file)).toEqual(state);
    for (const bad of [
      '{',
      '[]',
      '{"bounds":{"x":"1"}}',
      JSON.stringify({ ...state, bounds: { ...state.bounds, width: -5 } }),
    ]) {
      writeFileSync(file, bad);
      expect(readWindowState(file), bad).toBeUndefined();
    }
  });

  it('is saved when the window closes, with its normal bounds and whether it was maximized', () => {
    const file = stateFile();
    const window = new electron.BrowserWindow({ x: 30, y: 40, width: 1100, height: 700 });
    trackWindowState(window, file);
    window.maximize();
    window.close();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      bounds: { x: 30, y: 40, width: 1100, height: 700 },
      maximized: true,
      fullScreen: false,
    });
  });

  it('reads the placement an earlier release saved without a version, and saves it with one', () => {
    const file = stateFile();
    const earlier = {
      bounds: { x: 5, y: 6, width: 1000, height: 650 },
      maximized: false,
      fullScreen: false,
    };
    writeFileSync(file, JSON.stringify(earlier));
    expect(readWindowState(file)).toEqual(earlier);
    expect(writeWindowState(file, earlier)).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, ...earlier });
  });

  it('leaves a placement a newer release saved as it is, and still opens where it says', () => {
    const file = stateFile();
    const text = JSON.stringify({
      version: 2,
      bounds: { x: 5, y: 6, width: 1000, height: 650 },
      maximized: true,
      fullScreen: false,
      display: 'DELL U2720Q',
    });
    writeFileSync(file, text);
    expect(readWindowState(file)).toEqual({
      bounds: { x: 5, y: 6, width: 1000, height: 650 },
      maximized: true,
      fullScreen: false,
    });
    const window = new electron.BrowserWindow({ x: 30, y: 40, width: 1100, height: 700 });
    trackWindowState(window, file);
    window.close();
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
