// App lifecycle: the thin Electron edge. Everything it wires together is
// plain Node (environments, keys, client, sandbox, and the desktop behaviour
// in ./desktop) and tested there.

import {
  app,
  BrowserWindow,
  crashReporter,
  dialog,
  Menu,
  net,
  Notification,
  powerMonitor,
  screen,
  session,
  shell,
} from 'electron';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAppServices } from './app-services.ts';
import { aboutBox } from './desktop/about.ts';
import { APP_ID, DATA_FOLDER_NAME, PRODUCT_NAME } from './desktop/app-identity.ts';
import { startLocalCrashReports } from './desktop/crash-reports.ts';
import { createAppLog, logUncaught } from './desktop/log.ts';
import { nextZoomFactor } from '../shared/app-commands.ts';
import { buildAppMenu } from './desktop/menu.ts';
import { watchForBackgroundNews, type BackgroundNews } from './desktop/notifications.ts';
import { installQuitGuard, pendingCancels } from './desktop/quit-guard.ts';
import { reloadWhenRendererGone } from './desktop/renderer-recovery.ts';
import { startupFailureText } from './desktop/startup-failure.ts';
import { placeWindow, readWindowState, trackWindowState } from './desktop/window-state.ts';
import { createElectronSettings } from './environments/electron-settings.ts';
import { emitTo, registerIpc, streamOrdersTo } from './ipc/handle.ts';
import { earlierCliListsFolder, mergeEarlierCliLists } from './local-data/earlier-cli-lists.ts';
import { newerUserDataFiles } from './local-data/data-files.ts';
import { adoptEarlierUserData } from './local-data/earlier-user-data.ts';
import { createElectronKeyStore } from './keys/electron-key-store.ts';
import { confirmKeyForOriginInDialog } from './keys/electron-origin-dialog.ts';
import { createSandboxKey } from './sandbox/api-keys.ts';
import { startSandbox } from './sandbox/server.ts';
import { electronUpdaterPort } from './updates/electron-updater.ts';
import { watchWakeInElectron } from './wake/electron-wake.ts';
import { UpdateFlow } from './updates/update-flow.ts';
import { readBuildFeed } from './updates/update-settings.ts';
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

