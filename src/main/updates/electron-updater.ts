// The Electron edge of updates: electron-updater's autoUpdater behind the
// Updater port (update-flow.ts). It reads a generic provider's feed from an
// app-update.yml; this app writes its own (the address from the build or from
// Settings) so both sources are read the same way. electron-updater downloads
// through Electron's net module (Chromium's stack: the system's proxy and
// certificates apply), checks the download's sha512 against the feed's, and
// installs on quit (autoInstallOnAppQuit).

import { writeFileSync } from 'node:fs';
import type { AppUpdater, ProgressInfo } from 'electron-updater';
import { dump } from 'js-yaml';
import type { Updater } from './update-flow.ts';
import type { UpdateFeed } from './update-settings.ts';

/** Where electron-updater keeps a download until it is installed (in the user's cache folder). */
export const UPDATER_CACHE_DIR = 'store-admin-updater';

export interface ElectronUpdaterOptions {
  /** The app-update.yml this app writes for electron-updater (in the user-data folder). */
  readonly configFile: string;
  readonly isPackaged: boolean;
  readonly log: {
    info(message: string): void;
    warn(message: string): void;
    error(message: string): void;
  };
}

/** electron-updater found nothing it can update (e.g. a Linux copy that is not an AppImage or a deb). */
export class UpdaterInactiveError extends Error {
  readonly code = 'STORE_ADMIN_UPDATER_INACTIVE';
  override name = 'UpdaterInactiveError';
}

export function electronUpdaterPort(options: ElectronUpdaterOptions): Updater {
  // Loaded and set up on first use: without an update address electron-updater is never
  // even loaded, and a start does not pay for reading it.
  let made: Promise<AppUpdater> | undefined;
  const updater = (): Promise<AppUpdater> =>
    (made ??= import('electron-updater').then((module) =>
      setUp(module.default.autoUpdater, options),
    ));
  return {
    async configure(feed: UpdateFeed) {
      const autoUpdater = await updater();
      writeFileSync(
        options.configFile,
        dump({
          provider: 'generic',
          url: feed.url,
          channel: feed.channel,
          updaterCacheDirName: UPDATER_CACHE_DIR,
        }),
      );
      // Setting it drops the provider read from an earlier feed.
      autoUpdater.updateConfigPath = options.configFile;
    },
    async check() {
      const result = await (await updater()).checkForUpdates();
      if (!result) throw new UpdaterInactiveError('This copy of the app cannot update itself.');
      return result.isUpdateAvailable ? { version: result.updateInfo.version } : undefined;
    },
    async download(onProgress) {
      const autoUpdater = await updater();
      const listener = (progress: ProgressInfo) =>
        onProgress({
          percent: progress.percent,
          transferred: progress.transferred,
          total: progress.total,
        });
      autoUpdater.on('download-progress', listener);
      try {
        await autoUpdater.downloadUpdate();
      } finally {
        autoUpdater.off('download-progress', listener);
      }
    },
  };
}

function setUp(autoUpdater: AppUpdater, options: ElectronUpdaterOptions): AppUpdater {
  autoUpdater.autoDownload = false;
  autoUpdater.autoInstallOnAppQuit = true;
  autoUpdater.allowDowngrade = false;
  autoUpdater.logger = {
    info: (message?: unknown) => options.log.info(`updater: ${String(message)}`),
    warn: (message?: unknown) => options.log.warn(`updater: ${String(message)}`),
    error: (message?: unknown) => options.log.error(`updater: ${String(message)}`),
  };
  // Unpackaged (npm start, the stand-in's `electron .`) electron-updater does nothing unless told; the feed is given explicitly.
  autoUpdater.forceDevUpdateConfig = !options.isPackaged;
  // Its own error events are logged by the logger above; the flow handles each rejection.
  autoUpdater.on('error', () => undefined);
  return autoUpdater;
}
