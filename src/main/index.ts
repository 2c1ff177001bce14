// App lifecycle: the thin Electron edge. Everything it wires together is
// plain Node (environments, keys, client, sandbox, and the desktop behaviour
// in ./desktop) and tested there.

import { app, BrowserWindow, crashReporter, dialog, Menu, screen, session, shell } from 'electron';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAppServices } from './app-services.ts';
import { APP_ID, DATA_FOLDER_NAME, PRODUCT_NAME } from './desktop/app-identity.ts';
import { startLocalCrashReports } from './desktop/crash-reports.ts';
import { createAppLog, logUncaught } from './desktop/log.ts';
import { buildAppMenu } from './desktop/menu.ts';
import { installQuitGuard, pendingCancels } from './desktop/quit-guard.ts';
import { reloadWhenRendererGone } from './desktop/renderer-recovery.ts';
import { startupFailureText } from './desktop/startup-failure.ts';
import { placeWindow, readWindowState, trackWindowState } from './desktop/window-state.ts';
import { createElectronSettings } from './environments/electron-settings.ts';
import { emitTo, registerIpc, streamOrdersTo } from './ipc/handle.ts';
import { createElectronKeyStore } from './keys/electron-key-store.ts';
import { confirmKeyForOriginInDialog } from './keys/electron-origin-dialog.ts';
import { createSandboxKey } from './sandbox/api-keys.ts';
import { startSandbox } from './sandbox/server.ts';
import {
  addContextMenu,
  contentSecurityPolicyOf,
  createMainWindow,
  enforceContentSecurityPolicy,
  isAppUrl,
  lockDown,
  openExternalSafely,
  WINDOW_SIZE,
  type AppPage,
} from './window.ts';

const page: AppPage = {
  ...(!app.isPackaged && process.env.ELECTRON_RENDERER_URL
    ? { devServerUrl: process.env.ELECTRON_RENDERER_URL }
    : {}),
  file: join(import.meta.dirname, '../renderer/index.html'),
};

// One data folder name in development and when installed (before anything reads a path).
app.setName(PRODUCT_NAME);
app.setPath('userData', join(app.getPath('appData'), DATA_FOLDER_NAME));
app.setAppLogsPath();
if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
startLocalCrashReports(crashReporter);

