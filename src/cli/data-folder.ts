// Where the CLI keeps its data: the desktop app's own data folder (the
// userData folder src/main/index.ts sets from DATA_FOLDER_NAME, then
// local-data), so the app and the CLI on one computer share
// each key's gate state and pace together. STORE_ADMIN_DATA_DIR overrides it
// (tests, and anyone who keeps the app's data elsewhere).

import { homedir } from 'node:os';
import { join } from 'node:path';
import { DATA_FOLDER_NAME } from '../main/desktop/app-identity.ts';

export const DATA_DIR_VARIABLE = 'STORE_ADMIN_DATA_DIR';

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
