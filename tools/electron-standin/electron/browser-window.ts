// Electron's BrowserWindow (docs/api/browser-window.md) as a Chromium page:
// `web-contents-created` and `browser-window-created` as it is made,
// `ready-to-show` after the first load, `close` (preventable: a quit under way
// stops there), then `closed`; the last window closed lets the app decide
// (window-all-closed) or quit. Size, position and states (minimized,
// maximized, full screen, focus) are kept as Electron reports them; headless,
// the page's viewport takes the window's size. A window shown with a display
// opens at once (Chromium cannot hold a window hidden), so `show: false`
// only delays `show`.

import { EventEmitter } from 'node:events';
import { app } from './app.ts';
import { windowPage } from './chromium.ts';
import { electronEvent } from './events.ts';
import { runtimeEvents, runtimeSettings } from './runtime.ts';
import { StandinWebContents } from './web-contents.ts';

type Rect = { x: number; y: number; width: number; height: number };

const windows = new Set<BrowserWindow>();
/** Which window has focus, by id (a window is found from it in `windows`). */
let focusedId: number | undefined;
const focusedWindowOf = () => [...windows].find((w) => w.id === focusedId);
let nextId = 1;

export class BrowserWindow extends EventEmitter {
  readonly id = nextId++;
  readonly webContents: StandinWebContents;
  #bounds: Rect;
  #visible = false;
  #minimized = false;
  #maximized = false;
  #fullScreen: boolean;
  #destroyed = false;
  #title: string;
  #focusCount = 0;
  readonly #opened: Promise<void>;

  static getAllWindows(): BrowserWindow[] {
    return [...windows];
  }

  static getFocusedWindow(): BrowserWindow | null {
    return focusedWindowOf() ?? null;
  }

  static fromWebContents(contents: unknown): BrowserWindow | null {
    return [...windows].find((w) => w.webContents === contents) ?? null;
  }

  static fromId(id: number): BrowserWindow | null {
    return [...windows].find((w) => w.id === id) ?? null;
  }

