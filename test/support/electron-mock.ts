// The one mock of the `electron` module (the only module this project mocks).
// Importing the real package in plain Node tries to download the Electron
// binary, so every test that reaches code importing `electron` mocks it here.
//
// Usage, when the test needs no handle on the mock:
//
//   vi.mock('electron', async () => {
//     const { createElectronMock } = await import('../../support/electron-mock.ts');
//     return createElectronMock({ safeStorage: 'gnome_libsecret' });
//   });
//
// Usage, when the test drives the mock (switch the backend, invoke a handler):
//
//   const electron = await vi.hoisted(async () => {
//     const { createElectronMock } = await import('../../support/electron-mock.ts');
//     return createElectronMock({ safeStorage: 'basic_text' });
//   });
//   vi.mock('electron', () => electron);
//   ...
//   electron.safeStorage.setBackend('unavailable');
//   await electron.ipcMain.invoke('orders:list', electron.ipcEvent(), { page: 1 });
//
// Code that only needs a fake safeStorage (injected, no module mock) can take
// `createElectronMock(...).safeStorage` or `new FakeSafeStorage(...)`.
//
// One model of Electron: safeStorage, app (lifecycle, paths), ipcMain and
// MessageChannelMain here are the Electron stand-in's own (tools/electron-standin),
// which the end-to-end tests run the real app in, so no unit test can pass
// against behaviour the stand-in contradicts. What stays here is what only a
// unit test needs: windows without a Chromium, recorded menus and dialogs.
//
// Limit: `vi.mock` reaches only modules Vitest transforms (src/ and test/).
// Packages in node_modules, such as electron-store, are loaded by Node itself
// and import the real `electron`; see `keepElectronFromDownloading`.

import os from 'node:os';
import path from 'node:path';
import { vi } from 'vitest';
import { StandinApp } from '../../tools/electron-standin/electron/app.ts';
import { StandinIpcMain } from '../../tools/electron-standin/electron/ipc-main.ts';
import {
  StandinNetwork,
  StandinPowerMonitor,
} from '../../tools/electron-standin/electron/power-monitor.ts';
import {
  MessageChannelMain,
  MessagePortMain,
} from '../../tools/electron-standin/electron/message-channel-main.ts';
import {
  memorySecretStore,
  platformForBackend,
  SafeStorageModel,
  type StorageBackend,
} from '../../tools/electron-standin/model/safe-storage.ts';

export { platformForBackend };

/** Which secret store the fake safeStorage behaves as (the stand-in's backends). */
export type FakeStorageBackend = StorageBackend;

/** One keyring for every fake in a test file: the same machine, so what one encrypts another reads. */
const testMachineSecrets = memorySecretStore();

/**
 * Electron's safeStorage as the stand-in models it (tools/electron-standin/model/safe-storage.ts):
 * Chromium's ciphertext formats per backend, Linux basic_text unavailable to the synchronous
 * check until setUsePlainTextEncryption(true), the app ready unless a test says otherwise.
 */
export class FakeSafeStorage extends SafeStorageModel {
  #ready = true;

