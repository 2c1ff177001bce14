// Release 0.1.0 ran under the package's name, so Electron kept its userData
// folder as `store-admin` (e.g. ~/.config/store-admin); since 0.2.0 the app
// names it `Store Admin` (desktop/app-identity.ts). What 0.1.0 saved there
// (the local data, the settings, the keys' ciphertext) is moved into
// today's folder at start-up, before anything reads it, unless today's
// folder already has its own: a clerk who used both keeps today's.

import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { CARRIED_FROM_EARLIER_FOLDER } from './data-files.ts';

/** 0.1.0's userData folder name, under the OS's application-data folder. */
export const EARLIER_USER_DATA_NAME = 'store-admin';

/**
 * Moves what 0.1.0 saved in `<appData>/store-admin` into `userData`.
 * Returns the names moved (for the log). Each is moved whole or not at all
 * (a rename on one disk); one that cannot be moved is left for the next start.
 */
export function adoptEarlierUserData(appData: string, userData: string): string[] {
  const earlier = join(appData, EARLIER_USER_DATA_NAME);
  if (earlier === userData || !existsSync(earlier)) return [];
  const moved: string[] = [];
  for (const name of CARRIED_FROM_EARLIER_FOLDER) {
    const from = join(earlier, name);
    const to = join(userData, name);
    if (!existsSync(from) || existsSync(to)) continue;
    try {
      renameSync(from, to);
      moved.push(name);
    } catch {
      // another disk, or no right to it: left where it is, and the app starts without it
    }
  }
  return moved;
}
