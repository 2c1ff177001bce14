// electron-builder: installers for Linux (AppImage, deb), Windows (NSIS) and
// macOS (DMG). `npm run package` builds for the platform it runs on;
// `npm run package:dir` only the unpacked app. The package holds the built app
// (out/, without source maps) and nothing else: main bundles its dependencies
// (electron.vite.config.ts), so no node_modules ship; test/packaging checks it.

import type { Configuration } from 'electron-builder';
import { APP_ID, PRODUCT_NAME } from './src/main/desktop/app-identity.ts';
import { checkUpdateAddress } from './src/shared/updates.ts';
import { flipFusesAfterPack } from './scripts/packaging/fuses.ts';

/**
 * Where the installed app looks for updates: the company's own server, given
 * when it packages the app (STORE_ADMIN_UPDATE_URL, and STORE_ADMIN_UPDATE_CHANNEL
 * for another release line than `latest`). electron-builder writes it into the
 * package (resources/app-update.yml, which the app reads) and writes the feed
 * files (latest-linux.yml, latest.yml, latest-mac.yml) beside the installers,
 * to be copied to that server with them. Without it the app never looks for
 * updates unless an address is entered in Settings. An address the app would
 * refuse stops the build rather than ship one that is silently ignored.
 */
export function updatePublishing(
  env: Readonly<Record<string, string | undefined>>,
): Configuration['publish'] {
  const url = env.STORE_ADMIN_UPDATE_URL?.trim();
  if (!url) return null;
  const checked = checkUpdateAddress(url);
  if (!checked.ok) throw new Error(`STORE_ADMIN_UPDATE_URL: ${checked.message}`);
  const channel = env.STORE_ADMIN_UPDATE_CHANNEL?.trim();
  if (channel !== undefined && channel !== '' && !/^[a-z0-9][a-z0-9-]{0,31}$/i.test(channel))
    throw new Error(
      `STORE_ADMIN_UPDATE_CHANNEL: "${channel}" is not a channel name (letters, digits and dashes).`,
    );
  return [{ provider: 'generic', url: checked.value, ...(channel ? { channel } : {}) }];
}

const config: Configuration = {
  appId: APP_ID,
  productName: PRODUCT_NAME,
  copyright: 'Pet Store staff tools',
  directories: { output: 'dist', buildResources: 'resources' },
  // Use an Electron already on disk where Electron's downloads cannot be reached (as npm start does).
  ...(process.env.ELECTRON_OVERRIDE_DIST_PATH
    ? { electronDist: process.env.ELECTRON_OVERRIDE_DIST_PATH }
    : {}),
  files: ['out/**/*', '!out/**/*.map', '!node_modules/**/*'],
  asar: true,
  // Nothing native to rebuild: main's dependencies are bundled JavaScript.
  npmRebuild: false,
  afterPack: flipFusesAfterPack,
  linux: {
    target: ['AppImage', 'deb'],
    icon: 'resources/icons',
    category: 'Office',
    executableName: 'store-admin',
    maintainer: 'Pet Store staff tools <staff-tools@petstore.example>',
    synopsis: 'Orders, cancels, quota and custom domains for the pet store service',
    // The installed store-admin.desktop is named after package.json's desktopName, which
    // Electron takes as the window's app id (WM_CLASS on X11, app_id on Wayland), so the
    // desktop links the running window to its launcher.
    syncDesktopName: true,
  },
  deb: {
    // electron-builder's own list, plus libasound2: giving depends replaces its list, and
    // xdg-utils is what shell.openExternal and shell.openPath run (xdg-open).
    depends: [
      'libgtk-3-0',
      'libnotify4',
      'libnss3',
      'libxss1',
      'libxtst6',
      'xdg-utils',
      'libatspi2.0-0',
      'libuuid1',
      'libsecret-1-0',
      'libasound2',
    ],
  },
  win: { target: ['nsis'], icon: 'resources/icon.ico' },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    shortcutName: PRODUCT_NAME,
  },
  mac: {
    // The zip is what electron-updater installs on macOS (Squirrel.Mac); the DMG is for first installs.
    target: ['dmg', 'zip'],
    icon: 'resources/icon.png',
    category: 'public.app-category.business',
    hardenedRuntime: true,
  },
  dmg: { title: PRODUCT_NAME },
  publish: updatePublishing(process.env),
};

export default config;
