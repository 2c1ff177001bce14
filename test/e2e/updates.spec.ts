// Updates, through the app's real main bundle and electron-updater in the
// Electron stand-in, from an update server on loopback (electron-builder's
// generic provider: latest-linux.yml beside the file). The stand-in runs as
// an AppImage would (APPIMAGE names the file to replace), so electron-updater
// is the AppImage updater and its install step is real: on quit the file is
// replaced and run once with APPIMAGE_EXIT_AFTER_INSTALL, as electron-updater
// does. The "AppImage" here is a shell script that records that run; what
// a real AppImage does next (nothing: it exits) and the relaunch into the new
// version are not modelled. Needs the stand-in: its dialogs are answered,
// its notifications and taskbar read, through the stand-in's channel, and a
// real Electron run from a folder is no AppImage. Needs `npm run build` first.
//
// In order, on one home: without an address nothing is asked of the server;
// About names the version, channel and data folder; an address saved in
// Settings; a release whose sha512 does not match is refused; one that
// matches downloads with its progress on the taskbar and installs on quit;
// the next start checks quietly by itself.

import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sha512Of, startUpdateServer, type UpdateServer } from '../support/update-server.ts';
import {
  appHome,
  describeNeedsStandin,
  launchApp,
  type AppHome,
  type AppRun,
} from './support/electron-app.ts';
import { waitFor } from './support/standin.ts';

/** The new version, as the stand-in's AppImage: records that it ran, as installed, and exits. */
const NEW_VERSION = Buffer.concat([
  Buffer.from(
    [
      '#!/bin/sh',
      '# Store Admin 0.2.0 (the stand-in AppImage): run once by the installer, it exits.',
      'echo "ran with APPIMAGE_EXIT_AFTER_INSTALL=$APPIMAGE_EXIT_AFTER_INSTALL" > "$UPDATE_TEST_RAN"',
      'exit 0',
      '',
    ].join('\n'),
  ),
  // Enough bytes for a download of a few seconds at the server's pace.
  Buffer.from(`${'#'.repeat(99)}\n`.repeat(25_000)),
]);
const FILE_NAME = 'Store-Admin-0.2.0.AppImage';

let server: UpdateServer;
let home: AppHome;
let run: AppRun;
let page: Page;
let appImage: string;
let ranFile: string;

const startApp = () => launchApp({ home });
const notifications = async () => (await run.standin().state()).notifications;
const nextNotification = (title: string, after: number) =>
  waitFor(
    `the notification "${title}"`,
    async () => (await notifications()).find((n) => n.id > after && n.title === title),
    60_000,
  );
const lastNotificationId = async () => (await notifications()).at(-1)?.id ?? 0;

/** Answers the next dialog with its first button, and gives back what it said. */
async function dialogSaying(): Promise<{ message: string; detail?: string }> {
  const dialog = await run.standin().nextDialog();
  await run.standin().answerDialog(dialog.id, 0);
  return dialog.options as { message: string; detail?: string };
}