  constructor(backend: FakeStorageBackend = 'keychain') {
    super({ backend, isReady: () => this.#ready, secrets: testMachineSecrets });
  }

  /** As before Electron's `ready`: nothing encrypts, the backend is "unknown". */
  setReady(ready: boolean): void {
    this.#ready = ready;
  }
}

type Listener = (...args: never[]) => unknown;

/** A minimal EventEmitter-like recorder shared by the fakes below. */
class Listeners {
  readonly #byEvent = new Map<string, Listener[]>();

  add(event: string, listener: Listener, once = false): void {
    const wrapped: Listener = once
      ? (...args) => {
          this.remove(event, wrapped);
          return (listener as (...a: unknown[]) => unknown)(...(args as unknown[]));
        }
      : listener;
    this.#byEvent.set(event, [...(this.#byEvent.get(event) ?? []), wrapped]);
  }

  remove(event: string, listener: Listener): void {
    this.#byEvent.set(
      event,
      (this.#byEvent.get(event) ?? []).filter((l) => l !== listener),
    );
  }

  removeAll(event?: string): void {
    if (event === undefined) this.#byEvent.clear();
    else this.#byEvent.delete(event);
  }

  count(event: string): number {
    return this.#byEvent.get(event)?.length ?? 0;
  }

  emit(event: string, args: unknown[]): boolean {
    const listeners = this.#byEvent.get(event) ?? [];
    for (const listener of [...listeners]) (listener as (...a: unknown[]) => unknown)(...args);
    return listeners.length > 0;
  }
}

export const FakeMessageChannelMain = MessageChannelMain;

export class FakeWebContents {
  static #nextId = 1;
  readonly id = FakeWebContents.#nextId++;
  readonly #listeners = new Listeners();
  #url = '';
  /** Messages pushed to the renderer with `send`. */
  readonly sent: { channel: string; args: unknown[] }[] = [];
  /** Messages pushed to the renderer with `postMessage`, with the ports they carry. */
  readonly posted: { channel: string; message: unknown; ports: MessagePortMain[] }[] = [];
  windowOpenHandler: ((details: { url: string }) => unknown) | undefined;

  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }

  postMessage(channel: string, message: unknown, transfer: readonly unknown[] = []): void {
    for (const [index, item] of transfer.entries()) {
      if (!(item instanceof MessagePortMain))
        throw new TypeError(`Port at index ${index} is not a valid port`);
    }
    this.posted.push({
      channel,
      message: structuredClone(message),
      ports: [...transfer] as MessagePortMain[],
    });
  }

  setWindowOpenHandler(handler: (details: { url: string }) => unknown): void {
    this.windowOpenHandler = handler;
  }

  on(event: string, listener: Listener): this {
    this.#listeners.add(event, listener);
    return this;
  }

  once(event: string, listener: Listener): this {
    this.#listeners.add(event, listener, true);
    return this;
  }

  removeListener(event: string, listener: Listener): this {
    this.#listeners.remove(event, listener);
    return this;
  }

  /** Test helper: fires an event ('will-navigate', 'did-finish-load', ...). */
  emit(event: string, ...args: unknown[]): boolean {
    return this.#listeners.emit(event, args);
  }

  listenerCount(event: string): number {
    return this.#listeners.count(event);
  }

  getURL(): string {
    return this.#url;
  }

  async loadURL(url: string): Promise<void> {
    this.#url = url;
  }

  /** How often `reload` ran. */
  reloads = 0;

  reload(): void {
    this.reloads += 1;
  }

  isDestroyed(): boolean {
    return false;
  }
}

/** What a handler sees as its event: the sender and the frame's URL. */
export interface FakeIpcEvent {
  readonly sender: FakeWebContents;
  readonly senderFrame: { readonly url: string };
  returnValue?: unknown;
}

/** The stand-in's ipcMain, with what a unit test does in a renderer's place. */
export class FakeIpcMain extends StandinIpcMain {
  /** Test helper: calls the handler as `ipcRenderer.invoke` would, rejecting like Electron when none is registered. */
  async invoke(channel: string, event: FakeIpcEvent, ...args: unknown[]): Promise<unknown> {
    return this.invokeFromRenderer(channel, event as never, args);
  }
}

export class FakeIpcRenderer {
  readonly #ipcMain: FakeIpcMain;
  readonly #event: () => FakeIpcEvent;
  readonly #listeners = new Listeners();
  /** Every `invoke` and `send`, in order. */
  readonly calls: { method: 'invoke' | 'send'; channel: string; args: unknown[] }[] = [];

  constructor(ipcMain: FakeIpcMain, event: () => FakeIpcEvent) {
    this.#ipcMain = ipcMain;
    this.#event = event;
  }

  /** Records the call and routes it to the handler registered on the mock's ipcMain. */
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.calls.push({ method: 'invoke', channel, args });
    return this.#ipcMain.invoke(channel, this.#event(), ...args);
  }

  send(channel: string, ...args: unknown[]): void {
    this.calls.push({ method: 'send', channel, args });
    this.#ipcMain.emit(channel, this.#event(), ...args);
  }

  on(channel: string, listener: Listener): this {
    this.#listeners.add(channel, listener);
    return this;
  }

  once(channel: string, listener: Listener): this {
    this.#listeners.add(channel, listener, true);
    return this;
  }

