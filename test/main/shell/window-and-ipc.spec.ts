// The Electron edge, with the shared mock of the electron module: the window
// follows the security checklist and IPC refuses untrusted senders before
// looking at their arguments.

import { describe, expect, it, vi } from 'vitest';

const electron = await vi.hoisted(async () => {
  const { createElectronMock } = await import('../../support/electron-mock.ts');
  return createElectronMock({ safeStorage: 'keychain' });
});
vi.mock('electron', () => electron);

const { createMainWindow, isAppUrl, lockDown } = await import('../../../src/main/window.ts');
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
    } as never);
    expect(fromStranger).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    expect(handler).not.toHaveBeenCalled();

    const fromApp = await electron.ipcMain.invoke('app:get-state', {
      sender: trusted,
      senderFrame: { url: 'file:///x' },
    } as never);
    expect(fromApp).toMatchObject({ ok: true });
    const badArgs = await electron.ipcMain.invoke(
      'orders:cancel',
      { sender: trusted, senderFrame: { url: 'file:///x' } } as never,
      'sandbox',
      '1 OR 1=1',
    );
    expect(badArgs).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    expect(handler).toHaveBeenCalledTimes(1);
    unregister();
    expect(electron.ipcMain.handledChannels).toEqual([]);
  });
});