describeNeedsStandin(
  'updates from a company update server',
  'electron-updater installs an AppImage, and its dialogs, notifications and taskbar are answered and read through the stand-in',
  () => {
    beforeAll(async () => {
      server = await startUpdateServer();
      home = appHome();
      appImage = join(home.dir, 'Store-Admin.AppImage');
      ranFile = join(home.dir, 'installed-version-ran.txt');
      writeFileSync(appImage, '#!/bin/sh\n# Store Admin 0.1.0 (the stand-in AppImage)\n');
      chmodSync(appImage, 0o755);
      Object.assign(home.env, {
        APPIMAGE: appImage,
        XDG_CACHE_HOME: join(home.dir, 'cache'),
        UPDATE_TEST_RAN: ranFile,
      });
      run = await startApp();
      page = await run.page();
    });
    afterAll(async () => {
      await run?.stop();
      await server?.close();
      home?.remove();
    });

    it('asks nothing of any server without an address, and says so when asked', async () => {
      await run.clickMenu(['Help', 'Check for Updates…']);
      expect(await dialogSaying()).toMatchObject({
        message: 'Updates are not set up on this computer.',
      });
      expect(server.requests).toEqual([]);
    });

    it('names the version, the update channel and the data folder in About', async () => {
      await run.clickMenu(['Help', 'About Store Admin']);
      const about = await dialogSaying();
      expect(about.message).toBe('Store Admin 0.1.0');
      expect(about.detail?.split('\n').slice(0, 2)).toEqual([
        'Updates: none (no update address is set)',
        `Data folder: ${home.userData}`,
      ]);
    });

    it('refuses a download whose sha512 does not match the server’s, and says so', async () => {
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByLabel('Update server address').fill(server.url);
      await page.getByRole('button', { name: 'Save update address' }).click();
      await page.getByText(/^Saved\. Store Admin looks for updates there/).waitFor();

      server.publish({
        version: '0.2.0',
        fileName: FILE_NAME,
        file: NEW_VERSION,
        wrongSha512: true,
      });
      const before = await lastNotificationId();
      await run.clickMenu(['Help', 'Check for Updates…']);
      expect(await dialogSaying()).toMatchObject({ message: 'Store Admin 0.2.0 is downloading.' });
      const refused = await nextNotification('Store Admin was not updated', before);
      expect(refused.body).toBe(
        'The download of version 0.2.0 did not match the checksum the update server gave, so it will not be installed.',
      );
      expect(server.requests).toEqual([
        { method: 'GET', path: '/latest-linux.yml' },
        { method: 'GET', path: `/${FILE_NAME}` },
      ]);
    });

    it('downloads a release whose sha512 matches, with its progress on the taskbar, and installs it on quit', async () => {
      server.requests.length = 0;
      server.publish({
        version: '0.2.0',
        fileName: FILE_NAME,
        file: NEW_VERSION,
        bytesPerSecond: 800_000,
      });
      const before = await lastNotificationId();
      await run.clickMenu(['Help', 'Check for Updates…']);
      expect(await dialogSaying()).toMatchObject({
        message: 'Store Admin 0.2.0 is downloading.',
        detail: 'It is installed when you quit Store Admin. Its progress shows on the taskbar.',
      });
      const ready = await nextNotification('Store Admin 0.2.0 is ready', before);
      expect(ready.body).toBe('It is installed when you quit Store Admin.');

      const bar = (await run.standin().state()).windows[0]!.progressBar;
      // From empty, through values between, to gone (-1) once it is ready.
      expect(bar[0]).toBe(0);
      expect(bar.some((value) => value > 0 && value < 1)).toBe(true);
      expect(bar.at(-1)).toBe(-1);
      expect(server.requests.map((r) => r.path)).toEqual(['/latest-linux.yml', `/${FILE_NAME}`]);

      await run.clickMenu(['Help', 'About Store Admin']);
      expect((await dialogSaying()).detail?.split('\n')[0]).toBe(
        `Updates: the latest channel from ${server.url} (set in Settings)`,
      );

      // Not installed before the quit.
      expect(readFileSync(appImage, 'utf8')).toMatch(/0\.1\.0/);
      await run.quitFromMenu();
      expect(await run.exited).toBe(0);
      expect(sha512Of(readFileSync(appImage))).toBe(sha512Of(NEW_VERSION));
      expect(readFileSync(ranFile, 'utf8')).toBe('ran with APPIMAGE_EXIT_AFTER_INSTALL=true\n');
    });

    it('checks quietly by itself a little after the next start, asking nobody anything', async () => {
      server.requests.length = 0;
      run = await startApp();
      page = await run.page();
      // The address is kept; the check waits about ten seconds after start.
      await waitFor(
        'the quiet check',
        () => server.requests.find((r) => r.path === '/latest-linux.yml'),
        60_000,
      );
      const state = await run.standin().state();
      expect(state.dialogsShown).toEqual([]);
    });
  },
);
