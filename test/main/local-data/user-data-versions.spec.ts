// The userData folder's own files carry a version too (data-files.ts,
// USER_DATA_FILES): settings.json and api-keys.json (electron-store) and
// window-state.json (the desktop edge, test/main/shell/window-state.spec.ts).
// What each earlier release wrote (the corpus's settings, copied) is read
// as it is, untouched by opening it, and the next save adds the version;
// a newer release's file is left byte for byte as it was, this session
// working from memory, and the clerk is told once.

import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parseSettings } from '../../../src/main/environments/settings.ts';
import {
  newerUserDataFiles,
  NewerDataError,
  USER_DATA_FILES,
} from '../../../src/main/local-data/data-files.ts';

const electron = await vi.hoisted(async () => {
  const { createElectronMock, keepElectronFromDownloading } =
    await import('../../support/electron-mock.ts');
  keepElectronFromDownloading();
  return createElectronMock({ safeStorage: 'gnome_libsecret' });
});
vi.mock('electron', () => electron);

const { createElectronSettings } =
  await import('../../../src/main/environments/electron-settings.ts');
const { createElectronKeyStore } = await import('../../../src/main/keys/electron-key-store.ts');
const { createAppServices } = await import('../../../src/main/app-services.ts');

const RELEASES = join(import.meta.dirname, '..', '..', 'fixtures', 'releases');
const KEY = 'sk_live_Versioned-0a1b2c3d4e5f6a7b';
const ORIGIN = 'https://api.example.com';

const dirs: string[] = [];
function userData(): string {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-user-data-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
afterAll(() => vi.unstubAllEnvs());

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('settings.json', () => {
  it.each(readdirSync(RELEASES))(
    'of %s is read as it is, untouched by opening, and saved again with its version',
    (release) => {
      const dir = userData();
      cpSync(join(RELEASES, release, 'app', 'settings.json'), join(dir, 'settings.json'));
      const file = join(dir, 'settings.json');
      const before = readFileSync(file, 'utf8');
      const expected = parseSettings(json(file).settings);
      expect(expected.baseUrls.production).toBeDefined();

      const settings = createElectronSettings({ cwd: dir });
      expect(settings.read()).toEqual(expected);
      expect(readFileSync(file, 'utf8')).toBe(before);

      settings.write({ ...expected, activeEnvironment: 'staging' });
      expect(json(file)).toEqual({
        version: USER_DATA_FILES.settings.version,
        settings: { ...expected, activeEnvironment: 'staging' },
      });
      expect(createElectronSettings({ cwd: dir }).read()).toEqual({
        ...expected,
        activeEnvironment: 'staging',
      });
    },
  );

  it('of a newer release is left as it is: changes stay for the session, and it is said', () => {
    const dir = userData();
    const file = join(dir, 'settings.json');
    const text = JSON.stringify({
      version: 2,
      settings: { activeEnvironment: 'production', baseUrls: { production: `${ORIGIN}/v1` } },
      theme: 'dark',
    });
    writeFileSync(file, text);
    const settings = createElectronSettings({ cwd: dir });
    expect(settings.read().baseUrls.production).toBe(`${ORIGIN}/v1`);
    settings.write({ activeEnvironment: 'staging', baseUrls: { staging: `${ORIGIN}/v1` } });
    expect(settings.read()).toEqual({
      activeEnvironment: 'staging',
      baseUrls: { staging: `${ORIGIN}/v1` },
    });
    expect(readFileSync(file, 'utf8')).toBe(text);
    const newer = newerUserDataFiles(dir);
    expect(newer).toEqual([expect.any(NewerDataError)]);
    expect(newer[0]).toMatchObject({ file, found: 2, known: USER_DATA_FILES.settings.version });
  });
});

describe('api-keys.json', () => {
  async function keys(dir: string) {
    const store = createElectronKeyStore({ cwd: dir, platform: 'linux' });
    await store.ready();
    return store;
  }

  it('of an earlier release (no version) is read as it is, and saved again with its version', async () => {
    const dir = userData();
    const file = join(dir, 'api-keys.json');
    await (await keys(dir)).setKey('production', KEY, { origin: ORIGIN });
    // An earlier release's file: the same, without the version.
    const { version, ...earlier } = json(file);
    expect(version).toBe(USER_DATA_FILES.apiKeys.version);
    const before = JSON.stringify(earlier);
    writeFileSync(file, before);

    const reopened = await keys(dir);
    expect(reopened.getKey('production', ORIGIN)).toBe(KEY);
    expect(readFileSync(file, 'utf8')).toBe(before);
    await reopened.setKey('staging', KEY, { origin: ORIGIN });
    expect(json(file)).toMatchObject({ version: 1, production: earlier.production });
    reopened.removeKey('staging');
    expect(json(file)).toMatchObject({ version: 1, production: earlier.production });
  });

  it('of a newer release is left as it is; its keys are still used, and changes stay for the session', async () => {
    const dir = userData();
    const file = join(dir, 'api-keys.json');
    await (await keys(dir)).setKey('production', KEY, { origin: ORIGIN });
    const text = JSON.stringify({ ...json(file), version: 2, signedBy: 'a newer format' });
    writeFileSync(file, text);

    const reopened = await keys(dir);
    expect(reopened.getKey('production', ORIGIN)).toBe(KEY);
    await reopened.setKey('staging', KEY, { origin: ORIGIN });
    expect(reopened.getKey('staging', ORIGIN)).toBe(KEY);
    reopened.removeKey('production');
    expect(reopened.getKey('production', ORIGIN)).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(newerUserDataFiles(dir)).toEqual([
      expect.objectContaining({ file, found: 2, known: USER_DATA_FILES.apiKeys.version }),
    ]);
  });
});

describe('the storage notice', () => {
  it('says a userData file a newer release saved is left as it is, naming it', async () => {
    const dir = userData();
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ version: 3, settings: {} }));
    const services = createAppServices({
      dataDir: join(dir, 'local-data'),
      settings: createElectronSettings({ cwd: dir }),
      keys: createElectronKeyStore({ cwd: dir, platform: 'linux' }),
      confirmKeyForOrigin: async () => false,
      startSandbox: () => Promise.reject(new Error('not in this test')),
      newerUserData: newerUserDataFiles(dir),
    });
    try {
      expect(services.storage.problem()).toMatchObject({
        code: 'ENEWER',
        detail: 'Left as it is: settings.json (format 3; this version reads up to 1).',
      });
    } finally {
      await services.close();
    }
  });
});

describe('the list of the userData folder’s files', () => {
  it('gives each a version kept in a field, and an earlier form for every release that wrote it', () => {
    for (const format of Object.values(USER_DATA_FILES)) {
      expect(format.version, format.name).toBeGreaterThanOrEqual(1);
      expect(format.versionIn, format.name).toBe('field');
      expect(format.earlier.length, format.name).toBeGreaterThan(0);
    }
  });
});
