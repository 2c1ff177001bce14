// The module `electron` as the stand-in gives it to the app's main process
// (launch.ts maps the specifier here). Each part is checked against the
// electron package's own typings for every member it models, so a signature
// that drifts from Electron's fails `npm run typecheck`.

import { app } from './app.ts';
import { BrowserWindow } from './browser-window.ts';
import { crashReporter } from './crash-reporter.ts';
import { dialog } from './dialog.ts';
import { ipcMain } from './ipc-main.ts';
import { Menu, MenuItem } from './menu.ts';
import { MessageChannelMain } from './message-channel-main.ts';
import { net } from './net.ts';
import { powerMonitor, type PowerEvent } from './power-monitor.ts';
import { StandinNotification as Notification } from './notification.ts';
import { safeStorage } from './safe-storage.ts';
import { screen } from './screen.ts';
import { session } from './session.ts';
import { shell } from './shell.ts';
import { webContents } from './web-contents.ts';

type WindowMembers =
  | 'id'
  | 'webContents'
  | 'loadURL'
  | 'loadFile'
  | 'show'
  | 'hide'
  | 'isVisible'
  | 'focus'
  | 'isFocused'
  | 'minimize'
  | 'restore'
  | 'isMinimized'
  | 'maximize'
  | 'unmaximize'
  | 'isMaximized'
  | 'setFullScreen'
  | 'isFullScreen'
  | 'getBounds'
  | 'getNormalBounds'
  | 'setBounds'
  | 'setTitle'
  | 'getTitle'
  | 'close'
  | 'destroy'
  | 'isDestroyed'
  | 'setProgressBar';

type WebContentsMembers =
  | 'id'
  | 'loadURL'
  | 'loadFile'
  | 'getURL'
  | 'reload'
  | 'isDestroyed'
  | 'send'
  | 'postMessage'
  | 'setWindowOpenHandler'
  | 'setZoomFactor'
  | 'getZoomFactor'
  | 'executeJavaScript'
  | 'close'
  | 'isFocused';

type ModelledWebContents = Pick<Electron.WebContents, WebContentsMembers>;

/** A static of Electron's WebContents class: its parameters as Electron's (its answer is the modelled webContents). */
type Static<
  Name extends 'getAllWebContents' | 'getFocusedWebContents' | 'fromId' | 'fromDevToolsTargetId',
> = (...args: Parameters<(typeof Electron.WebContents)[Name]>) => unknown;

type ModelledWindow = Pick<Electron.BrowserWindow, Exclude<WindowMembers, 'webContents'>> & {
  webContents: ModelledWebContents;
};

/**
 * The powerMonitor events the stand-in emits (the app's adapter listens for
 * each against Electron's own overloads, `on(event: 'suspend', …)`).
 */
type PowerEventName = PowerEvent;