// The sandbox the app starts for itself accepts only this key, made fresh now.
const sandboxKey = createSandboxKey();
// The key store reads the OS's secret store, which is ready only once the app is.
let keys: ReturnType<typeof createElectronKeyStore> | undefined;
const log = createAppLog({
  dir: app.getPath('logs'),
  console: !app.isPackaged,
  secrets: () => [sandboxKey.key, ...(keys?.keysToScrub() ?? [])],
});
// Main's own console lines (IPC refusals, unexpected errors) go to the log file, scrubbed.
console.error = log.error;
console.warn = log.warn;
console.log = log.info;
logUncaught(log, process);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let mainWindow: BrowserWindow | undefined;

  app.on('second-instance', () => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });

  app.on('web-contents-created', (_event, contents) => {
    lockDown(contents, page);
    addContextMenu(contents);
  });

  const start = async (): Promise<void> => {
    log.info(
      `${PRODUCT_NAME} ${app.getVersion()} starting (Electron ${process.versions.electron})`,
    );
    // Everything is denied but writing to the clipboard (the Copy buttons), and only for the app's page.
    const allowed = (permission: string, url: string | undefined): boolean =>
      permission === 'clipboard-sanitized-write' && isAppUrl(url, page);
    session.defaultSession.setPermissionRequestHandler((contents, permission, callback, details) =>
      callback(allowed(permission, details.requestingUrl ?? contents.getURL())),
    );
    session.defaultSession.setPermissionCheckHandler((contents, permission, _origin, details) =>
      allowed(permission, details.requestingUrl ?? contents?.getURL()),
    );
    // The built page's policy goes out as a header too; the dev server's page has no built file.
    if (!page.devServerUrl) {
      const policy = contentSecurityPolicyOf(readFileSync(page.file, 'utf8'));
      if (policy) enforceContentSecurityPolicy(session.defaultSession, page, policy);
    }

    keys = createElectronKeyStore();
    // The saved keys are decrypted once, before anything asks for them.
    await keys.ready();
    const services = createAppServices({
      dataDir: join(app.getPath('userData'), 'local-data'),
      settings: createElectronSettings(),
      keys,
      confirmKeyForOrigin: confirmKeyForOriginInDialog(() => mainWindow),
      openExternal: openExternalSafely,
      // The desktop's regional format (after ready): dates, times and numbers follow it.
      locale: app.getSystemLocale(),
      startSandbox: async () => {
        const sandbox = await startSandbox({ port: 0, keys: [sandboxKey] });
        return { baseUrl: sandbox.baseUrl, key: sandboxKey.key, close: () => sandbox.close() };
      },
    });
    const emit = emitTo(() => mainWindow?.webContents);
    registerIpc(
      services.handlers(
        emit,
        streamOrdersTo(() => mainWindow?.webContents),
      ),
      (event) => event.sender === mainWindow?.webContents && isAppUrl(event.senderFrame?.url, page),
    );

    // Bulk cancels that were running when the app last quit carry on.
    void services.resumeWork();

    const showAbout = (): void =>
      void dialog.showMessageBox({
        type: 'info',
        title: `About ${PRODUCT_NAME}`,
        message: `${PRODUCT_NAME} ${app.getVersion()}`,
        detail: `Electron ${process.versions.electron}, Chromium ${process.versions.chrome}, Node ${process.versions.node}`,
      });
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        buildAppMenu({
          platform: process.platform,
          isPackaged: app.isPackaged,
          openLogsFolder: () => void shell.openPath(app.getPath('logs')),
          showAbout,
        }),
      ),
    );

    const windowStateFile = join(app.getPath('userData'), 'window-state.json');
    const open = (): void => {
      const placement = placeWindow(
        readWindowState(windowStateFile),
        [screen.getPrimaryDisplay(), ...screen.getAllDisplays()].map((d) => d.workArea),
        WINDOW_SIZE,
      );
      const window = createMainWindow(page, join(import.meta.dirname, '../preload'), placement);
      mainWindow = window;
      trackWindowState(window, windowStateFile);
      reloadWhenRendererGone(window.webContents, {
        log,
        now: Date.now,
        notify: (message, detail) =>
          void dialog.showMessageBox(window, { type: 'warning', message, detail }),
      });
      window.on('closed', () => (mainWindow = undefined));
    };
    open();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) open();
    });

    installQuitGuard({
      app,
      pendingCancels: () => pendingCancels(services.currentBulkCancels()),
      confirmQuit: async (question) => {
        const options = {
          type: 'question' as const,
          message: question.message,
          detail: question.detail,
          buttons: [question.quitLabel, question.stayLabel],
          defaultId: 1,
          cancelId: 1,
        };
        const { response } = mainWindow
          ? await dialog.showMessageBox(mainWindow, options)
          : await dialog.showMessageBox(options);
        return response === 0;
      },
      close: () => services.close(),
      onCloseError: (error) => log.error('Closing the services failed:', error),
      onQuitCancelled: () => {
        if (BrowserWindow.getAllWindows().length === 0) open();
      },
    });
  };

  // What fails before the window is up (an unreadable page, an unreadable key file) is said
  // once, and the app goes: no window-less process keeps the single-instance lock.
  void app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      log.error('Store Admin could not start:', error);
      dialog.showErrorBox(
        `${PRODUCT_NAME} could not start`,
        `${startupFailureText(error)}\n\nThe log file is in ${app.getPath('logs')}.`,
      );
      app.exit(1);
    });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