  constructor(options: Electron.BrowserWindowConstructorOptions = {}) {
    super();
    if (!app.isReady()) throw new Error('Cannot create BrowserWindow before app is ready');
    const width = options.width ?? 800;
    const height = options.height ?? 600;
    // Electron centres a window given no position on the primary display (1920×1040 work area here).
    this.#bounds = {
      x: options.x ?? Math.round((1920 - width) / 2),
      y: options.y ?? Math.round((1040 - height) / 2),
      width,
      height,
    };
    this.#fullScreen = options.fullscreen === true;
    this.#title = options.title ?? app.getName();
    this.webContents = new StandinWebContents(options.webPreferences);
    this.webContents.owner = this;
    windows.add(this);
    app.emit('web-contents-created', electronEvent(), this.webContents);
    app.emit('browser-window-created', electronEvent(), this);
    this.#opened = this.#open(options.show !== false);
  }

  async #open(show: boolean): Promise<void> {
    const page = await windowPage();
    if (runtimeSettings().headless)
      await page.setViewportSize({ width: this.#bounds.width, height: this.#bounds.height });
    page.on('close', () => {
      // The person closed the window (a display's close button): too late to prevent.
      if (!this.#destroyed) {
        this.emit('close', electronEvent());
        this.#destroy();
      }
    });
    await this.webContents.attach(page);
    let shown = false;
    this.webContents.once('did-finish-load', () => {
      if (shown) return;
      shown = true;
      this.emit('ready-to-show');
    });
    if (show) this.show();
    runtimeEvents.emit('window-opened', this.id);
  }

  /** Resolves once the window's page exists (the stand-in's side). */
  whenOpened(): Promise<void> {
    return this.#opened;
  }

  loadURL(url: string): Promise<void> {
    return this.#opened.then(() => this.webContents.loadURL(url));
  }

  loadFile(
    filePath: string,
    options?: { query?: Record<string, string>; search?: string; hash?: string },
  ): Promise<void> {
    return this.#opened.then(() => this.webContents.loadFile(filePath, options));
  }

  show(): void {
    const wasVisible = this.#visible;
    this.#visible = true;
    this.#minimized = false;
    if (!wasVisible) this.emit('show');
    this.focus();
  }

  showInactive(): void {
    this.#visible = true;
  }

  hide(): void {
    if (!this.#visible) return;
    this.#visible = false;
    this.emit('hide');
  }

  isVisible(): boolean {
    return this.#visible && !this.#minimized;
  }

  focus(): void {
    if (this.#destroyed) return;
    const previous = focusedWindowOf();
    if (previous && previous.id !== this.id) previous.emit('blur');
    focusedId = this.id;
    this.#focusCount += 1;
    this.webContents.focus();
    this.emit('focus');
    runtimeEvents.emit('window-focused', this.id);
  }

  blur(): void {
    if (focusedId === this.id) focusedId = undefined;
    this.emit('blur');
  }

  isFocused(): boolean {
    return focusedId === this.id;
  }

  /** How often the window was focused (the stand-in's, for tests). */
  get focusCount(): number {
    return this.#focusCount;
  }

  minimize(): void {
    this.#minimized = true;
    this.emit('minimize');
  }

  restore(): void {
    if (!this.#minimized) return;
    this.#minimized = false;
    this.#visible = true;
    this.emit('restore');
  }

  isMinimized(): boolean {
    return this.#minimized;
  }

  maximize(): void {
    this.#maximized = true;
    this.#visible = true;
    this.emit('maximize');
  }

  unmaximize(): void {
    this.#maximized = false;
    this.emit('unmaximize');
  }

  isMaximized(): boolean {
    return this.#maximized;
  }

  setFullScreen(flag: boolean): void {
    this.#fullScreen = flag;
    this.emit(flag ? 'enter-full-screen' : 'leave-full-screen');
  }

  isFullScreen(): boolean {
    return this.#fullScreen;
  }

  getBounds(): Rect {
    return { ...this.#bounds };
  }

  getNormalBounds(): Rect {
    return { ...this.#bounds };
  }

  getContentBounds(): Rect {
    return { ...this.#bounds };
  }

  getSize(): number[] {
    return [this.#bounds.width, this.#bounds.height];
  }

  getContentSize(): number[] {
    return this.getSize();
  }

  setBounds(bounds: Partial<Rect>): void {
    this.#bounds = { ...this.#bounds, ...bounds };
    const page = this.webContents.page;
    if (page && runtimeSettings().headless)
      void page.setViewportSize({ width: this.#bounds.width, height: this.#bounds.height });
    this.emit('resize');
  }

  setSize(width: number, height: number): void {
    this.setBounds({ width, height });
  }

  setContentSize(width: number, height: number): void {
    this.setBounds({ width, height });
  }

  setTitle(title: string): void {
    this.#title = title;
  }

  getTitle(): string {
    return this.#title;
  }

  setMenuBarVisibility(): void {}
  setAutoHideMenuBar(): void {}
  removeMenu(): void {}
  flashFrame(): void {}

  /** Each value given to setProgressBar, in order (the stand-in's, for tests: the taskbar shows it). */
  readonly progressBar: number[] = [];

  setProgressBar(progress: number, _options?: Electron.ProgressBarOptions): void {
    this.progressBar.push(progress);
  }

  close(): void {
    if (this.#destroyed) return;
    const event = electronEvent();
    this.emit('close', event);
    if (event.defaultPrevented) {
      app.windowCloseCancelled();
      return;
    }
    this.#destroy();
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroy();
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  #destroy(): void {
    this.#destroyed = true;
    if (focusedId === this.id) focusedId = undefined;
    windows.delete(this);
    this.webContents.destroyed();
    void this.#opened.then(() => this.webContents.page?.close().catch(() => undefined));
    // 'closed' comes after the window is gone, as a task (Electron posts it).
    setImmediate(() => {
      this.emit('closed');
      runtimeEvents.emit('window-closed', this.id);
      app.windowClosed();
    });
  }
}

/** The windows as the app's quit sees them. */
export const windowList = {
  all: () => BrowserWindow.getAllWindows(),
  closeAllForExit: async () => {
    const open = BrowserWindow.getAllWindows();
    for (const window of open) window.destroy();
    await Promise.all(open.map((w) => w.whenOpened().catch(() => undefined)));
  },
};
