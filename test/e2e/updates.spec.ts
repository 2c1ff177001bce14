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
// Settings; a release whose sha512 does not match is refused; the clerk's
// work (a refreshed list, a cancel, a mark, a domain in progress, a bulk
// cancel paused midway); one release that matches downloads with its
// progress on the taskbar and installs on quit; and the new version starts
// on the same data folder with all of that work there, and checks quietly by
// itself. The new version is this build run from an app folder whose
// package.json names the next version (what the installed AppImage holds).

import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import { sha512Of, startUpdateServer, type UpdateServer } from '../support/update-server.ts';
import {
  appHome,
  describeNeedsStandin,
  launchApp,
  type AppHome,
  type AppRun,
} from './support/electron-app.ts';
import { ROOT, waitFor } from './support/standin.ts';
import { inPage, type ClerkWork } from './support/in-page-shapes.ts';

/** This build's version, and the next one's the update server offers. */
const CURRENT = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
const NEXT = CURRENT.replace(
  /^(\d+)\.(\d+)\.\d+$/,
  (_, major: string, minor: string) => `${major}.${Number(minor) + 1}.0`,
);

/** The new version, as the stand-in's AppImage: records that it ran, as installed, and exits. */
const NEW_VERSION = Buffer.concat([
  Buffer.from(
    [
      '#!/bin/sh',
      `# Store Admin ${NEXT} (the stand-in AppImage): run once by the installer, it exits.`,
      'echo "ran with APPIMAGE_EXIT_AFTER_INSTALL=$APPIMAGE_EXIT_AFTER_INSTALL" > "$UPDATE_TEST_RAN"',
      'exit 0',
      '',
    ].join('\n'),
  ),
  // Enough bytes for a download of a few seconds at the server's pace.
  Buffer.from(`${'#'.repeat(99)}\n`.repeat(25_000)),
]);
const FILE_NAME = `Store-Admin-${NEXT}.AppImage`;

let server: UpdateServer;
let home: AppHome;
let run: AppRun;
let page: Page;
let appImage: string;
let ranFile: string;
let production: Sandbox;
/** What the app held of the clerk's work just before the quit that installed the update. */
let before: ClerkWork;

