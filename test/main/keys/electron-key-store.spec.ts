// The Electron wiring: safeStorage from the shared `electron` mock, a real
// electron-store file in a temp dir (see electron-ciphertext-store.spec.ts on
// why electron-store itself needs keepElectronFromDownloading).
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_KEYS_FILE_NAME } from '../../../src/main/keys/electron-ciphertext-store.ts';
import { createElectronKeyStore } from '../../../src/main/keys/electron-key-store.ts';
import { containsPlaintext } from '../../support/electron-mock.ts';

const electron = await vi.hoisted(async () => {
  const { createElectronMock, keepElectronFromDownloading } =
    await import('../../support/electron-mock.ts');
  keepElectronFromDownloading();
  return createElectronMock({ safeStorage: 'gnome_libsecret' });
});
vi.mock('electron', () => electron);

const KEY = 'sk_live_Wired-9d8c7b6a5f4e3d2c';
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'store-admin-keys-'));
  electron.safeStorage.setBackend('gnome_libsecret');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

afterAll(() => {
  vi.unstubAllEnvs();
});

const filePath = (): string => path.join(dir, `${API_KEYS_FILE_NAME}.json`);
const open = async () => {
  const keys = createElectronKeyStore({ cwd: dir, platform: 'linux' });
  await keys.ready();
  return keys;
};

describe('createElectronKeyStore', () => {
  it("encrypts with Electron's safeStorage and writes only ciphertext to the file", async () => {
    const status = await (await open()).setKey('production', KEY);

    expect(status).toMatchObject({
      set: true,
      storage: 'os-encrypted',
      backend: 'the GNOME keyring',
    });
    expect(electron.safeStorage.calls.encrypt).toBeGreaterThan(0);
    const text = readFileSync(filePath(), 'utf8');
    expect(containsPlaintext(text, KEY)).toBe(false);
    const saved = (JSON.parse(text) as { production?: { ciphertext?: string } }).production
      ?.ciphertext;
    expect(saved).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect((await open()).getKey('production', 'https://api.example.com')).toBe(KEY);
  });

  it.runIf(process.platform !== 'win32')('keeps the file readable by its owner only', async () => {
    await (await open()).setKey('production', KEY);
    expect(statSync(filePath()).mode & 0o777).toBe(0o600);
  });

  it('writes nothing for a basic_text session key, and the ciphertext once weak storage is accepted', async () => {
    electron.safeStorage.setBackend('basic_text');
    const keys = await open();
    expect((await keys.setKey('staging', KEY)).storage).toBe('session-only');
    expect(existsSync(filePath()) ? readFileSync(filePath(), 'utf8') : '').not.toContain(
      'ciphertext',
    );

    expect((await keys.setKey('staging', KEY, { acceptWeakStorage: true })).storage).toBe(
      'weak-accepted',
    );
    const text = readFileSync(filePath(), 'utf8');
    expect(containsPlaintext(text, KEY)).toBe(false);
    expect(JSON.parse(text)).toMatchObject({ staging: { weakStorageAccepted: true } });
    expect((await open()).status('staging').storage).toBe('weak-accepted');
  });

  it('removes a tampered ciphertext from the file and asks for the key again', async () => {
    await (await open()).setKey('production', KEY);
    const data = JSON.parse(readFileSync(filePath(), 'utf8')) as {
      production: { ciphertext: string };
    };
    data.production.ciphertext = Buffer.from('not what safeStorage wrote').toString('base64');
    writeFileSync(filePath(), JSON.stringify(data));

    expect((await open()).status('production')).toMatchObject({
      set: false,
      problem: 'undecryptable',
    });
    expect(readFileSync(filePath(), 'utf8')).not.toContain(data.production.ciphertext);
  });

  it('starts empty instead of crashing when the file is not valid JSON', async () => {
    writeFileSync(filePath(), '{ this is not json');
    const keys = await open();
    expect(keys.status('production')).toMatchObject({ set: false, storage: 'none' });
    expect((await keys.setKey('production', KEY)).storage).toBe('os-encrypted');
  });
});
