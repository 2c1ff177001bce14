// The main window's size and position between runs. What is read back is
// checked with a schema and against the displays there are now: a window
// saved on a monitor that is gone opens on the primary one instead of off
// screen.

import { readFileSync } from 'node:fs';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { refuseNewer, USER_DATA_FILES } from '../local-data/data-files.ts';

export interface Bounds {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

const boundsSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});

const windowStateSchema = z.object({
  bounds: boundsSchema,
  maximized: z.boolean(),
  fullScreen: z.boolean(),
});

export type WindowState = z.infer<typeof windowStateSchema>;

/**
 * The saved placement: of any version, as fields are only ever added (one
 * without a `version` is an earlier release's, version 1).
 */
export function readWindowState(file: string): WindowState | undefined {
  try {
    const parsed = windowStateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined; // none yet, or unreadable: the default placement
  }
}

/**
 * Atomic, so a crash mid-write leaves the last good placement; with its
 * format's version. Failing to save costs only the placement, and a file a
 * newer release saved is left as it is (data-files.ts).
 */
export function writeWindowState(file: string, state: WindowState): boolean {
  const format = USER_DATA_FILES.windowState;
  try {
    refuseNewer(file, format);
    writeFileAtomic.sync(file, JSON.stringify({ version: format.version, ...state }));
    return true;
  } catch {
    return false;
  }
}

export interface WindowSize {
  readonly width: number;
  readonly height: number;
  readonly minWidth: number;
  readonly minHeight: number;
}

export interface Placement {
  /** Without x and y, Electron centres the window. */
  readonly bounds: { x?: number; y?: number; width: number; height: number };
  readonly maximized: boolean;
  readonly fullScreen: boolean;
}

/** How much of the window's top strip must be on a display to grab and move it. */
const GRAB_WIDTH = 100;
const GRAB_HEIGHT = 40;

function overlap(a: Bounds, b: Bounds): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * Where to open the window: the saved bounds when their title strip is on one
 * of `workAreas` (sized to fit that display), otherwise the default size,
 * centred on the primary display (the first work area).
 */
export function placeWindow(
  saved: WindowState | undefined,
  workAreas: readonly Bounds[],
  size: WindowSize,
): Placement {
  const primary = workAreas[0];
  const fit = (width: number, height: number, area: Bounds | undefined) => ({
    width: Math.max(size.minWidth, Math.min(width, area?.width ?? width)),
    height: Math.max(size.minHeight, Math.min(height, area?.height ?? height)),
  });
  const fallback: Placement = {
    bounds: fit(size.width, size.height, primary),
    maximized: false,
    fullScreen: false,
  };
  if (!saved) return fallback;
  const strip = { ...saved.bounds, height: Math.min(saved.bounds.height, GRAB_HEIGHT) };
  const area = workAreas.find((workArea) => {
    const shared = overlap(strip, workArea);
    return shared.width >= Math.min(GRAB_WIDTH, saved.bounds.width) && shared.height > 0;
  });
  if (!area) return { ...fallback, maximized: saved.maximized };
  const { width, height } = fit(saved.bounds.width, saved.bounds.height, area);
  // Keep the window inside the display it is on, moving it rather than shrinking it further.
  const x = Math.min(Math.max(saved.bounds.x, area.x), area.x + area.width - width);
  const y = Math.min(Math.max(saved.bounds.y, area.y), area.y + area.height - height);
  return {
    bounds: { x, y, width, height },
    maximized: saved.maximized,
    fullScreen: saved.fullScreen,
  };
}

/** What the tracker reads from a window (Electron's BrowserWindow has all of it). */
export interface TrackedWindow {
  getNormalBounds(): Bounds;
  isMaximized(): boolean;
  isFullScreen(): boolean;
  on(event: 'close', listener: () => void): unknown;
}

/** Saves the window's placement as it closes: its normal bounds, and whether it was maximized or full screen. */
export function trackWindowState(window: TrackedWindow, file: string): void {
  window.on('close', () => {
    writeWindowState(file, {
      bounds: window.getNormalBounds(),
      maximized: window.isMaximized(),
      fullScreen: window.isFullScreen(),
    });
  });
}