  removeListener(channel: string, listener: Listener): this {
    this.#listeners.remove(channel, listener);
    return this;
  }

  off(channel: string, listener: Listener): this {
    return this.removeListener(channel, listener);
  }

  listenerCount(channel: string): number {
    return this.#listeners.count(channel);
  }

  /** Test helper: a push from main (`webContents.send`) arriving in the renderer. */
  emit(channel: string, ...args: unknown[]): boolean {
    return this.#listeners.emit(channel, [{ sender: this, ports: [] }, ...args]);
  }

  /** Test helper: a `webContents.postMessage` from main arriving, with the ports it transferred. */
  emitWithPorts(channel: string, ports: readonly unknown[], message: unknown): boolean {
    return this.#listeners.emit(channel, [{ sender: this, ports: [...ports] }, message]);
  }
}

/**
 * The stand-in's app (lifecycle in Electron's order, paths, names), ready at
 * once, with a user-data folder of the test's; exiting is recorded instead of
 * ending the test's process, and the single-instance lock answers as told.
 */
export class FakeApp extends StandinApp {
  readonly #version: string;
  readonly #packaged: boolean;
  readonly calls = { quit: 0, exit: [] as number[] };
  /** What requestSingleInstanceLock answers (a second instance: false). */
  singleInstanceLock = true;

  constructor(options: { userDataPath: string; version: string; isPackaged: boolean }) {
    super();
    this.#version = options.version;
    this.#packaged = options.isPackaged;
    this.setName('Store Admin');
    this.setPath('userData', options.userDataPath);
    this.markReady();
  }

  override get isPackaged(): boolean {
    return this.#packaged;
  }

  override getVersion(): string {
    return this.#version;
  }

  override requestSingleInstanceLock(): boolean {
    return this.singleInstanceLock;
  }

  override quit(): void {
    this.calls.quit += 1;
    super.quit();
  }

  override exit(exitCode = 0): void {
    this.calls.exit.push(exitCode);
  }

  /** Test helper: fires an app event ('window-all-closed', 'web-contents-created', ...). */
  override emit(event: string, ...args: unknown[]): boolean {
    return super.emit(event, ...args);
  }
}

export interface FakeBrowserWindow {
  readonly options: Record<string, unknown>;
  readonly webContents: FakeWebContents;
  /** 'file:…' or the URL given to loadFile / loadURL, last one wins. */
  readonly loaded: string | undefined;
  readonly visible: boolean;
  loadURL(url: string): Promise<void>;
  loadFile(
    filePath: string,
    options?: { query?: Record<string, string>; hash?: string },
  ): Promise<void>;
  show(): void;
  hide(): void;
  focus(): void;
  close(): void;
  isVisible(): boolean;
  isDestroyed(): boolean;
  /** The bounds given at construction (or set since); `getNormalBounds` returns them. */
  bounds: { x: number; y: number; width: number; height: number };
  maximized: boolean;
  fullScreen: boolean;
  getNormalBounds(): { x: number; y: number; width: number; height: number };
  setBounds(bounds: Partial<{ x: number; y: number; width: number; height: number }>): void;
  maximize(): void;
  isMaximized(): boolean;
  setFullScreen(fullScreen: boolean): void;
  isFullScreen(): boolean;
  on(event: string, listener: Listener): FakeBrowserWindow;
  once(event: string, listener: Listener): FakeBrowserWindow;
  /** Test helper: fires a window event ('ready-to-show', 'closed', ...). */
  emit(event: string, ...args: unknown[]): boolean;
}

export interface FakeBrowserWindowClass {
  new (options?: Record<string, unknown>): FakeBrowserWindow;
  getAllWindows(): FakeBrowserWindow[];
  fromWebContents(webContents: FakeWebContents): FakeBrowserWindow | null;
}

