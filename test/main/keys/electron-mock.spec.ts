// The shared `electron` mock is test infrastructure other tests rely on; these
// check the properties they rely on.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  containsPlaintext,
  createElectronMock,
  FakeSafeStorage,
  platformForBackend,
} from '../../support/electron-mock.ts';

const PLAIN = 'sk_live_Plaintext-1234567890';

describe("FakeSafeStorage (the stand-in's model of safeStorage)", () => {
  it.each(['keychain', 'dpapi', 'gnome_libsecret', 'kwallet6'] as const)(
    'round-trips without the plaintext in the ciphertext (%s)',
    async (backend) => {
      const safeStorage = new FakeSafeStorage(backend);
      const encrypted = safeStorage.encryptString(PLAIN);
      expect(encrypted.toString('latin1')).not.toContain(PLAIN.slice(0, 4));
      expect(encrypted.toString('base64')).not.toContain(PLAIN.slice(0, 4));
      expect(safeStorage.decryptString(encrypted)).toBe(PLAIN);
      expect((await safeStorage.decryptStringAsync(encrypted)).result).toBe(PLAIN);
      // Chromium's formats: v10 on macOS and Windows, v11 under a Linux keyring.
      expect(encrypted.subarray(0, 3).toString()).toBe(
        backend === 'keychain' || backend === 'dpapi' ? 'v10' : 'v11',
      );
    },
  );

  it('on basic_text, refuses the synchronous API until setUsePlainTextEncryption(true), as Electron does', async () => {
    const safeStorage = new FakeSafeStorage('basic_text');
    expect(safeStorage.isEncryptionAvailable()).toBe(false);
    expect(() => safeStorage.encryptString(PLAIN)).toThrow(/Encryption is not available/);
    // The asynchronous encryptor is there once the app is ready.
    expect(await safeStorage.isAsyncEncryptionAvailable()).toBe(true);
    safeStorage.setUsePlainTextEncryption(true);
    expect(safeStorage.isEncryptionAvailable()).toBe(true);
    const encrypted = safeStorage.encryptString(PLAIN);
    expect(encrypted.subarray(0, 3).toString()).toBe('v10');
    expect(encrypted.toString('latin1')).not.toContain(PLAIN.slice(0, 4));
    expect(safeStorage.decryptString(encrypted)).toBe(PLAIN);
  });

  it("never gives the plaintext back from a tampered ciphertext, and Windows' AES-GCM refuses it", async () => {
    for (const backend of ['keychain', 'dpapi', 'gnome_libsecret'] as const) {
      const safeStorage = new FakeSafeStorage(backend);
      const encrypted = safeStorage.encryptString(PLAIN);
      for (let i = 3; i < encrypted.length; i += 1) {
        const copy = Buffer.from(encrypted);
        copy[i] = (copy[i] ?? 0) ^ 0x01;
        let plain: string | undefined;
        try {
          plain = (await safeStorage.decryptStringAsync(copy)).result;
        } catch {
          plain = undefined;
        }
        expect(plain).not.toBe(PLAIN);
        if (backend === 'dpapi') expect(plain).toBeUndefined();
      }
    }
  });

  it('cannot decrypt what another keyring encrypted', () => {
    const safeStorage = new FakeSafeStorage('gnome_libsecret');
    const encrypted = safeStorage.encryptString(PLAIN);
    safeStorage.setBackend('kwallet6');
    let plain: string | undefined;
    try {
      plain = safeStorage.decryptString(encrypted);
    } catch {
      plain = undefined;
    }
    expect(plain).not.toBe(PLAIN);
  });

  it('is unusable when the keyring cannot be reached, and before the app is ready', async () => {
    const safeStorage = new FakeSafeStorage('unavailable');
    expect(safeStorage.isEncryptionAvailable()).toBe(false);
    expect(await safeStorage.isAsyncEncryptionAvailable()).toBe(false);
    expect(() => safeStorage.encryptString(PLAIN)).toThrow(/not available/);
    await expect(safeStorage.encryptStringAsync(PLAIN)).rejects.toThrow();
    const early = new FakeSafeStorage('gnome_libsecret');
    early.setReady(false);
    expect(early.getSelectedStorageBackend()).toBe('unknown');
    expect(() => early.encryptString(PLAIN)).toThrow(
      'safeStorage cannot be used before app is ready',
    );
  });

  it('reports the Linux backend names Electron uses', () => {
    expect(new FakeSafeStorage('basic_text').getSelectedStorageBackend()).toBe('basic_text');
    expect(new FakeSafeStorage('kwallet6').getSelectedStorageBackend()).toBe('kwallet6');
    expect(platformForBackend('keychain')).toBe('darwin');
    expect(platformForBackend('dpapi')).toBe('win32');
    expect(platformForBackend('gnome_libsecret')).toBe('linux');
  });
});

