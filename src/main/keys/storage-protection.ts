// How well this computer can protect a saved key, from Electron's safeStorage:
// the Keychain on macOS, DPAPI on Windows, and on Linux whatever password
// manager Chromium picked, where `basic_text` is a hard-coded password.

/** The part of Electron's `safeStorage` the key store uses. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  /** Throws on data it cannot decrypt. */
  decryptString(encrypted: Buffer): string;
  /** Linux only. */
  getSelectedStorageBackend?(): string;
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

/** Asks safeStorage afresh each time: on Linux the answer changes once the app is ready. */
export function assessProtection(
  safeStorage: SafeStorageLike,
  platform: NodeJS.Platform,
): Protection {
  let available = false;
  try {
    available = safeStorage.isEncryptionAvailable();
  } catch {
    // Treated as unavailable.
  }
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
