// What the packaging configuration promises a Linux desktop: the deb pulls in
// xdg-utils (shell.openExternal and shell.openPath run xdg-open), and the
// installed .desktop file is named as Electron names the window's app id.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../electron-builder.config.ts';

const manifest = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8'),
) as { desktopName?: string };

describe('the Linux packages', () => {
  it('depend on xdg-utils and what Electron needs on a desktop', () => {
    expect(config.deb?.depends).toEqual(
      expect.arrayContaining(['xdg-utils', 'libsecret-1-0', 'libnss3', 'libgtk-3-0']),
    );
  });

  it('name the desktop file as package.json names the app for Electron', () => {
    expect(manifest.desktopName).toBe('store-admin.desktop');
    expect(config.linux?.executableName).toBe('store-admin');
    expect(config.linux?.syncDesktopName).toBe(true);
  });
});
