// Playwright's own Electron driver (`_electron.launch` from playwright-core)
// on the Electron stand-in's executable with the built app, as it drives a
// real Electron: it starts `dist/electron --inspect=0 --remote-debugging-port=0
// --no-sandbox … .`, reads Node's "Debugger listening on ws://" line and
// Chromium's "DevTools listening on ws://" line, evaluates in main through
// Node's inspector (`require('electron')` there is the stand-in's module, the
// one the app imported), takes the app's windows from the DevTools endpoint,
// and closes the app through `app.quit()`. What the end-to-end fixture relies
// on, checked on the stand-in itself. Needs `npm run build` first.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gridShown } from './support/spec-apps.ts';
import { ROOT, STANDIN_ELECTRON, STANDIN_RUNS_ON, standinRunsHere } from './support/standin.ts';

let home: string;

/** The built app on the stand-in, launched by Playwright's Electron driver, with Electron's switches and one it does not know. */
function launch(): Promise<ElectronApplication> {
  return _electron.launch({
    executablePath: STANDIN_ELECTRON,
    args: [
      `--user-data-dir=${join(home, 'user-data')}`,
      '--password-store=gnome-libsecret',
      '--a-switch-no-electron-knows=1',
      '.',
    ],
    cwd: ROOT,
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
      ELECTRON_STANDIN_HEADLESS: '1',
    },
    timeout: 60_000,
  });
}

describe.skipIf(!standinRunsHere)(`Playwright's Electron driver on ${STANDIN_RUNS_ON}`, () => {
  let electronApp: ElectronApplication | undefined;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'store-admin-driver-'));
  });
  afterAll(async () => {
    await electronApp?.close().catch(() => undefined);
    rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it('opens the first window on the orders grid, evaluates app.getVersion() in main, and closes with exit code 0', async () => {
    const app = await launch();
    electronApp = app;
    const exited = new Promise<number | null>((resolve) =>
      app.process().once('exit', (code) => resolve(code)),
    );
    const window = await app.firstWindow();
    const grid = await gridShown(window);
    await expect
      .poll(() => window.locator('.view-count').textContent(), { timeout: 30_000 })
      .toBe('Showing 1,000 of 1,000 orders');
    expect(await grid.locator('[role="row"][aria-rowindex="2"]').count()).toBe(1);

    expect(await app.evaluate(({ app: electronAppModule }) => electronAppModule.getVersion())).toBe(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    );
    // The module evaluated code gets is the one the app built its window with.
    expect(
      await app.evaluate(({ BrowserWindow }) =>
        BrowserWindow.getAllWindows().map((w) => w.webContents.getURL()),
      ),
    ).toEqual([window.url()]);
    // The app's page is the only page: no blank tab beside it.
    expect(app.windows()).toEqual([window]);
    // Playwright finds a page's window through webContents.fromDevToolsTargetId and BrowserWindow.fromWebContents.
    const cdp = await app.context().newCDPSession(window);
    const { targetInfo } = await cdp.send('Target.getTargetInfo');
    await cdp.detach();
    expect(
      await app.evaluate(
        ({ BrowserWindow, webContents }, targetId) =>
          webContents.fromDevToolsTargetId(targetId)?.id ===
          BrowserWindow.getAllWindows()[0]?.webContents.id,
        targetInfo.targetId,
      ),
    ).toBe(true);
    const browserWindow = await app.browserWindow(window);
    expect(await browserWindow.evaluate((w: Electron.BrowserWindow) => w.isVisible())).toBe(true);
    expect(
      await app.evaluate(({ app: main }) =>
        main.commandLine.hasSwitch('a-switch-no-electron-knows'),
      ),
    ).toBe(true);

    await app.close();
    expect(await exited).toBe(0);
    electronApp = undefined;
  });

  it('closes the window when the test closes its page, and the app quits with its last window', async () => {
    const app = await launch();
    electronApp = app;
    const exited = new Promise<number | null>((resolve) =>
      app.process().once('exit', (code) => resolve(code)),
    );
    const window = await app.firstWindow();
    await gridShown(window);
    // Through main (webContents.fromDevToolsTargetId(targetId).close()): the window closes, then the app quits.
    await window.close();
    expect(await exited).toBe(0);
    electronApp = undefined;
  });
});
