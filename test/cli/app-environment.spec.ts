// Which environment of the app an address is kept under from a shell: read
// from the app's settings beside its data folder, `--env` first.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appSettingsFile, environmentOfAddress } from '../../src/cli/app-environment.ts';
import { DATA_FOLDER_NAME } from '../../src/main/desktop/app-identity.ts';

const STAGING = 'https://staging.example.com/v1';
const PRODUCTION = 'https://api.example.com/v1';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function settingsFile(content: string): string {
  dir = mkdtempSync(join(tmpdir(), 'store-admin-app-environment-'));
  const file = join(dir, 'settings.json');
  writeFileSync(file, content);
  return file;
}

describe('environmentOfAddress', () => {
  it('is Staging for the app’s Staging address, written as the clerk typed it', () => {
    const file = settingsFile(
      JSON.stringify({
        settings: { baseUrls: { staging: ` ${STAGING}/ `, production: PRODUCTION } },
      }),
    );
    expect(environmentOfAddress(STAGING, file)).toBe('staging');
    expect(environmentOfAddress(PRODUCTION, file)).toBe('production');
    expect(environmentOfAddress('https://other.example.com/v1', file)).toBe('production');
    expect(environmentOfAddress(PRODUCTION, file, 'staging')).toBe('staging');
  });

  it('is Production with no settings, damaged ones, or a version field beside them', () => {
    dir = mkdtempSync(join(tmpdir(), 'store-admin-app-environment-'));
    expect(environmentOfAddress(STAGING, undefined)).toBe('production');
    expect(environmentOfAddress(STAGING, join(dir, 'missing.json'))).toBe('production');
    expect(environmentOfAddress(STAGING, settingsFile('{"settings": {"baseUrls": '))).toBe(
      'production',
    );
    expect(
      environmentOfAddress(
        STAGING,
        settingsFile(JSON.stringify({ version: 2, settings: { baseUrls: { staging: STAGING } } })),
      ),
    ).toBe('staging');
  });
});

describe('appSettingsFile', () => {
  it('is beside the app’s data folder, and none for a data folder laid out otherwise', () => {
    dir = mkdtempSync(join(tmpdir(), 'store-admin-app-environment-'));
    const home = join(dir, 'home');
    mkdirSync(home);
    expect(appSettingsFile({}, 'linux', home)).toBe(
      join(home, '.config', DATA_FOLDER_NAME, 'settings.json'),
    );
    expect(
      appSettingsFile({ STORE_ADMIN_DATA_DIR: join(dir, 'u', 'local-data') }, 'linux', home),
    ).toBe(join(dir, 'u', 'settings.json'));
    expect(
      appSettingsFile({ STORE_ADMIN_DATA_DIR: join(dir, 'mine') }, 'linux', home),
    ).toBeUndefined();
  });
});
