// What the stand-in's modules share in one process: how it was started (the
// app's folder, whether it is packaged), where tests reach it (the control
// channel) and the Chromium that shows its windows.

import { EventEmitter } from 'node:events';
import { basename } from 'node:path';

export interface StandinSettings {
  /** The app's folder (the one holding package.json). */
  readonly appPath: string;
  /** What electron would give as process.execPath. */
  readonly execPath: string;
  readonly isPackaged: boolean;
  /** The command line the app was started with (after the executable). */
  readonly argv: readonly string[];
  /** Chromium without a window: tests, and machines without a display. */
  readonly headless: boolean;
  /** Switches given as Electron's own (--remote-debugging-port=N and the like). */
  readonly switches: ReadonlyMap<string, string>;
}

/** Where the stand-in reports what happens, for tests and for the person watching. */
export const runtimeEvents = new EventEmitter();

let settings: StandinSettings | undefined;

export function configureRuntime(next: StandinSettings): void {
  settings = next;
}

export function runtimeSettings(): StandinSettings {
  if (!settings) {
    // Imported outside the stand-in's launcher (an in-process harness, a test):
    // an unpackaged app in the current folder, headless.
    settings = {
      appPath: process.cwd(),
      execPath: process.execPath,
      isPackaged: false,
      argv: [],
      headless: true,
      switches: new Map(),
    };
  }
  return settings;
}

/** The executable's name says whether Electron runs an app of its own (lib/browser/api/app.ts). */
export function isPackagedExecutable(execPath: string): boolean {
  const name = basename(execPath).toLowerCase();
  return process.platform === 'win32' ? name !== 'electron.exe' : name !== 'electron';
}
