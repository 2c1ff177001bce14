// Where the CLI keeps its data: the desktop app's own data folder (Electron's
// userData for the app name "store-admin", then local-data, as
// src/main/index.ts sets it), so the app and the CLI on one computer share
// each key's gate state and pace together. STORE_ADMIN_DATA_DIR overrides it
// (tests, and anyone who keeps the app's data elsewhere).

import { homedir } from 'node:os';
import { join } from 'node:path';

export const DATA_DIR_VARIABLE = 'STORE_ADMIN_DATA_DIR';
/** The app's name as Electron takes it for its userData folder (package.json "name"). */
const APP_FOLDER = 'store-admin';

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
  return join(appData, APP_FOLDER, 'local-data');
}