function createBrowserWindowClass(): FakeBrowserWindowClass {
  const windows: FakeBrowserWindow[] = [];

  return class BrowserWindow implements FakeBrowserWindow {
    readonly options: Record<string, unknown>;
    readonly webContents = new FakeWebContents();
    readonly #listeners = new Listeners();
    loaded: string | undefined;
    visible: boolean;
    #destroyed = false;

    bounds: { x: number; y: number; width: number; height: number };
    maximized = false;
    fullScreen: boolean;

    constructor(options: Record<string, unknown> = {}) {
      this.options = options;
      this.visible = options['show'] !== false;
      const size = (key: string, fallback: number): number =>
        typeof options[key] === 'number' ? options[key] : fallback;
      // Electron centres a window given no position; the fake puts it at 0,0.
      this.bounds = {
        x: size('x', 0),
        y: size('y', 0),
        width: size('width', 800),
        height: size('height', 600),
      };
      this.fullScreen = options['fullscreen'] === true;
      windows.push(this);
    }

    getNormalBounds(): { x: number; y: number; width: number; height: number } {
      return { ...this.bounds };
    }

    setBounds(bounds: Partial<{ x: number; y: number; width: number; height: number }>): void {
      this.bounds = { ...this.bounds, ...bounds };
    }

    maximize(): void {
      this.maximized = true;
      this.visible = true; // as Electron: maximizing shows the window
    }

    isMaximized(): boolean {
      return this.maximized;
    }

    setFullScreen(fullScreen: boolean): void {
      this.fullScreen = fullScreen;
    }

    isFullScreen(): boolean {
      return this.fullScreen;
    }

    static getAllWindows(): FakeBrowserWindow[] {
      return windows.filter((w) => !w.isDestroyed());
    }

    static fromWebContents(webContents: FakeWebContents): FakeBrowserWindow | null {
      return windows.find((w) => w.webContents === webContents) ?? null;
    }

    async loadURL(url: string): Promise<void> {
      this.loaded = url;
      await this.webContents.loadURL(url);
    }

    async loadFile(filePath: string): Promise<void> {
      await this.loadURL(`file://${path.resolve(filePath)}`);
    }

    show(): void {
      this.visible = true;
    }

    hide(): void {
      this.visible = false;
    }

    focus(): void {}

    /** As Electron: 'close' first (listeners may save state), then 'closed'. */
    close(): void {
      this.emit('close', { preventDefault: () => undefined });
      this.#destroyed = true;
      this.emit('closed');
    }

    isVisible(): boolean {
      return this.visible;
    }

    isDestroyed(): boolean {
      return this.#destroyed;
    }

    on(event: string, listener: Listener): this {
      this.#listeners.add(event, listener);
      return this;
    }

    once(event: string, listener: Listener): this {
      this.#listeners.add(event, listener, true);
      return this;
    }

    emit(event: string, ...args: unknown[]): boolean {
      return this.#listeners.emit(event, args);
    }
  };
}

type PermissionRequestHandler = (
  webContents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details?: unknown,
) => void;

export interface FakeSession {
  permissionRequestHandler: PermissionRequestHandler | null | undefined;
  permissionCheckHandler: ((...args: unknown[]) => boolean) | null | undefined;
  headersReceivedListener:
    ((details: unknown, callback: (response: unknown) => void) => void) | undefined;
  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void;
  setPermissionCheckHandler(handler: ((...args: unknown[]) => boolean) | null): void;
  webRequest: {
    onHeadersReceived(
      listener: (details: unknown, callback: (response: unknown) => void) => void,
    ): void;
  };
}

function createSession(): FakeSession {
  const session: FakeSession = {
    permissionRequestHandler: undefined,
    permissionCheckHandler: undefined,
    headersReceivedListener: undefined,
    setPermissionRequestHandler(handler) {
      session.permissionRequestHandler = handler;
    },
    setPermissionCheckHandler(handler) {
      session.permissionCheckHandler = handler;
    },
    webRequest: {
      onHeadersReceived(listener) {
        session.headersReceivedListener = listener;
      },
    },
  };
  return session;
}

export interface FakeShell {
  readonly calls: { method: 'openExternal' | 'openPath' | 'showItemInFolder'; target: string }[];
  openExternal(url: string, options?: unknown): Promise<void>;
  openPath(filePath: string): Promise<string>;
  showItemInFolder(filePath: string): void;
}

function createShell(): FakeShell {
  const calls: FakeShell['calls'] = [];
  return {
    calls,
    async openExternal(url) {
      calls.push({ method: 'openExternal', target: url });
    },
    async openPath(filePath) {
      calls.push({ method: 'openPath', target: filePath });
      return '';
    },
    showItemInFolder(filePath) {
      calls.push({ method: 'showItemInFolder', target: filePath });
    },
  };
}

