// Where the CLI keeps its data: the desktop app's own data folder (the
// userData folder src/main/index.ts sets from DATA_FOLDER_NAME, then
// local-data), so the app and the CLI on one computer share each key's gate
// state and pace together, and keep one history per service: the same
// lists, cancel log and review marks. STORE_ADMIN_DATA_DIR overrides it
// (tests, and anyone who keeps the app's data elsewhere); STORE_ADMIN_CACHE_DIR
// moves the lists and the cancel log alone.

import { homedir } from 'node:os';
import { join } from 'node:path';
import { DATA_FOLDER_NAME } from '../main/desktop/app-identity.ts';
import {
  CACHE_DIR_VARIABLE,
  DATA_DIR_VARIABLE,
  earlierCliListsFolder,
  mergeEarlierCliLists,
} from '../main/local-data/earlier-cli-lists.ts';

export { CACHE_DIR_VARIABLE, DATA_DIR_VARIABLE };

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
 * Where the CLI keeps the order lists it saved (per address, the last two,
 * for `orders changes`) and the cancel log: the app's data folder, as the
 * app's own, unless STORE_ADMIN_CACHE_DIR names another folder.
 */
export function cliCacheDir(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const override = env[CACHE_DIR_VARIABLE]?.trim();
  return override || cliDataDir(env, platform, home);
}

/**
 * The folder of the lists and the cancel log (cliCacheDir), with what
 * 0.2.0 to 0.4.0 kept in the CLI's own folder merged in first (once: the
 * earlier files go as they are merged). A folder that takes nothing now
 * leaves them for a later run.
 */
export async function cliListsFolder(
  env: Readonly<Record<string, string | undefined>>,
): Promise<string> {
  const folder = cliCacheDir(env);
  await mergeEarlierCliLists(earlierCliListsFolder(env), folder).catch(() => undefined);
  return folder;
}
