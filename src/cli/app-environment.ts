// Which of the app's environments an address is to the command line. The
// app keeps each environment's lists, cancel log and marks per address
// (main/environments/service-scope.ts): an address it has under Staging is
// Staging's history, apart from Production's even at the same address. The
// command line shares that history, so it keeps an address under the
// environment the app has it in: `--env` when given, else Staging when the
// app's Staging is this address and its Production is not, else Production.

import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { validateBaseUrl } from '../shared/environments.ts';
import { parseSettings } from '../main/environments/settings.ts';
import { cliDataDir } from './data-folder.ts';

/** The environments an address can be kept under from a shell (the sandbox is the app's own). */
export const CLI_ENVIRONMENTS = ['production', 'staging'] as const;
export type CliEnvironment = (typeof CLI_ENVIRONMENTS)[number];

export function isCliEnvironment(value: string): value is CliEnvironment {
  return (CLI_ENVIRONMENTS as readonly string[]).includes(value);
}

/**
 * The app's settings (electron-store's settings.json in its userData folder,
 * beside the data folder), when the data folder is laid out as the app lays
 * it out (`<userData>/local-data`); undefined for a data folder elsewhere.
 */
export function appSettingsFile(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string | undefined {
  const dataDir = cliDataDir(env, platform, home);
  return basename(dataDir) === 'local-data' ? join(dirname(dataDir), 'settings.json') : undefined;
}

/** The app's environments' addresses, or none when its settings cannot be read (no app, or damaged). */
function appAddresses(settingsFile: string | undefined): Partial<Record<CliEnvironment, string>> {
  if (settingsFile === undefined) return {};
  try {
    const stored = JSON.parse(readFileSync(settingsFile, 'utf8')) as { settings?: unknown };
    return parseSettings(stored.settings).baseUrls;
  } catch {
    return {};
  }
}

const same = (a: string | undefined, b: string): boolean => {
  if (a === undefined) return false;
  const checked = validateBaseUrl(a);
  return (checked.ok ? checked.value : a) === b;
};

/** The environment the app keeps `baseUrl` (already validated) under; `chosen` (`--env`) wins. */
export function environmentOfAddress(
  baseUrl: string,
  settingsFile: string | undefined,
  chosen?: CliEnvironment,
): CliEnvironment {
  if (chosen) return chosen;
  const app = appAddresses(settingsFile);
  return same(app.staging, baseUrl) && !same(app.production, baseUrl) ? 'staging' : 'production';
}
