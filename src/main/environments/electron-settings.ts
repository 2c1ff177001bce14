// Settings (the chosen environment and the base URLs) in electron-store,
// which suits small data like this. Keys are not here: see src/main/keys.
// The file carries its format's version (local-data/data-files.ts).
import Store from 'electron-store';
import { USER_DATA_FILES } from '../local-data/data-files.ts';
import { versionedStoreFile } from '../local-data/versioned-store-file.ts';
import type { Settings, SettingsStore } from './environment-service.ts';
import { parseSettings } from './settings.ts';

export interface ElectronSettingsOptions {
  /** Absolute directory for the file; Electron's userData directory by default. */
  readonly cwd?: string;
}

export function createElectronSettings(options: ElectronSettingsOptions = {}): SettingsStore {
  const store = new Store<Record<string, unknown>>({
    name: 'settings',
    clearInvalidConfig: true,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const file = versionedStoreFile(store, USER_DATA_FILES.settings);
  return {
    read: () => parseSettings(file.get('settings')),
    write: (settings: Settings) => file.set('settings', settings),
  };
}
