// The stand-in inside a Node process that is not its launcher's: the
// development harness, which keeps the app's main-process services in its
// own process (with what tests inject into them) and runs the app's Electron
// edge (src/main/ipc/handle.ts, window.ts) on the stand-in. It maps `electron`
// here, starts Chromium and marks the app ready; the process's windows then
// behave as the launcher's do. Several users may share it: Chromium runs
// while any of them does.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type * as StandinElectron from './electron/index.ts';
import { devtoolsEndpoint, startChromium, stopChromium } from './electron/chromium.ts';
import { configureRuntime } from './electron/runtime.ts';
import { mapElectronToStandin } from './hook.ts';

export interface InProcessOptions {
  /** The app's folder (its package.json names the app). */
  readonly appPath: string;
  /** Chromium without a window (tests; machines without a display). The first user decides. */
  readonly headless: boolean;
  /** Where Chromium's DevTools listen (default: a free port). The first user decides. */
  readonly devtoolsPort?: number;
}

/** The stand-in's side of a window the app made. */
export interface WindowSide {
  /** Resolves with the window's page once it exists (before anything is loaded in it). */
  page(): Promise<Page>;
  /** Loads in the window wait until `release` is called. */
  holdLoads(): () => void;
}

export interface InProcessStandin {
  /** The running Chromium's DevTools endpoint (http://127.0.0.1:port). */
  readonly devtools: string;
  /** The window an app made with the stand-in's BrowserWindow, from the stand-in's side. */
  windowSide(window: Electron.BrowserWindow): WindowSide;
  /** The sender of the invoke whose handler is running, if one is. */
  currentSender(): Electron.WebContents | undefined;
  /** This user is done: Chromium stops with the last one. */
  release(): Promise<void>;
}

let configured: Promise<typeof StandinElectron> | undefined;
let users = 0;
let running: Promise<{ profileDir: string }> | undefined;
let stopped: Promise<void> = Promise.resolve();

/** Maps `electron`, and starts Chromium unless it runs already; `release` when done. */
export async function useStandinInProcess(options: InProcessOptions): Promise<InProcessStandin> {
  configured ??= (async () => {
    // Before the stand-in's modules load: the app object reads the app's package.json.
    configureRuntime({
      appPath: options.appPath,
      execPath: process.execPath,
      isPackaged: false,
      argv: [],
      headless: options.headless,
      switches: new Map(),
    });
    mapElectronToStandin();
    return import('./electron/index.ts');
  })();
  const electron = await configured;
  const { BrowserWindow } = await import('./electron/browser-window.ts');
  users += 1;
  await stopped;
  running ??= (async () => {
    const profileDir = mkdtempSync(join(tmpdir(), 'electron-standin-profile-'));
    await startChromium({
      profileDir,
      headless: options.headless,
      fileProtocolPrivileges: true,
      remoteDebuggingPort: options.devtoolsPort ?? 0,
    });
    electron.app.markReady();
    return { profileDir };
  })();
  await running;
  let released = false;
  return {
    devtools: devtoolsEndpoint()!.http,
    windowSide(window) {
      const side = BrowserWindow.fromId(window.id);
      if (!side) throw new Error("not a window of the stand-in's");
      return {
        page: async () => {
          await side.whenOpened();
          return side.webContents.page!;
        },
        holdLoads: () => side.webContents.holdLoads(),
      };
    },
    currentSender: () => electron.ipcMain.currentInvoke?.sender,
    async release() {
      if (released) return;
      released = true;
      users -= 1;
      if (users > 0) return;
      const wasRunning = running;
      running = undefined;
      stopped = (async () => {
        const { profileDir } = await wasRunning!;
        await stopChromium();
        // Chromium may still be writing its profile for a moment after it closed.
        rmSync(profileDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      })();
      await stopped;
    },
  };
}
