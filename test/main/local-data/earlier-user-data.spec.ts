// Release 0.1.0's userData folder (`store-admin`), moved into today's
// (`Store Admin`) at start-up: its local data, settings and keys, unless
// today's folder has its own. The corpus's 0.1.0 folder is the example.

import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATA_FOLDER_NAME } from '../../../src/main/desktop/app-identity.ts';
import { adoptEarlierUserData } from '../../../src/main/local-data/earlier-user-data.ts';

const CORPUS_0_1 = join(import.meta.dirname, '..', '..', 'fixtures', 'releases', '0.1.0', 'app');

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function appData(): string {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-app-data-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("0.1.0's userData folder", () => {
  it('is moved into today’s, which Electron has made by then but holds none of it', () => {
    const root = appData();
    cpSync(CORPUS_0_1, join(root, 'store-admin'), { recursive: true });
    const userData = join(root, DATA_FOLDER_NAME);
    // Chromium's own files are there before the app's code runs.
    mkdirSync(userData);
    writeFileSync(join(userData, 'Preferences'), '{}');

    expect(adoptEarlierUserData(root, userData)).toEqual(['local-data', 'settings.json']);
    expect(readFileSync(join(userData, 'settings.json'), 'utf8')).toBe(
      readFileSync(join(CORPUS_0_1, 'settings.json'), 'utf8'),
    );
    expect(existsSync(join(userData, 'local-data', 'orders-production.cache'))).toBe(true);
    // Once: nothing is left to move.
    expect(adoptEarlierUserData(root, userData)).toEqual([]);
  });

  it("leaves it where it is when today's folder has its own", () => {
    const root = appData();
    cpSync(CORPUS_0_1, join(root, 'store-admin'), { recursive: true });
    const userData = join(root, DATA_FOLDER_NAME);
    mkdirSync(join(userData, 'local-data'), { recursive: true });
    writeFileSync(join(userData, 'settings.json'), '{"settings":{}}');
    expect(adoptEarlierUserData(root, userData)).toEqual([]);
    expect(existsSync(join(root, 'store-admin', 'local-data'))).toBe(true);
  });
});
