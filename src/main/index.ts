// App lifecycle: the thin Electron edge. Everything it wires together is
// plain Node (environments, keys, client, sandbox) and tested there.

import { app, BrowserWindow, session } from 'electron';
import { join } from 'node:path';
import { SANDBOX_DEMO_KEY } from '../shared/environments.ts';
import { createAppServices } from './app-services.ts';
import { createElectronSettings } from './environments/electron-settings.ts';
import { emitTo, registerIpc } from './ipc/handle.ts';
import { createElectronKeyStore } from './keys/electron-key-store.ts';
import { confirmKeyForOriginInDialog } from './keys/electron-origin-dialog.ts';
import { startSandbox } from './sandbox/server.ts';
import { createMainWindow, isAppUrl, lockDown, type AppPage } from './window.ts';

const page: AppPage = {
  ...(!app.isPackaged && process.env.ELECTRON_RENDERER_URL
    ? { devServerUrl: process.env.ELECTRON_RENDERER_URL }
    : {}),
  file: join(import.meta.dirname, '../renderer/index.html'),
};

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let mainWindow: BrowserWindow | undefined;

  app.on('second-instance', () => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });

  app.on('web-contents-created', (_event, contents) => lockDown(contents, page));

  void app.whenReady().then(() => {
    // Everything is denied but writing to the clipboard (the Copy buttons), and only for the app's page.
    const allowed = (permission: string, url: string | undefined): boolean =>
      permission === 'clipboard-sanitized-write' && isAppUrl(url, page);
    session.defaultSession.setPermissionRequestHandler((contents, permission, callback, details) =>
      callback(allowed(permission, details.requestingUrl ?? contents.getURL())),
    );
    session.defaultSession.setPermissionCheckHandler((contents, permission, _origin, details) =>
      allowed(permission, details.requestingUrl ?? contents?.getURL()),
    );

    const services = createAppServices({
      dataDir: join(app.getPath('userData'), 'local-data'),
      settings: createElectronSettings(),
      keys: createElectronKeyStore(),
      confirmKeyForOrigin: confirmKeyForOriginInDialog(() => mainWindow),
      startSandbox: async () => {
        const sandbox = await startSandbox({ port: 0 });
        return { baseUrl: sandbox.baseUrl, key: SANDBOX_DEMO_KEY, close: () => sandbox.close() };
      },
    });
    const emit = emitTo(() => mainWindow?.webContents);
    registerIpc(
      services.handlers(emit),
      (event) => event.sender === mainWindow?.webContents && isAppUrl(event.senderFrame?.url, page),
    );

    // Bulk cancels that were running when the app last quit carry on.
    void services.resumeWork();

    const open = (): void => {
      mainWindow = createMainWindow(page, join(import.meta.dirname, '../preload'));
      mainWindow.on('closed', () => (mainWindow = undefined));
    };
    open();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) open();
    });
    app.on('before-quit', () => void services.close());
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