// One data folder name in development and when installed (before anything reads a path),
// unless Chromium's --user-data-dir names another, as it does for any Electron app.
app.setName(PRODUCT_NAME);
if (!app.commandLine.hasSwitch('user-data-dir'))
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

    // What 0.1.0 saved in its own userData folder (`store-admin`) comes over, before anything reads it.
    const carried = adoptEarlierUserData(app.getPath('appData'), app.getPath('userData'));
    if (carried.length > 0)
      log.info(`Carried over from Store Admin 0.1.0's folder: ${carried.join(', ')}`);
    // The command line's lists and cancel log of 0.2.0 to 0.4.0, kept in a folder of its own, join the app's.
    const dataDir = join(app.getPath('userData'), 'local-data');
    const merged = await mergeEarlierCliLists(earlierCliListsFolder(process.env), dataDir).catch(
      (error: unknown) =>
        log.warn(`The command line's earlier lists were not merged: ${String(error)}`),
    );
    if (merged && (merged.lists.length > 0 || merged.cancelLog.length > 0))
      log.info(`Merged the command line's earlier lists and cancel log: ${JSON.stringify(merged)}`);
    keys = createElectronKeyStore();
    // The saved keys are decrypted once, before anything asks for them.
    await keys.ready();
    // The update address the company gave at build time: electron-builder wrote it into the package.
    const buildConfig = join(process.resourcesPath, 'app-update.yml');
    const build = readBuildFeed(
      app.isPackaged && existsSync(buildConfig) ? readFileSync(buildConfig, 'utf8') : undefined,
    );
    if (build.problem) log.warn(`Updates: ${build.problem}`);
    const services = createAppServices({
      dataDir,
      settings: createElectronSettings(),
      // Settings, keys or the window's place saved by a newer version: left as they are, and said.
      newerUserData: newerUserDataFiles(app.getPath('userData')),
      keys,
      confirmKeyForOrigin: confirmKeyForOriginInDialog(() => mainWindow),
      openExternal: openExternalSafely,
      // Chromium's network stack: the system's proxy settings (PAC, WPAD) and certificate store apply.
      clientOptions: {
        fetch: (input, init) => net.fetch(input instanceof URL ? input.href : input, init),
      },
      ...(build.feed ? { buildUpdateFeed: build.feed } : {}),
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
    // After a sleep or a lost network, the app looks again at once rather than when timers
    // that slept fire: main at the services, the page at whether a refresh is due.
    const wake = watchWakeInElectron({ powerMonitor, net }, async (reason) => {
      log.info(`Looking again after ${reason === 'online' ? 'the network came back' : reason}.`);
      emit('app:awake', { reason });
      await services.afterWake();
    });

    const showAbout = (): void =>
      void dialog.showMessageBox({
        type: 'info',
        title: `About ${PRODUCT_NAME}`,
        ...aboutBox({
          productName: PRODUCT_NAME,
          version: app.getVersion(),
          updates: services.updates.view(),
          dataFolder: app.getPath('userData'),
          versions: process.versions,
        }),
      });

    /** The window in front, showing what a notification was about. */
    const bringForward = (show?: BackgroundNews['show']): void => {
      if (!mainWindow) open();
      const window = mainWindow;
      if (!window) return;
      if (window.isMinimized()) window.restore();
      window.show();
      window.focus();
      if (show) emit('app:show', show);
    };
    // Electron drops a notification's click once nothing holds it: each is held until clicked or closed.
    const held = new Set<Notification>();
    const notify = (news: Pick<BackgroundNews, 'title' | 'body'>, onClick: () => void): void => {
      if (!Notification.isSupported()) {
        mainWindow?.flashFrame(true);
        return;
      }
      const notification = new Notification({ title: news.title, body: news.body });
      held.add(notification);
      notification.on('click', () => {
        held.delete(notification);
        onClick();
      });
      notification.on('close', () => held.delete(notification));
      notification.show();
    };
    watchForBackgroundNews(
      { bulkCancel: services.bulkCancel, watcher: services.domainWatcher },
      {
        windowFocused: () => mainWindow?.isFocused() === true,
        notifications: { show: notify },
        showResult: bringForward,
      },
    );

    const updates = new UpdateFlow({
      updater: electronUpdaterPort({
        configFile: join(app.getPath('userData'), 'update-feed.yml'),
        isPackaged: app.isPackaged,
        log,
      }),
      feed: () => services.updates.feed(),
      teller: {
        answer: (message, detail) => {
          const options = { type: 'info' as const, message, ...(detail ? { detail } : {}) };
          void (mainWindow
            ? dialog.showMessageBox(mainWindow, options)
            : dialog.showMessageBox(options));
        },
        notify: (title, body) => notify({ title, body }, () => bringForward()),
        // -1 takes the bar away.
        progress: (fraction) => mainWindow?.setProgressBar(fraction ?? -1),
        log: (line) => log.info(line),
      },
      productName: PRODUCT_NAME,
      currentVersion: app.getVersion(),
      now: Date.now,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    services.updates.onChange((feed) => updates.feedChanged(feed));
    // The View menu's steps, up to 200%: every control still fits the narrowest window there.
    const zoomWindow = (change: 'in' | 'out' | 'reset'): void => {
      const contents = mainWindow?.webContents;
      if (contents) contents.setZoomFactor(nextZoomFactor(contents.getZoomFactor(), change));
    };
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        buildAppMenu({
          platform: process.platform,
          isPackaged: app.isPackaged,
          openLogsFolder: () => void shell.openPath(app.getPath('logs')),
          showAbout,
          checkForUpdates: () => void updates.checkNow(),
          sendCommand: (command) => emit('app:command', { command }),
          zoom: zoomWindow,
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
      // Ctrl+wheel asks for a zoom (Electron leaves it to the app): the same steps as the menu's.
      window.webContents.on('zoom-changed', (_event, direction) => zoomWindow(direction));
      reloadWhenRendererGone(window.webContents, {
        log,
        now: Date.now,
        notify: (message, detail) =>
          void dialog.showMessageBox(window, { type: 'warning', message, detail }),
      });
      window.on('closed', () => (mainWindow = undefined));
    };
    open();
    // The quiet check, a little after start (nothing at all without an update address).
    void updates.start();
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
      close: () => Promise.all([wake.close(), services.close()]).then(() => undefined),
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
