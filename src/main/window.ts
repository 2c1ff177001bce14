// The main window, set up along Electron's security checklist: isolated,
// sandboxed, no Node in the page, no pop-ups, no navigation away from the
// app, shown only once it has painted.

import { BrowserWindow, shell, type WebContents } from 'electron';
import { join } from 'node:path';

export interface AppPage {
  /** The dev server URL in development, otherwise the built file. */
  readonly devServerUrl?: string;
  readonly file: string;
}

export function isAppUrl(url: string | undefined, page: AppPage): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    if (page.devServerUrl) return parsed.origin === new URL(page.devServerUrl).origin;
    return (
      parsed.protocol === 'file:' &&
      decodeURIComponent(parsed.pathname).endsWith('/renderer/index.html')
    );
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

export function createMainWindow(page: AppPage, preloadDir: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
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
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  if (page.devServerUrl) void window.loadURL(page.devServerUrl);
  else void window.loadFile(page.file);
  return window;
}
