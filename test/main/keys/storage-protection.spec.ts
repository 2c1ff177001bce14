import { describe, expect, it } from 'vitest';
import type { SafeStorageLike } from '../../../src/main/keys/storage-protection.ts';
import { assessProtection } from '../../../src/main/keys/storage-protection.ts';

function safeStorage(backend?: string): Pick<SafeStorageLike, 'getSelectedStorageBackend'> {
  return {
    ...(backend === undefined
      ? {}
      : {
          getSelectedStorageBackend: () => {
            if (backend === 'throws') throw new Error('boom');
            return backend;
          },
        }),
  };
}

describe('assessProtection', () => {
  it.each([
    ['darwin', undefined, 'os', 'the macOS Keychain'],
    ['win32', undefined, 'os', 'your Windows account'],
    ['linux', 'gnome_libsecret', 'os', 'the GNOME keyring'],
    ['linux', 'kwallet', 'os', 'KDE Wallet'],
    ['linux', 'kwallet5', 'os', 'KDE Wallet'],
    ['linux', 'kwallet6', 'os', 'KDE Wallet'],
    ['linux', 'basic_text', 'weak', 'no password store (only a password built into the app)'],
    ['linux', 'unknown', 'weak', 'an unrecognised password store (treated as none)'],
    ['linux', 'toString', 'weak', 'an unrecognised password store (treated as none)'],
    ['linux', 'throws', 'weak', 'an unrecognised password store (treated as none)'],
    ['linux', undefined, 'weak', 'an unrecognised password store (treated as none)'],
    ['freebsd', 'basic_text', 'weak', 'no password store (only a password built into the app)'],
  ] as const)('%s with backend %s is %s (%s)', (platform, backend, level, name) => {
    expect(assessProtection(true, safeStorage(backend), platform)).toEqual({
      level,
      backend: name,
    });
  });

  it.each(['darwin', 'win32', 'linux'] as const)(
    'is unavailable on %s when encryption is not available',
    (platform) => {
      expect(assessProtection(false, safeStorage('gnome_libsecret'), platform)).toEqual({
        level: 'unavailable',
        backend: 'no password store (encryption is not available)',
      });
    },
  );
});