describe('createElectronMock', () => {
  it('exposes the same objects as named exports and as default', () => {
    // A folder of this system's own kind (a drive and backslashes on Windows): the logs go inside it.
    const userData = join(tmpdir(), 'ud');
    const electron = createElectronMock({
      safeStorage: 'dpapi',
      userDataPath: userData,
      version: '1.2.3',
    });
    expect(electron.default.safeStorage).toBe(electron.safeStorage);
    expect(electron.safeStorage.backend).toBe('dpapi');
    expect(electron.app.getPath('userData')).toBe(userData);
    expect(electron.app.getPath('logs')).toBe(join(userData, 'logs'));
    expect(electron.app.getVersion()).toBe('1.2.3');
  });

  it('routes ipcRenderer.invoke to the ipcMain handler with a sender event, and records it', async () => {
    const electron = createElectronMock({ rendererUrl: 'app://renderer/' });
    const window = new electron.BrowserWindow({ show: false });
    electron.ipcMain.handle('echo', (event, value) => ({
      url: event.senderFrame?.url,
      same: (event.sender as unknown) === window.webContents,
      value,
    }));

    await expect(electron.ipcRenderer.invoke('echo', 7)).resolves.toEqual({
      url: 'app://renderer/',
      same: true,
      value: 7,
    });
    expect(electron.ipcRenderer.calls).toEqual([{ method: 'invoke', channel: 'echo', args: [7] }]);
    expect(() => electron.ipcMain.handle('echo', () => 0)).toThrow(/second handler/);
    electron.ipcMain.removeHandler('echo');
    await expect(electron.ipcRenderer.invoke('echo')).rejects.toThrow(/No handler/);
  });

  it('records app, window, shell, session and contextBridge use', async () => {
    const electron = createElectronMock();
    const events: string[] = [];
    electron.app.on('window-all-closed', () => events.push('closed'));
    electron.app.emit('window-all-closed');
    await electron.app.whenReady();

    const window = new electron.BrowserWindow({ show: false });
    expect(window.isVisible()).toBe(false);
    window.once('ready-to-show', () => window.show());
    window.emit('ready-to-show');
    await window.loadURL('https://example.test/');
    window.webContents.send('quota', { left: 3 });
    await electron.shell.openExternal('https://example.test/docs');
    electron.session.defaultSession.setPermissionRequestHandler((_wc, _p, callback) =>
      callback(false),
    );
    electron.contextBridge.exposeInMainWorld('api', { ping: true });

    expect(events).toEqual(['closed']);
    expect(window.isVisible()).toBe(true);
    expect(window.loaded).toBe('https://example.test/');
    expect(window.webContents.sent).toEqual([{ channel: 'quota', args: [{ left: 3 }] }]);
    expect(electron.shell.calls).toEqual([
      { method: 'openExternal', target: 'https://example.test/docs' },
    ]);
    expect(electron.session.defaultSession.permissionRequestHandler).toBeTypeOf('function');
    expect(electron.contextBridge.exposed).toEqual({ api: { ping: true } });
    expect(electron.BrowserWindow.getAllWindows()).toEqual([window]);
  });
});

describe('containsPlaintext', () => {
  it('finds the plaintext as is and inside base64, not inside real ciphertext', () => {
    expect(containsPlaintext(`{"k":"${PLAIN}"}`, PLAIN)).toBe(true);
    expect(
      containsPlaintext(`{"k":"${Buffer.from(`x\n${PLAIN}`).toString('base64')}"}`, PLAIN),
    ).toBe(true);
    const encrypted = new FakeSafeStorage('gnome_libsecret')
      .encryptString(PLAIN)
      .toString('base64');
    expect(containsPlaintext(`{"k":"${encrypted}"}`, PLAIN)).toBe(false);
  });
});