const startApp = (app?: string) => launchApp({ home, ...(app === undefined ? {} : { app }) });
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
      // Production: answers slow enough that a bulk cancel is paused midway.
      production = await startSandbox({ port: 0, orders: 200, faults: 'latency=300@1' });
      home = appHome();
      appImage = join(home.dir, 'Store-Admin.AppImage');
      ranFile = join(home.dir, 'installed-version-ran.txt');
      writeFileSync(appImage, `#!/bin/sh\n# Store Admin ${CURRENT} (the stand-in AppImage)\n`);
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
      await production?.close();
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
      expect(about.message).toBe(`Store Admin ${CURRENT}`);
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

      server.publish({ version: NEXT, fileName: FILE_NAME, file: NEW_VERSION, wrongSha512: true });
      const before = await lastNotificationId();
      await run.clickMenu(['Help', 'Check for Updates…']);
      expect(await dialogSaying()).toMatchObject({
        message: `Store Admin ${NEXT} is downloading.`,
      });
      const refused = await nextNotification('Store Admin was not updated', before);
      expect(refused.body).toBe(
        `The download of version ${NEXT} did not match the checksum the update server gave, so it will not be installed.`,
      );
      expect(server.requests).toEqual([
        { method: 'GET', path: '/latest-linux.yml' },
        { method: 'GET', path: `/${FILE_NAME}` },
      ]);
    });

    it("does a clerk's work: a refresh, a cancel, a mark, a domain, a bulk cancel paused midway", async () => {
      const [cancel, mark, ...rest] = production.orderIds({ status: 'pending' });
      const bulk = rest.slice(0, 30);
      await page.evaluate(inPage.clerkWork, {
        baseUrl: production.baseUrl,
        key: 'demo-pro',
        cancel: cancel!,
        mark: mark!,
        bulk,
        project: 'Pet Shop',
      });
      // The clerk turns to Production, to pause it there.
      await page.getByRole('button', { name: 'Orders', exact: true }).click();
      await page.getByRole('radio', { name: /^Production/ }).check();
      // Paused once some answers are in, while a DELETE is on its way (its answer 300 ms late):
      // the case where the work is still changing after the pause.
      await waitFor(
        'some answers, and one on its way',
        async () => {
          const bulk = (await page.evaluate(inPage.clerkWorkNow)).bulk;
          return bulk && bulk.answered.length >= 3 && bulk.answersOnTheirWay > 0 ? true : undefined;
        },
        60_000,
      );
      await page.getByRole('button', { name: 'Pause', exact: true }).click();
      // A DELETE sent before the pause still lands: the work is read once the job is paused and
      // none of its answers is on its way (the app's own count), when nothing more of it changes.
      before = await waitFor(
        'the bulk cancel paused, with no answer on its way',
        async () => {
          const work = await page.evaluate(inPage.clerkWorkNow);
          return work.bulk?.status === 'paused' && work.bulk.answersOnTheirWay === 0
            ? work
            : undefined;
        },
        60_000,
      );
      expect(before).toMatchObject({
        activeEnvironment: 'production',
        productionAddress: production.baseUrl,
        cachedCount: 200,
        marks: { [mark!]: { reviewed: true, note: 'Call back' } },
        bulk: { status: 'paused', total: 30, answersOnTheirWay: 0 },
        projects: ['Pet Shop'],
        domains: { 'Pet Shop: shop.example.com': 'configure-dns' },
      });
      expect(before.cancelLog).toContainEqual({ orderId: cancel, result: 'cancelled' });
      expect(before.bulk!.answered.length).toBeLessThan(30);
    });

    it('downloads a release whose sha512 matches, with its progress on the taskbar, and installs it on quit', async () => {
      server.requests.length = 0;
      server.publish({
        version: NEXT,
        fileName: FILE_NAME,
        file: NEW_VERSION,
        bytesPerSecond: 800_000,
      });
      const notified = await lastNotificationId();
      await run.clickMenu(['Help', 'Check for Updates…']);
      expect(await dialogSaying()).toMatchObject({
        message: `Store Admin ${NEXT} is downloading.`,
        detail: 'It is installed when you quit Store Admin. Its progress shows on the taskbar.',
      });
      const ready = await nextNotification(`Store Admin ${NEXT} is ready`, notified);
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
      expect(readFileSync(appImage, 'utf8')).toContain(`Store Admin ${CURRENT}`);
      await run.quitFromMenu();
      expect(await run.exited).toBe(0);
      // Ended by itself: what its window threw or broke is checked all the same.
      await run.stop();
      expect(sha512Of(readFileSync(appImage))).toBe(sha512Of(NEW_VERSION));
      expect(readFileSync(ranFile, 'utf8')).toBe('ran with APPIMAGE_EXIT_AFTER_INSTALL=true\n');
    });

    it("starts as the new version on the same data folder, with all of the clerk's work there", async () => {
      // What the installed AppImage holds: this build, with the next version in its package.json.
      const installed = join(home.dir, 'installed-app');
      mkdirSync(installed);
      writeFileSync(
        join(installed, 'package.json'),
        JSON.stringify({
          name: 'store-admin',
          version: NEXT,
          type: 'module',
          main: join(ROOT, 'out', 'main', 'index.js'),
        }),
      );
      server.requests.length = 0;
      run = await startApp(installed);
      page = await run.page();
      await run.clickMenu(['Help', 'About Store Admin']);
      expect((await dialogSaying()).message).toBe(`Store Admin ${NEXT}`);

      const after = await page.evaluate(inPage.clerkWorkNow);
      // Everything as it was: the list, the cancel log, the mark, the settings, the domain, and
      // the bulk cancel still paused where it was, with the answers it had.
      expect(after).toEqual(before);
      // The saved list is on screen, as the last version left it.
      await page
        .getByRole('grid', { name: 'Production orders' })
        .locator('[role="row"][aria-rowindex="2"]')
        .waitFor({ timeout: 60_000 });
    });

    it('checks quietly by itself a little after the start, asking nobody anything', async () => {
      // The address is kept; the check waits about ten seconds after start. The new version is
      // the newest the server has: nothing is downloaded.
      await waitFor(
        'the quiet check',
        () => server.requests.find((r) => r.path === '/latest-linux.yml'),
        60_000,
      );
      const state = await run.standin().state();
      expect(state.dialogsShown.map((dialog) => dialog.options.message)).toEqual([
        `Store Admin ${NEXT}`,
      ]);
      expect(server.requests.map((r) => r.path)).not.toContain(`/${FILE_NAME}`);
    });
  },
);
