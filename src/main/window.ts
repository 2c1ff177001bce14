// The main window, set up along Electron's security checklist: isolated,
// sandboxed, no Node in the page, no pop-ups, no navigation away from the
// app, shown only once it has painted.

import { BrowserWindow, Menu, shell, type Session, type WebContents } from 'electron';
import { join, posix, win32 } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildContextMenu } from './desktop/menu.ts';
import type { Placement } from './desktop/window-state.ts';

export interface AppPage {
  /** The dev server URL in development, otherwise the built file. */
  readonly devServerUrl?: string;
  readonly file: string;
}

/** The exact file URL of the built page, as loadFile makes it. */
function appFileUrl(file: string, platform: NodeJS.Platform): URL {
  const windows = platform === 'win32';
  return pathToFileURL((windows ? win32 : posix).resolve(file), { windows });
}

/**
 * Whether `url` is the app's own page: the dev server's exact origin in
 * development, otherwise exactly the built index.html's file URL. Not any
 * file named like it: a copy elsewhere, on a network share, with a query, or
 * spelled with percent escapes is someone else's page. The fragment is left
 * out (it names a place in the same document, never another file); case
 * counts where file systems are case-sensitive (not on Windows or macOS).
 */
export function isAppUrl(
  url: string | undefined,
  page: AppPage,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    if (page.devServerUrl !== undefined) {
      return (
        (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
        parsed.origin === new URL(page.devServerUrl).origin
      );
    }
    if (parsed.protocol !== 'file:') return false;
    parsed.hash = '';
    const own = appFileUrl(page.file, platform).href;
    const foldsCase = platform === 'win32' || platform === 'darwin';
    return foldsCase ? parsed.href.toLowerCase() === own.toLowerCase() : parsed.href === own;
  } catch {
    return false;
  }
}

/** Only well-formed https links to other sites are opened, in the user's browser. */
export function openExternalSafely(url: string): void {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:' && !parsed.username && !parsed.password)
      void shell.openExternal(parsed.href);
  } catch {
    // not a URL: ignore
  }
}

/** Applied to every web contents the app creates. */
export function lockDown(contents: WebContents, page: AppPage): void {
  // Every new window is denied, whatever asked for it: window.open, a target=_blank
  // link, or a middle-click (auxclick) or Shift/Ctrl-click on a link. A well-formed
  // https link opens in the user's browser instead.
  contents.setWindowOpenHandler(({ url }) => {
    openExternalSafely(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, page)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, page)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Cut, Copy and Paste on a right-click in text fields (see buildContextMenu). */
export function addContextMenu(contents: WebContents): void {
  contents.on('context-menu', (_event, params) => {
    const template = buildContextMenu(params);
    if (template.length > 0) Menu.buildFromTemplate(template).popup();
  });
}

/** The policy the page's own CSP meta tag declares (the built index.html is the one source). */
export function contentSecurityPolicyOf(html: string): string | undefined {
  const meta = /<meta\s[^>]*http-equiv=["']Content-Security-Policy["'][^>]*>/i.exec(html)?.[0];
  return meta ? /\scontent=(["'])(.*?)\1/is.exec(meta)?.[2]?.trim() : undefined;
}

/**
 * Sends the page's policy as a header too, for every response to the app's
 * page, so it holds even before the meta tag is parsed. Not in development:
 * the dev server's hot reload needs more than the shipped policy allows.
 */
export function enforceContentSecurityPolicy(
  session: Session,
  page: AppPage,
  policy: string,
): void {
  if (page.devServerUrl) return;
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!isAppUrl(details.url, page)) {
      callback({});
      return;
    }
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] },
    });
  });
}

/**
 * The first window's size, and the smallest the layout works at: from 1100 px
 * wide the header holds on one line and no column of the grid is cut off.
 */
export const WINDOW_SIZE = { width: 1280, height: 820, minWidth: 1100, minHeight: 600 } as const;

export function createMainWindow(
  page: AppPage,
  preloadDir: string,
  placement: Placement = {
    bounds: { width: WINDOW_SIZE.width, height: WINDOW_SIZE.height },
    maximized: false,
    fullScreen: false,
  },
): BrowserWindow {
  const window = new BrowserWindow({
    ...placement.bounds,
    minWidth: WINDOW_SIZE.minWidth,
    minHeight: WINDOW_SIZE.minHeight,
    fullscreen: placement.fullScreen,
    show: false,
    title: 'Store Admin',
    backgroundColor: '#f7f7f5',
    webPreferences: {
      preload: join(preloadDir, 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      // No auxclick events in the page: a middle-click does nothing but what
      // the window-open handler allows (see lockDown).
      disableBlinkFeatures: 'Auxclick',
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => {
    // Maximizing shows the window, so it waits for the first paint too.
    if (placement.maximized) window.maximize();
    window.show();
  });
  if (page.devServerUrl) void window.loadURL(page.devServerUrl);
  else void window.loadFile(page.file);
  return window;
}
