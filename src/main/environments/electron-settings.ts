// Settings (the chosen environment and the base URLs) in electron-store,
// which suits small data like this. Keys are not here: see src/main/keys.
import Store from 'electron-store';
import type { Settings, SettingsStore } from './environment-service.ts';
import { parseSettings } from './settings.ts';

export function createElectronSettings(): SettingsStore {
  const store = new Store<{ settings: unknown }>({ name: 'settings', clearInvalidConfig: true });
  return {
    read: () => parseSettings(store.get('settings')),
    write: (settings: Settings) => store.set('settings', settings),
  };
}
