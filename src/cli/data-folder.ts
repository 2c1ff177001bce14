// Where the CLI keeps its data: the desktop app's own data folder (the
// userData folder src/main/index.ts sets from DATA_FOLDER_NAME, then
// local-data), so the app and the CLI on one computer share
// each key's gate state and pace together. STORE_ADMIN_DATA_DIR overrides it
// (tests, and anyone who keeps the app's data elsewhere).

import { homedir } from 'node:os';
import { join } from 'node:path';
import { DATA_FOLDER_NAME } from '../main/desktop/app-identity.ts';

export const DATA_DIR_VARIABLE = 'STORE_ADMIN_DATA_DIR';
export const CACHE_DIR_VARIABLE = 'STORE_ADMIN_CACHE_DIR';

export function cliDataDir(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const override = env[DATA_DIR_VARIABLE]?.trim();
  if (override) return override;
  const appData =
    platform === 'win32'
      ? (env.APPDATA ?? join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? join(home, '.config'));
  return join(appData, DATA_FOLDER_NAME, 'local-data');
}

/**
 * Where the CLI keeps the order lists it saved (per address, the last two, for
 * `orders changes`): the user's cache folder, since they can be fetched
 * again. STORE_ADMIN_CACHE_DIR overrides it; with only STORE_ADMIN_DATA_DIR
 * set, a folder inside that one, so a test or a portable setup keeps
 * everything together.
 */
export function cliCacheDir(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const override = env[CACHE_DIR_VARIABLE]?.trim();
  if (override) return override;
  const data = env[DATA_DIR_VARIABLE]?.trim();
  if (data) return join(data, 'cli-lists');
  if (platform === 'win32')
    return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), DATA_FOLDER_NAME, 'Cache');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', DATA_FOLDER_NAME);
  return join(env.XDG_CACHE_HOME ?? join(home, '.cache'), 'store-admin');
}
