// Electron's `app` (docs/api/app.md): its name, version and paths, the single
// instance lock, and the lifecycle in Electron's order: `will-finish-launching`
// and `ready` once Chromium is up; `before-quit` (preventable), every window
// closed (a window's `close` may cancel the quit), `will-quit` (preventable),
// `quit`, then the exit. Without a `window-all-closed` listener the app quits
// when its last window closes; `app.quit()` itself never emits it.

import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { electronEvent } from './events.ts';
import { runtimeEvents, runtimeSettings } from './runtime.ts';
import { takeSingleInstanceLock, type SingleInstanceLock } from './single-instance.ts';

type PathName = Parameters<Electron.App['getPath']>[0];

interface AppPackage {
  readonly name?: string;
  readonly productName?: string;
  readonly version?: string;
}

function readAppPackage(appPath: string): AppPackage {
  try {
    return JSON.parse(readFileSync(join(appPath, 'package.json'), 'utf8')) as AppPackage;
  } catch {
    return {};
  }
}

/** What a window list must offer the app for quitting (browser-window.ts). */
export interface WindowsForQuit {
  all(): { close(): void; isDestroyed(): boolean }[];
  closeAllForExit(): Promise<void>;
}

export class StandinApp extends EventEmitter {
  readonly #paths = new Map<string, string>();
  #name: string;
  readonly #version: string;
  #ready = false;
  readonly #whenReady: Promise<void>;
  #resolveReady!: () => void;
  #lock: SingleInstanceLock | undefined;
  #hasLock = false;
  #quitting: 'no' | 'closing' | 'exiting' = 'no';
  readonly #beforeExit: Promise<void>[] = [];
  #windows: WindowsForQuit | undefined;
  #shutdown: (() => Promise<void>) | undefined;
  /** The app's id on Windows (setAppUserModelId); kept for tests to read. */
  appUserModelId: string | undefined;
  /** The process's command line and what the app appended to it (docs/api/command-line.md). */
  readonly commandLine = {
    appendSwitch: (name: string, value?: string) => void switches.set(name, value ?? ''),
    hasSwitch: (name: string) => switches.has(name) || runtimeSettings().switches.has(name),
    getSwitchValue: (name: string) =>
      switches.get(name) ?? runtimeSettings().switches.get(name) ?? '',
  };

  constructor() {
    super();
    const pkg = readAppPackage(runtimeSettings().appPath);
    this.#name = pkg.productName ?? pkg.name ?? 'Electron';
    this.#version = pkg.version ?? process.versions.electron ?? '0.0.0';
    this.#whenReady = new Promise((resolve) => (this.#resolveReady = resolve));
  }

  /** Packaged when the executable is not named electron (lib/browser/api/app.ts). */
  get isPackaged(): boolean {
    return runtimeSettings().isPackaged;
  }

  get name(): string {
    return this.#name;
  }

  set name(name: string) {
    this.#name = name;
  }

  getName(): string {
    return this.#name;
  }

  setName(name: string): void {
    this.#name = name;
  }

  getVersion(): string {
    return this.#version;
  }

  getAppPath(): string {
    return runtimeSettings().appPath;
  }

  /** On Linux the locale comes from the environment (LC_ALL, LANG), as Node's ICU reads it. */
  getLocale(): string {
    return Intl.DateTimeFormat().resolvedOptions().locale;
  }

