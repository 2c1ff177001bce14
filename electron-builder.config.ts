// electron-builder: installers for Linux (AppImage, deb), Windows (NSIS) and
// macOS (DMG). `npm run package` builds for the platform it runs on;
// `npm run package:dir` only the unpacked app. The package holds the built app
// (out/, without source maps) and nothing else: main bundles its dependencies
// (electron.vite.config.ts), so no node_modules ship; test/packaging checks it.

import type { Configuration } from 'electron-builder';
import { APP_ID, PRODUCT_NAME } from './src/main/desktop/app-identity.ts';
import { flipFusesAfterPack } from './scripts/packaging/fuses.ts';

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
    target: ['dmg'],
    icon: 'resources/icon.png',
    category: 'public.app-category.business',
    hardenedRuntime: true,
  },
  dmg: { title: PRODUCT_NAME },
  publish: null,
};

export default config;