/** A built menu: its template, and how often it popped up. */
export interface FakeMenu {
  readonly template: readonly Record<string, unknown>[];
  popups: number;
  popup(options?: unknown): void;
}

export interface FakeMenuModule {
  /** The menu last given to setApplicationMenu. */
  applicationMenu: FakeMenu | null | undefined;
  /** Every menu built, in order. */
  readonly built: FakeMenu[];
  buildFromTemplate(template: readonly Record<string, unknown>[]): FakeMenu;
  setApplicationMenu(menu: FakeMenu | null): void;
}

function createMenuModule(): FakeMenuModule {
  const module: FakeMenuModule = {
    applicationMenu: undefined,
    built: [],
    buildFromTemplate(template) {
      const menu: FakeMenu = {
        template,
        popups: 0,
        popup() {
          menu.popups += 1;
        },
      };
      module.built.push(menu);
      return menu;
    },
    setApplicationMenu(menu) {
      module.applicationMenu = menu;
    },
  };
  return module;
}

export interface FakeDialog {
  /** Every message box shown: the parent window (if any) and the options. */
  readonly shown: { parent: unknown; options: Record<string, unknown> }[];
  /** The button index the next message boxes answer with (0 until set). */
  answerWith(response: number): void;
  showMessageBox(
    parentOrOptions: unknown,
    options?: Record<string, unknown>,
  ): Promise<{ response: number; checkboxChecked: boolean }>;
}

function createDialog(): FakeDialog {
  const shown: FakeDialog['shown'] = [];
  let response = 0;
  return {
    shown,
    answerWith(next) {
      response = next;
    },
    async showMessageBox(parentOrOptions, options) {
      // Electron's two forms: (window, options) and (options).
      if (options === undefined)
        shown.push({ parent: undefined, options: parentOrOptions as Record<string, unknown> });
      else shown.push({ parent: parentOrOptions, options });
      return { response, checkboxChecked: false };
    },
  };
}

export interface FakeDisplay {
  readonly id: number;
  readonly bounds: { x: number; y: number; width: number; height: number };
  readonly workArea: { x: number; y: number; width: number; height: number };
}

export interface FakeScreen {
  /** The displays, primary first; tests replace them. */
  displays: FakeDisplay[];
  getAllDisplays(): FakeDisplay[];
  getPrimaryDisplay(): FakeDisplay;
}

function createScreen(): FakeScreen {
  const fullHd = { x: 0, y: 0, width: 1920, height: 1080 };
  const screen: FakeScreen = {
    displays: [{ id: 1, bounds: fullHd, workArea: { ...fullHd, height: 1040 } }],
    getAllDisplays: () => [...screen.displays],
    getPrimaryDisplay: () => {
      const primary = screen.displays[0];
      if (!primary) throw new Error('the fake screen has no display');
      return primary;
    },
  };
  return screen;
}

export interface FakeCrashReporter {
  /** The options of every start call. */
  readonly starts: Record<string, unknown>[];
  start(options: Record<string, unknown>): void;
}

export interface FakeContextBridge {
  /** What the preload exposed, by key. */
  readonly exposed: Record<string, unknown>;
  exposeInMainWorld(key: string, api: unknown): void;
}

export interface ElectronMockOptions {
  /** Backend of the fake safeStorage; 'keychain' (macOS) by default. */
  readonly safeStorage?: FakeStorageBackend;
  /** app.getPath('userData'); a path under the OS temp dir by default (not created). */
  readonly userDataPath?: string;
  readonly version?: string;
  readonly isPackaged?: boolean;
  /** The URL `ipcEvent()` reports as the sender frame's. */
  readonly rendererUrl?: string;
}