  /**
   * The regional format (docs/api/app.md: "fetched using Chromium's i18n
   * library" on Linux, after ready), which the app formats dates and numbers
   * with: the same environment, so LANG=de_DE.UTF-8 gives "de-DE".
   */
  getSystemLocale(): string {
    if (!this.#ready)
      throw new Error('app.getSystemLocale() must be called after the ready event.');
    return this.getLocale();
  }

  /** Linux's defaults (electron_paths.h, chrome_paths_linux.cc): XDG_CONFIG_HOME for appData. */
  getPath(name: PathName): string {
    const set = this.#paths.get(name);
    if (set !== undefined) return set;
    const home = homedir();
    const appData = process.env.XDG_CONFIG_HOME || join(home, '.config');
    switch (name) {
      case 'home':
        return home;
      case 'appData':
        return appData;
      case 'userData': {
        // Chromium's --user-data-dir, as Electron reads it at start.
        const given = runtimeSettings().switches.get('user-data-dir');
        return given ? resolve(given) : join(this.getPath('appData'), this.#name);
      }
      case 'sessionData':
        return this.getPath('userData');
      case 'logs':
        this.setAppLogsPath();
        return this.#paths.get('logs')!;
      case 'crashDumps':
        return join(this.getPath('userData'), 'Crashpad');
      case 'temp':
        return tmpdir();
      case 'exe':
        return runtimeSettings().execPath;
      case 'module':
        return runtimeSettings().execPath;
      case 'assets':
        return join(runtimeSettings().execPath, '..', 'resources');
      case 'desktop':
      case 'documents':
      case 'downloads':
      case 'music':
      case 'pictures':
      case 'videos':
        return join(home, name[0]!.toUpperCase() + name.slice(1));
      case 'recent':
        throw new Error(`Failed to get 'recent' path`);
    }
    throw new Error(`Failed to get '${String(name)}' path`);
  }

  /** Only an absolute path (electron_api_app.cc's SetPath); the folder need not exist yet. */
  setPath(name: string, path: string): void {
    if (!isAbsolute(path)) throw new Error('Path must be absolute');
    this.#paths.set(name, path);
  }

  /** Inside userData on Linux and Windows (docs/api/app.md). */
  setAppLogsPath(path?: string): void {
    this.#paths.set('logs', path ?? join(this.getPath('userData'), 'logs'));
  }

  setAppUserModelId(id: string): void {
    this.appUserModelId = id;
  }

  isReady(): boolean {
    return this.#ready;
  }

  whenReady(): Promise<void> {
    return this.#whenReady;
  }

  focus(): void {
    runtimeEvents.emit('app-focus');
  }

  requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean {
    if (this.#hasLock) return true;
    const lock = takeSingleInstanceLock(
      this.getPath('userData'),
      (second) =>
        this.emit(
          'second-instance',
          electronEvent(),
          second.argv,
          second.workingDirectory,
          second.additionalData ?? {},
        ),
      {
        argv: [runtimeSettings().execPath, ...runtimeSettings().argv],
        workingDirectory: process.cwd(),
        additionalData: additionalData ?? {},
      },
      (work) => this.#beforeExit.push(work),
    );
    this.#lock = lock;
    this.#hasLock = lock !== undefined;
    return this.#hasLock;
  }

  hasSingleInstanceLock(): boolean {
    return this.#hasLock;
  }

  releaseSingleInstanceLock(): void {
    this.#lock?.release();
    this.#lock = undefined;
    this.#hasLock = false;
  }

  quit(): void {
    if (this.#quitting !== 'no') return;
    const event = electronEvent();
    this.emit('before-quit', event);
    if (event.defaultPrevented) return;
    this.#quitting = 'closing';
    const windows = this.#windows?.all().filter((w) => !w.isDestroyed()) ?? [];
    if (windows.length === 0) {
      this.#afterWindowsClosed();
      return;
    }
    for (const window of windows) window.close();
  }

  exit(exitCode = 0): void {
    if (this.#quitting === 'exiting') return;
    this.#quitting = 'exiting';
    void this.#exit(exitCode);
  }

  // ---- the stand-in's own side (not Electron API) ----

  /** Called by the launcher once Chromium is up. */
  markReady(launchInfo: Record<string, unknown> = {}): void {
    if (this.#ready) return;
    this.emit('will-finish-launching');
    this.#ready = true;
    this.emit('ready', electronEvent(), launchInfo);
    this.#resolveReady();
  }

  /** Whether a quit has begun (the launcher then does not start Chromium). */
  get quitting(): boolean {
    return this.#quitting !== 'no';
  }

  attachWindows(windows: WindowsForQuit, shutdown: () => Promise<void>): void {
    this.#windows = windows;
    this.#shutdown = shutdown;
  }

  /** A window was prevented from closing: a quit under way stops there (docs/api/app.md, before-quit). */
  windowCloseCancelled(): void {
    if (this.#quitting === 'closing') this.#quitting = 'no';
  }

  /** A window closed; after the last one, the quit goes on, or window-all-closed. */
  windowClosed(): void {
    const open = this.#windows?.all().filter((w) => !w.isDestroyed()) ?? [];
    if (open.length > 0) return;
    if (this.#quitting === 'closing') {
      this.#afterWindowsClosed();
      return;
    }
    if (this.#quitting !== 'no') return;
    if (this.listenerCount('window-all-closed') > 0) this.emit('window-all-closed');
    else this.quit();
  }

  #afterWindowsClosed(): void {
    const event = electronEvent();
    this.emit('will-quit', event);
    if (event.defaultPrevented) {
      this.#quitting = 'no';
      return;
    }
    this.emit('quit', electronEvent(), 0);
    this.exit(0);
  }

  async #exit(code: number): Promise<void> {
    runtimeEvents.emit('exiting', code);
    const bounded = (work: Promise<unknown>) =>
      Promise.race([work, new Promise((r) => setTimeout(r, 3_000).unref())]);
    await bounded(Promise.allSettled(this.#beforeExit));
    await bounded(this.#windows?.closeAllForExit() ?? Promise.resolve());
    await bounded(this.#shutdown?.() ?? Promise.resolve());
    this.releaseSingleInstanceLock();
    process.exit(code);
  }
}

const switches = new Map<string, string>();

export const app = new StandinApp();
