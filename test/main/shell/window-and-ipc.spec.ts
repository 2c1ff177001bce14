// The Electron edge, with the shared mock of the electron module: the window
// follows the security checklist and IPC refuses untrusted senders before
// looking at their arguments.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const electron = await vi.hoisted(async () => {
  const { createElectronMock } = await import('../../support/electron-mock.ts');
  return createElectronMock({ safeStorage: 'keychain' });
});
vi.mock('electron', () => electron);

const {
  addContextMenu,
  contentSecurityPolicyOf,
  createMainWindow,
  enforceContentSecurityPolicy,
  isAppUrl,
  lockDown,
} = await import('../../../src/main/window.ts');
const { startLocalCrashReports } = await import('../../../src/main/desktop/crash-reports.ts');
const { registerIpc } = await import('../../../src/main/ipc/handle.ts');
const { CHANNELS } = await import('../../../src/shared/ipc-contract.ts');
const { FakeWebContents } = await import('../../support/electron-mock.ts');

const page = { file: '/opt/store-admin/out/renderer/index.html' };

describe('the main window', () => {
  it('is isolated, sandboxed, without Node, and shown only once painted', () => {
    const window = createMainWindow(page, '/opt/store-admin/out/preload') as unknown as {
      options: { webPreferences: Record<string, unknown>; show: boolean };
      visible: boolean;
      emit(event: string): void;
    };
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      disableBlinkFeatures: 'Auxclick',
      preload: '/opt/store-admin/out/preload/index.cjs',
    });
    expect(window.visible).toBe(false);
    window.emit('ready-to-show');
    expect(window.visible).toBe(true);
  });

  it('denies pop-ups, opening only https links outside, and blocks navigation away', () => {
    const contents = new FakeWebContents();
    lockDown(contents as never, page);
    expect(contents.windowOpenHandler?.({ url: 'https://docs.example.com/help' })).toEqual({
      action: 'deny',
    });
    expect(contents.windowOpenHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(electron.shell.calls).toEqual([
      { method: 'openExternal', target: 'https://docs.example.com/help' },
    ]);
    const away = { preventDefault: vi.fn() };
    contents.emit('will-navigate', away, 'https://evil.example.com/');
    expect(away.preventDefault).toHaveBeenCalled();
    const home = { preventDefault: vi.fn() };
    contents.emit('will-navigate', home, 'file:///opt/store-admin/out/renderer/index.html');
    expect(home.preventDefault).not.toHaveBeenCalled();
    const webview = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', webview);
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('opens where it was last, maximized only once painted', () => {
    const window = createMainWindow(page, '/opt/store-admin/out/preload', {
      bounds: { x: 40, y: 30, width: 1500, height: 900 },
      maximized: true,
      fullScreen: false,
    }) as unknown as {
      options: Record<string, unknown>;
      visible: boolean;
      isMaximized(): boolean;
      emit(event: string): void;
    };
    expect(window.options).toMatchObject({ x: 40, y: 30, width: 1500, height: 900 });
    // Narrower than 1100 px the header and the grid's columns no longer fit.
    expect(window.options).toMatchObject({ minWidth: 1100, minHeight: 600 });
    expect(window.visible).toBe(false);
    expect(window.isMaximized()).toBe(false);
    window.emit('ready-to-show');
    expect(window.isMaximized()).toBe(true);
    expect(window.visible).toBe(true);
  });

  it('opens no window on a middle-click (auxclick) or any other new-window request', () => {
    const contents = new FakeWebContents();
    lockDown(contents as never, page);
    const before = electron.shell.calls.length;
    for (const disposition of ['background-tab', 'foreground-tab', 'new-window', 'default']) {
      expect(
        contents.windowOpenHandler?.({
          url: 'file:///opt/store-admin/out/renderer/index.html',
          disposition,
        } as never),
      ).toEqual({ action: 'deny' });
      expect(
        contents.windowOpenHandler?.({ url: 'javascript:alert(1)', disposition } as never),
      ).toEqual({ action: 'deny' });
    }
    expect(electron.shell.calls.length).toBe(before);
  });

  it('pops up Cut, Copy, Paste on a right-click in a text field, and nothing elsewhere', () => {
    const contents = new FakeWebContents();
    addContextMenu(contents as never);
    const built = electron.Menu.built.length;
    const editFlags = { canCut: true, canCopy: true, canPaste: true, canSelectAll: true };
    contents.emit('context-menu', {}, { isEditable: true, selectionText: '', editFlags });
    const menu = electron.Menu.built[built];
    expect(menu?.popups).toBe(1);
    expect(menu?.template.map((item) => item['role'])).toEqual([
      'cut',
      'copy',
      'paste',
      undefined,
      'selectAll',
    ]);
    contents.emit('context-menu', {}, { isEditable: false, selectionText: '', editFlags });
    expect(electron.Menu.built.length).toBe(built + 1);
  });

  it("sends the page's own CSP as a header to the app's page only, and not in development", () => {
    const html = readFileSync(
      join(import.meta.dirname, '../../../src/renderer/index.html'),
      'utf8',
    );
    const policy = contentSecurityPolicyOf(html);
    expect(policy).toMatch(/^default-src 'self'; script-src 'self';/);
    expect(contentSecurityPolicyOf('<html><head></head></html>')).toBeUndefined();

    const session = electron.session.defaultSession;
    enforceContentSecurityPolicy(session as never, page, policy ?? '');
    const answer = (url: string): unknown => {
      let response: unknown;
      session.headersReceivedListener?.(
        { url, responseHeaders: { 'X-Other': ['1'] } },
        (r) => (response = r),
      );
      return response;
    };
    expect(answer('file:///opt/store-admin/out/renderer/index.html')).toEqual({
      responseHeaders: { 'X-Other': ['1'], 'Content-Security-Policy': [policy] },
    });
    expect(answer('https://elsewhere.example.com/')).toEqual({});

    session.headersReceivedListener = undefined;
    enforceContentSecurityPolicy(
      session as never,
      { ...page, devServerUrl: 'http://localhost:5173' },
      policy ?? '',
    );
    expect(session.headersReceivedListener).toBeUndefined();
  });

  it('keeps crash dumps on this computer: the crash reporter never uploads', () => {
    startLocalCrashReports(electron.crashReporter);
    expect(electron.crashReporter.starts).toEqual([{ uploadToServer: false, compress: true }]);
  });

  it('knows its own page, in development and packaged', () => {
    expect(isAppUrl('file:///opt/store-admin/out/renderer/index.html', page)).toBe(true);
    expect(isAppUrl('file:///tmp/evil/index.html', page)).toBe(false);
    expect(
      isAppUrl('http://localhost:5173/', { ...page, devServerUrl: 'http://localhost:5173' }),
    ).toBe(true);
    expect(
      isAppUrl('http://localhost:5174/', { ...page, devServerUrl: 'http://localhost:5173' }),
    ).toBe(false);
    expect(isAppUrl(undefined, page)).toBe(false);
  });
});

// The same check gates navigation, permissions and the IPC
// sender, so a page named like the app's must not pass for it.
describe('isAppUrl trusts only the app’s own page', () => {
  const own = 'file:///opt/store-admin/out/renderer/index.html';

  it.each([
    ['the built page', own],
    ['with a fragment (a place in the same page)', `${own}#orders`],
    ['with localhost as the host', 'file://localhost/opt/store-admin/out/renderer/index.html'],
    [
      'with dot segments that resolve to it',
      'file:///opt/store-admin/out/x/../renderer/./index.html',
    ],
  ])('accepts %s', (_label, url) => {
    expect(isAppUrl(url, page, 'linux')).toBe(true);
  });

  it.each([
    ['a copy in another folder', 'file:///home/anyone/copy/renderer/index.html'],
    ['a sibling folder', 'file:///opt/store-admin/out/renderer-private/index.html'],
    ['a longer name', 'file:///opt/store-admin/out/renderer/index.html.evil/renderer/index.html'],
    ['a network share', 'file://server/share/opt/store-admin/out/renderer/index.html'],
    ['another host', 'file://evil.example/opt/store-admin/out/renderer/index.html'],
    ['a query', `${own}?from=elsewhere`],
    ['an empty query', `${own}?`],
    ['a percent-encoded letter', 'file:///opt/store-admin/out/renderer/%69ndex.html'],
    ['a percent-encoded slash', 'file:///opt/store-admin/out/renderer%2Findex.html'],
    ['an encoded query mark', 'file:///opt/store-admin/out/renderer/index.html%3Fx'],
    ['a trailing slash', `${own}/`],
    ['a doubled slash', 'file:///opt/store-admin/out/renderer//index.html'],
    [
      'dot segments that climb out',
      'file:///opt/store-admin/out/renderer/../../../tmp/out/renderer/index.html',
    ],
    [
      'encoded dot segments that climb out',
      'file:///tmp/x/%2e%2e/%2E%2E/home/out/renderer/index.html',
    ],
    ['other letter case on Linux', 'file:///OPT/store-admin/out/renderer/index.html'],
    ['another scheme', 'https://opt/store-admin/out/renderer/index.html'],
    ['not a URL', 'index.html'],
  ])('refuses %s', (_label, url) => {
    expect(isAppUrl(url, page, 'linux')).toBe(false);
  });

  it('follows the case rules of Windows and macOS, and knows drive letters and shares', () => {
    const windowsPage = {
      file: 'C:\\Program Files\\Store Admin\\resources\\app.asar\\out\\renderer\\index.html',
    };
    const windowsUrl =
      'file:///C:/Program%20Files/Store%20Admin/resources/app.asar/out/renderer/index.html';
    expect(isAppUrl(windowsUrl, windowsPage, 'win32')).toBe(true);
    expect(isAppUrl(windowsUrl.toLowerCase(), windowsPage, 'win32')).toBe(true);
    expect(isAppUrl(windowsUrl.replace('C:', 'D:'), windowsPage, 'win32')).toBe(false);
    expect(
      isAppUrl(
        'file://server/C$/Program%20Files/Store%20Admin/resources/app.asar/out/renderer/index.html',
        windowsPage,
        'win32',
      ),
    ).toBe(false);
    expect(isAppUrl('file:///C:/Users/anyone/copy/renderer/index.html', windowsPage, 'win32')).toBe(
      false,
    );
    const macPage = {
      file: '/Applications/Store Admin.app/Contents/Resources/app.asar/out/renderer/index.html',
    };
    const macUrl =
      'file:///Applications/Store%20Admin.app/Contents/Resources/app.asar/out/renderer/index.html';
    expect(isAppUrl(macUrl.replace('Applications', 'APPLICATIONS'), macPage, 'darwin')).toBe(true);
    expect(isAppUrl(macUrl.replace('Applications', 'Users/anyone'), macPage, 'darwin')).toBe(false);
  });

  it('in development, trusts the dev server’s exact origin and nothing else', () => {
    const dev = { ...page, devServerUrl: 'http://localhost:5173' };
    expect(isAppUrl('http://localhost:5173/src/main.tsx', dev)).toBe(true);
    for (const url of [
      own,
      'http://127.0.0.1:5173/',
      'https://localhost:5173/',
      'http://localhost:5173.evil.example/',
      'http://localhost/',
      'blob:http://localhost:5173/0b3e',
    ])
      expect(isAppUrl(url, dev), url).toBe(false);
    expect(isAppUrl('http://localhost:5173/', { ...page, devServerUrl: 'not a url' })).toBe(false);
  });

  it('keeps look-alike pages from navigating the window', () => {
    const contents = new FakeWebContents();
    lockDown(contents as never, page);
    const lookAlike = { preventDefault: vi.fn() };
    contents.emit('will-navigate', lookAlike, 'file:///home/anyone/copy/renderer/index.html');
    expect(lookAlike.preventDefault).toHaveBeenCalled();
  });
});

describe('IPC registration', () => {
  it('registers every channel of the contract and refuses untrusted senders without running the handler', async () => {
    const trusted = new FakeWebContents();
    const stranger = new FakeWebContents();
    const handler = vi.fn(async () => ({ activeEnvironment: 'sandbox', environments: [] }));
    const handlers = Object.fromEntries(CHANNELS.map((c) => [c, handler])) as never;
    const unregister = registerIpc(handlers, (event) => event.sender === (trusted as never));
    expect(electron.ipcMain.handledChannels.sort()).toEqual([...CHANNELS].sort());

    const fromStranger = await electron.ipcMain.invoke('app:get-state', {
      sender: stranger,
      senderFrame: { url: 'file:///x' },
    });
    expect(fromStranger).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    expect(handler).not.toHaveBeenCalled();

    const fromApp = await electron.ipcMain.invoke('app:get-state', {
      sender: trusted,
      senderFrame: { url: 'file:///x' },
    });
    expect(fromApp).toMatchObject({ ok: true });
    const badArgs = await electron.ipcMain.invoke(
      'orders:cancel',
      { sender: trusted, senderFrame: { url: 'file:///x' } },
      'sandbox',
      '1 OR 1=1',
    );
    expect(badArgs).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    expect(handler).toHaveBeenCalledTimes(1);
    unregister();
    expect(electron.ipcMain.handledChannels).toEqual([]);
  });
});
