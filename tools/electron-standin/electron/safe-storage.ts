// safeStorage in the stand-in: the shared model (model/safe-storage.ts) with
// the backend Chromium would pick here, or the one ELECTRON_STANDIN_PASSWORD_STORE
// names (gnome_libsecret, kwallet, kwallet5, kwallet6, basic_text, unavailable),
// as Electron's --password-store switch would. The "keyring" is a file
// (ELECTRON_STANDIN_SECRETS, or the stand-in's folder under XDG_DATA_HOME),
// so a key saved in one run decrypts in the next, as with a real keyring.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  SafeStorageModel,
  selectLinuxBackend,
  STORAGE_BACKENDS,
  type SecretStore,
  type StorageBackend,
} from '../model/safe-storage.ts';
import { app } from './app.ts';
import { runtimeSettings } from './runtime.ts';

function secretsFile(): string {
  return (
    process.env.ELECTRON_STANDIN_SECRETS ??
    join(
      process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share'),
      'electron-standin',
      'secrets.json',
    )
  );
}

function fileSecretStore(file: string): SecretStore {
  const read = (): Record<string, string> => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    } catch {
      return {};
    }
  };
  return {
    get: (backend) => read()[backend],
    set: (backend, secret) => {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ ...read(), [backend]: secret }), { mode: 0o600 });
    },
  };
}

function chosenBackend(): StorageBackend {
  const named = process.env.ELECTRON_STANDIN_PASSWORD_STORE as StorageBackend | undefined;
  if (named !== undefined) {
    if (!STORAGE_BACKENDS.includes(named))
      throw new Error(
        `ELECTRON_STANDIN_PASSWORD_STORE must be one of ${STORAGE_BACKENDS.join(', ')}`,
      );
    return named;
  }
  if (process.platform === 'darwin') return 'keychain';
  if (process.platform === 'win32') return 'dpapi';
  return selectLinuxBackend(
    process.env.XDG_CURRENT_DESKTOP ?? process.env.DESKTOP_SESSION,
    runtimeSettings().switches.get('password-store') ??
      app.commandLine.getSwitchValue('password-store'),
  );
}

export const safeStorage = new SafeStorageModel({
  backend: chosenBackend(),
  isReady: () => app.isReady(),
  secrets: fileSecretStore(secretsFile()),
});
