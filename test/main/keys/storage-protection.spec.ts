import { describe, expect, it } from 'vitest';
import type { SafeStorageLike } from '../../../src/main/keys/storage-protection.ts';
import { assessProtection } from '../../../src/main/keys/storage-protection.ts';

function safeStorage(available: boolean | 'throws', backend?: string | 'throws'): SafeStorageLike {
  return {
    isEncryptionAvailable: () => {
      if (available === 'throws') throw new Error('not ready');
      return available;
    },
    encryptString: () => Buffer.alloc(0),
    decryptString: () => '',
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
    ['darwin', undefined, 'os', 'macOS Keychain'],
    ['win32', undefined, 'os', 'Windows DPAPI'],
    ['linux', 'gnome_libsecret', 'os', 'GNOME libsecret'],
    ['linux', 'kwallet', 'os', 'KWallet'],
    ['linux', 'kwallet5', 'os', 'KWallet 5'],
    ['linux', 'kwallet6', 'os', 'KWallet 6'],
    ['linux', 'basic_text', 'weak', 'basic text (no real protection)'],
    ['linux', 'unknown', 'weak', 'unidentified (treated as no real protection)'],
    ['linux', 'toString', 'weak', 'unidentified (treated as no real protection)'],
    ['linux', 'throws', 'weak', 'unidentified (treated as no real protection)'],
    ['linux', undefined, 'weak', 'unidentified (treated as no real protection)'],
    ['freebsd', 'basic_text', 'weak', 'basic text (no real protection)'],
  ] as const)('%s with backend %s is %s (%s)', (platform, backend, level, name) => {
    expect(assessProtection(safeStorage(true, backend), platform)).toEqual({
      level,
      backend: name,
    });
  });

  it.each(['darwin', 'win32', 'linux'] as const)(
    'is unavailable on %s when encryption is not available',
    (platform) => {
      expect(assessProtection(safeStorage(false, 'gnome_libsecret'), platform).level).toBe(
        'unavailable',
      );
      expect(assessProtection(safeStorage('throws', 'gnome_libsecret'), platform)).toEqual({
        level: 'unavailable',
        backend: 'none (encryption is not available)',
      });
    },
  );
});