export interface ElectronMockModule {
  readonly app: FakeApp;
  readonly safeStorage: FakeSafeStorage;
  readonly ipcMain: FakeIpcMain;
  readonly ipcRenderer: FakeIpcRenderer;
  readonly contextBridge: FakeContextBridge;
  readonly BrowserWindow: FakeBrowserWindowClass;
  readonly shell: FakeShell;
  readonly dialog: FakeDialog;
  readonly session: { readonly defaultSession: FakeSession };
  readonly Menu: FakeMenuModule;
  readonly screen: FakeScreen;
  readonly crashReporter: FakeCrashReporter;
  readonly MessageChannelMain: typeof MessageChannelMain;
  /** The stand-in's model: a test makes the desktop sleep and wake with `powerMonitor.happen('resume')`. */
  readonly powerMonitor: StandinPowerMonitor;
  /** Of net, whether there is a network (the stand-in's model; a test sets it with `network.set`). */
  readonly net: { isOnline(): boolean; readonly online: boolean };
  /** Not part of Electron: the network `net` reports. */
  readonly network: StandinNetwork;
  /**
   * Not part of Electron: builds the event a handler receives. By default the
   * sender is the first window's webContents (or a detached one) and the frame
   * URL is `rendererUrl`.
   */
  ipcEvent(overrides?: { sender?: FakeWebContents; url?: string }): FakeIpcEvent;
}

/** The module shape `vi.mock('electron', ...)` needs: named exports plus `default`. */
export type ElectronMock = ElectronMockModule & { readonly default: ElectronMockModule };

export function createElectronMock(options: ElectronMockOptions = {}): ElectronMock {
  const rendererUrl = options.rendererUrl ?? 'file:///app/out/renderer/index.html';
  const BrowserWindow = createBrowserWindowClass();
  const detachedWebContents = new FakeWebContents();
  const ipcEvent = (overrides: { sender?: FakeWebContents; url?: string } = {}): FakeIpcEvent => ({
    sender:
      overrides.sender ?? BrowserWindow.getAllWindows()[0]?.webContents ?? detachedWebContents,
    senderFrame: { url: overrides.url ?? rendererUrl },
  });
  const ipcMain = new FakeIpcMain();
  const exposed: Record<string, unknown> = {};
  const network = new StandinNetwork();

  const module: ElectronMockModule = {
    app: new FakeApp({
      userDataPath: options.userDataPath ?? path.join(os.tmpdir(), 'store-admin-test-user-data'),
      version: options.version ?? '0.1.0',
      isPackaged: options.isPackaged ?? false,
    }),
    safeStorage: new FakeSafeStorage(options.safeStorage ?? 'keychain'),
    ipcMain,
    ipcRenderer: new FakeIpcRenderer(ipcMain, () => ipcEvent()),
    contextBridge: {
      exposed,
      exposeInMainWorld(key, api) {
        exposed[key] = api;
      },
    },
    BrowserWindow,
    shell: createShell(),
    dialog: createDialog(),
    session: { defaultSession: createSession() },
    Menu: createMenuModule(),
    screen: createScreen(),
    crashReporter: {
      starts: [],
      start(options) {
        this.starts.push(options);
      },
    },
    MessageChannelMain: FakeMessageChannelMain,
    powerMonitor: new StandinPowerMonitor(),
    net: {
      isOnline: () => network.online,
      get online() {
        return network.online;
      },
    },
    network,
    ipcEvent,
  };
  return { ...module, default: module };
}

/**
 * `vi.mock('electron')` does not reach packages Node loads itself (electron-store
 * imports `electron` from node_modules). The real package's entry point would
 * then try to download the Electron binary; with ELECTRON_OVERRIDE_DIST_PATH
 * set it only returns a path string, so such a package sees an `electron`
 * without `app` (electron-store then needs an absolute `cwd`). Call before
 * the first import of such a package, and `vi.unstubAllEnvs()` afterwards.
 */
export function keepElectronFromDownloading(): void {
  vi.stubEnv(
    'ELECTRON_OVERRIDE_DIST_PATH',
    path.join(os.tmpdir(), 'store-admin-no-electron-binary'),
  );
}

/**
 * Whether `plaintext` appears in `text` as is or inside any base64 run in it
 * (decoded), so "the key never reaches the file" also catches a key that was
 * merely base64-encoded instead of encrypted.
 */
export function containsPlaintext(text: string, plaintext: string): boolean {
  if (text.includes(plaintext)) return true;
  for (const run of text.match(/[A-Za-z0-9+/]{8,}={0,2}/g) ?? []) {
    if (Buffer.from(run, 'base64').toString('latin1').includes(plaintext)) return true;
  }
  return false;
}
