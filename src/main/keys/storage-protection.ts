// How well this computer can protect a saved key, from Electron's safeStorage:
// the Keychain on macOS, DPAPI on Windows, and on Linux whatever password
// manager Chromium picked, where `basic_text` is a hard-coded password.

/**
 * The part of Electron's `safeStorage` the key store uses: the asynchronous
 * API, since Electron 45 deprecates the synchronous one
 * (docs/api/safe-storage.md).
 */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  /** Rejects on data it cannot decrypt. */
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
  /** Linux only. */
  getSelectedStorageBackend?(): string;
  /**
   * Linux only: with basic_text, lets safeStorage encrypt under Chromium's
   * built-in password; the synchronous isEncryptionAvailable() says false
   * until this is called (electron_api_safe_storage.cc).
   */
  setUsePlainTextEncryption?(usePlainText: boolean): void;
}

/** `os`: a real OS secret store; `weak`: encryption works but protects nothing; `unavailable`: no encryption. */
export type ProtectionLevel = 'os' | 'weak' | 'unavailable';

export interface Protection {
  readonly level: ProtectionLevel;
  /** Plain-words name of the store, shown to the user. */
  readonly backend: string;
}

const LINUX_BACKENDS: Readonly<Record<string, Protection>> = {
  gnome_libsecret: { level: 'os', backend: 'the GNOME keyring' },
  kwallet: { level: 'os', backend: 'KDE Wallet' },
  kwallet5: { level: 'os', backend: 'KDE Wallet' },
  kwallet6: { level: 'os', backend: 'KDE Wallet' },
  basic_text: { level: 'weak', backend: 'no password store (only a password built into the app)' },
};

// 'unknown' is what Electron answers before `ready`; anything not recognised is
// treated as no protection rather than assumed to be safe.
const UNIDENTIFIED: Protection = {
  level: 'weak',
  backend: 'an unrecognised password store (treated as none)',
};
const UNAVAILABLE: Protection = {
  level: 'unavailable',
  backend: 'no password store (encryption is not available)',
};

/** What `available` (from isAsyncEncryptionAvailable) and the selected backend are worth. */
export function assessProtection(
  available: boolean,
  safeStorage: Pick<SafeStorageLike, 'getSelectedStorageBackend'>,
  platform: NodeJS.Platform,
): Protection {
  if (!available) return UNAVAILABLE;
  if (platform === 'darwin') return { level: 'os', backend: 'the macOS Keychain' };
  if (platform === 'win32') return { level: 'os', backend: 'your Windows account' };
  let selected = 'unknown';
  try {
    selected = safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
  } catch {
    // Treated as unidentified.
  }
  return Object.hasOwn(LINUX_BACKENDS, selected)
    ? (LINUX_BACKENDS[selected] ?? UNIDENTIFIED)
    : UNIDENTIFIED;
}