/** What the stand-in models of each export, in Electron's own types. */
interface Modelled {
  app: Pick<
    Electron.App,
    | 'whenReady'
    | 'isReady'
    | 'quit'
    | 'exit'
    | 'getPath'
    | 'setPath'
    | 'getName'
    | 'setName'
    | 'getVersion'
    | 'getAppPath'
    | 'getLocale'
    | 'getSystemLocale'
    | 'setAppLogsPath'
    | 'setAppUserModelId'
    | 'requestSingleInstanceLock'
    | 'hasSingleInstanceLock'
    | 'releaseSingleInstanceLock'
    | 'isPackaged'
    | 'name'
    | 'focus'
  >;
  BrowserWindow: {
    getAllWindows(): ModelledWindow[];
    getFocusedWindow(): ModelledWindow | null;
    fromId(id: number): ModelledWindow | null;
    fromWebContents(webContents: ModelledWebContents): ModelledWindow | null;
    new (options?: Electron.BrowserWindowConstructorOptions): ModelledWindow;
  };
  /** The webContents module's statics: Electron's parameters, answering with the modelled webContents. */
  webContents: {
    getAllWebContents: Static<'getAllWebContents'> & (() => ModelledWebContents[]);
    getFocusedWebContents: Static<'getFocusedWebContents'> & (() => ModelledWebContents | null);
    fromId: Static<'fromId'> & ((id: number) => ModelledWebContents | undefined);
    fromDevToolsTargetId: Static<'fromDevToolsTargetId'> &
      ((targetId: string) => ModelledWebContents | undefined);
  };
  ipcMain: Pick<Electron.IpcMain, 'handle' | 'handleOnce' | 'removeHandler'>;
  MessageChannelMain: new () => {
    port1: Pick<Electron.MessagePortMain, 'postMessage' | 'start' | 'close'>;
    port2: Pick<Electron.MessagePortMain, 'postMessage' | 'start' | 'close'>;
  };
  safeStorage: Pick<
    Electron.SafeStorage,
    | 'isEncryptionAvailable'
    | 'isAsyncEncryptionAvailable'
    | 'encryptString'
    | 'decryptString'
    | 'encryptStringAsync'
    | 'decryptStringAsync'
    | 'getSelectedStorageBackend'
    | 'setUsePlainTextEncryption'
  >;
  dialog: Pick<Electron.Dialog, 'showErrorBox'> & {
    showMessageBox(options: Electron.MessageBoxOptions): Promise<Electron.MessageBoxReturnValue>;
    showMessageBox(
      window: Electron.BaseWindow,
      options: Electron.MessageBoxOptions,
    ): Promise<Electron.MessageBoxReturnValue>;
  };
  Menu: {
    buildFromTemplate(
      template: (Electron.MenuItemConstructorOptions | Electron.MenuItem)[],
    ): unknown;
  };
  MenuItem: new (
    options: Electron.MenuItemConstructorOptions,
  ) => Pick<Electron.MenuItem, 'label' | 'enabled' | 'visible'>;
  shell: Pick<Electron.Shell, 'openExternal' | 'openPath' | 'showItemInFolder' | 'beep'>;
  screen: Pick<Electron.Screen, 'getPrimaryDisplay' | 'getAllDisplays'>;
  crashReporter: Pick<Electron.CrashReporter, 'start' | 'getUploadToServer'>;
  session: {
    defaultSession: Pick<
      Electron.Session,
      'setPermissionRequestHandler' | 'setPermissionCheckHandler'
    >;
    fromPartition(
      partition: string,
      options?: Electron.FromPartitionOptions,
    ): Pick<Electron.Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>;
  };
  powerMonitor: Pick<Electron.PowerMonitor, 'getSystemIdleState'> & {
    // Electron's listeners for these events take no arguments.
    on(event: PowerEventName, listener: () => void): unknown;
    once(event: PowerEventName, listener: () => void): unknown;
    off(event: PowerEventName, listener: () => void): unknown;
    removeListener(event: PowerEventName, listener: () => void): unknown;
  };
  net: Pick<Electron.Net, 'fetch' | 'isOnline' | 'online'> & {
    request(
      options: Electron.ClientRequestConstructorOptions | string,
    ): Pick<
      Electron.ClientRequest,
      'setHeader' | 'getHeader' | 'removeHeader' | 'followRedirect' | 'abort'
    >;
  };
  Notification: {
    isSupported(): boolean;
    new (
      options?: Electron.NotificationConstructorOptions,
    ): Pick<Electron.Notification, 'show' | 'close' | 'title' | 'body' | 'silent'>;
  };
}

const electron = {
  app,
  BrowserWindow,
  ipcMain,
  MessageChannelMain,
  safeStorage,
  dialog,
  Menu,
  MenuItem,
  shell,
  screen,
  crashReporter,
  session,
  net,
  powerMonitor,
  Notification,
  webContents,
} satisfies Modelled;

export default electron;
export {
  app,
  BrowserWindow,
  crashReporter,
  dialog,
  ipcMain,
  Menu,
  MenuItem,
  MessageChannelMain,
  net,
  Notification,
  powerMonitor,
  safeStorage,
  screen,
  session,
  shell,
  webContents,
};
