// Electron's safeStorage, per backend (shell/browser/api/electron_api_safe_storage.cc,
// docs/api/safe-storage.md), with Chromium's own ciphertext formats
// (components/os_crypt): one model for the stand-in and the unit tests' mock.
//
// - Nothing works before `ready`: the availability checks say false, the
//   backend is "unknown", encrypting or decrypting throws "safeStorage cannot
//   be used before app is ready".
// - Linux picks its backend as Chromium does (key_storage_util_linux.cc): from
//   the desktop (GNOME and friends: gnome_libsecret; KDE 4/5/6: kwallet,
//   kwallet5, kwallet6; anything else: basic_text) unless --password-store
//   says otherwise. With a keyring, ciphertext is "v11" under a random
//   password kept in that keyring. With basic_text it is "v10" under the
//   password built into Chromium ("peanuts"): protection in name only, and the
//   synchronous `isEncryptionAvailable()` says false until the app calls
//   `setUsePlainTextEncryption(true)`. The asynchronous check says true for
//   basic_text too (its encryptor is always made once the app is ready).
// - `unavailable` stands for a keyring that is selected but cannot be reached
//   (locked, or no daemon): nothing encrypts, both checks say false.
// - macOS (Keychain) and Windows (DPAPI) are "v10" under a per-user secret
//   the OS keeps; both are available once the app is ready.
// The secrets a keyring, the Keychain or DPAPI would keep live in a
// `SecretStore` (a file in the stand-in, memory in the unit tests).

import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from 'node:crypto';

export type StorageBackend =
  | 'keychain' // macOS
  | 'dpapi' // Windows
  | 'gnome_libsecret'
  | 'kwallet'
  | 'kwallet5'
  | 'kwallet6'
  | 'basic_text'
  | 'unavailable';

export const STORAGE_BACKENDS: readonly StorageBackend[] = [
  'keychain',
  'dpapi',
  'gnome_libsecret',
  'kwallet',
  'kwallet5',
  'kwallet6',
  'basic_text',
  'unavailable',
];

export function platformForBackend(backend: StorageBackend): NodeJS.Platform {
  if (backend === 'keychain') return 'darwin';
  if (backend === 'dpapi') return 'win32';
  return 'linux';
}

/** Where an OS would keep the app's encryption secret (per backend). */
export interface SecretStore {
  get(backend: StorageBackend): string | undefined;
  set(backend: StorageBackend, secret: string): void;
}

export function memorySecretStore(): SecretStore {
  const secrets = new Map<StorageBackend, string>();
  return { get: (b) => secrets.get(b), set: (b, s) => void secrets.set(b, s) };
}

/** Chromium's choice of Linux backend from the desktop and --password-store. */
export function selectLinuxBackend(
  desktop: string | undefined,
  passwordStore: string | undefined,
): StorageBackend {
  const store = passwordStore?.toLowerCase();
  if (store === 'basic') return 'basic_text';
  if (store === 'gnome-libsecret' || store === 'gnome') return 'gnome_libsecret';
  if (store === 'kwallet' || store === 'kwallet5' || store === 'kwallet6') return store;
  const session = (desktop ?? '').toLowerCase();
  if (/\b(gnome|x-cinnamon|cinnamon|deepin|pantheon|xfce|ukui|unity)\b/.test(session))
    return 'gnome_libsecret';
  if (/\bkde\b/.test(session)) {
    const version = process.env.KDE_SESSION_VERSION;
    return version === '6' ? 'kwallet6' : version === '5' ? 'kwallet5' : 'kwallet';
  }
  return 'basic_text';
}

const SALT = 'saltysalt';
const IV = Buffer.alloc(16, ' ');
const NOT_READY = 'safeStorage cannot be used before app is ready';

function linuxKey(password: string): Buffer {
  return pbkdf2Sync(password, SALT, 1, 16, 'sha1');
}

export interface SafeStorageModelOptions {
  readonly backend: StorageBackend;
  readonly isReady: () => boolean;
  readonly secrets?: SecretStore;
}

export class SafeStorageModel {
  #backend: StorageBackend;
  readonly #isReady: () => boolean;
  readonly #secrets: SecretStore;
  #usePlainText = false;
  /** How often each operation ran (tests: "decrypted once, not per log line"). */
  readonly calls = { encrypt: 0, decrypt: 0 };

  constructor(options: SafeStorageModelOptions) {
    this.#backend = options.backend;
    this.#isReady = options.isReady;
    this.#secrets = options.secrets ?? memorySecretStore();
  }

  get backend(): StorageBackend {
    return this.#backend;
  }

  /** As another desktop session or a keyring that went away would. */
  setBackend(backend: StorageBackend): void {
    this.#backend = backend;
  }

  get platform(): NodeJS.Platform {
    return platformForBackend(this.#backend);
  }

  isEncryptionAvailable(): boolean {
    if (!this.#isReady()) return false;
    switch (this.#backend) {
      case 'unavailable':
        return false;
      case 'basic_text':
        return this.#usePlainText;
      default:
        return true;
    }
  }

  async isAsyncEncryptionAvailable(): Promise<boolean> {
    if (!this.#isReady()) return false;
    return this.#backend !== 'unavailable';
  }

  setUsePlainTextEncryption(usePlainText: boolean): void {
    this.#usePlainText = usePlainText;
  }

  /** Whether the app asked for plain-text encryption (tests read it). */
  get usesPlainText(): boolean {
    return this.#usePlainText;
  }

  getSelectedStorageBackend():
    'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown' {
    if (!this.#isReady()) return 'unknown';
    switch (this.#backend) {
      case 'basic_text':
      case 'gnome_libsecret':
      case 'kwallet':
      case 'kwallet5':
      case 'kwallet6':
        return this.#backend;
      case 'unavailable':
        return 'gnome_libsecret';
      default:
        return 'unknown';
    }
  }

  encryptString(plainText: string): Buffer {
    if (!this.isEncryptionAvailable()) {
      if (!this.#isReady()) throw new Error(NOT_READY);
      throw new Error(
        'Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.',
      );
    }
    return this.#encrypt(plainText);
  }

  decryptString(encrypted: Buffer): string {
    if (!this.isEncryptionAvailable()) {
      if (!this.#isReady()) throw new Error(NOT_READY);
      throw new Error(
        'Error while decrypting the ciphertext provided to safeStorage.decryptString. Decryption is not available.',
      );
    }
    if (!Buffer.isBuffer(encrypted))
      throw new Error('Expected the first argument of decryptString() to be a buffer');
    if (encrypted.length === 0) return '';
    const prefix = encrypted.subarray(0, 3).toString('latin1');
    if (prefix !== 'v10' && prefix !== 'v11')
      throw new Error(
        'Error while decrypting the ciphertext provided to safeStorage.decryptString. Ciphertext does not appear to be encrypted.',
      );
    const plain = this.#decrypt(encrypted);
    if (plain === undefined)
      throw new Error(
        'Error while decrypting the ciphertext provided to safeStorage.decryptString.',
      );
    return plain;
  }

  async encryptStringAsync(plainText: string): Promise<Buffer> {
    if (!this.#isReady()) throw new Error(NOT_READY);
    if (this.#backend === 'unavailable')
      throw new Error(
        'Error while encrypting the text provided to safeStorage.encryptStringAsync.',
      );
    return this.#encrypt(plainText);
  }

  async decryptStringAsync(
    encrypted: Buffer,
  ): Promise<{ shouldReEncrypt: boolean; result: string }> {
    if (!this.#isReady()) throw new Error(NOT_READY);
    if (!Buffer.isBuffer(encrypted))
      throw new Error('Expected the first argument of decryptStringAsync() to be a buffer');
    if (encrypted.length === 0) return { shouldReEncrypt: false, result: '' };
    if (this.#backend === 'unavailable')
      throw new Error(
        'safeStorage.decryptStringAsync is temporarily unavailable. Please try again.',
      );
    const plain = this.#decrypt(encrypted);
    if (plain === undefined)
      throw new Error(
        'Error while decrypting the ciphertext provided to safeStorage.decryptStringAsync.',
      );
    return { shouldReEncrypt: false, result: plain };
  }

  #secret(): string {
    let secret = this.#secrets.get(this.#backend);
    if (secret === undefined) {
      secret = randomBytes(16).toString('base64');
      this.#secrets.set(this.#backend, secret);
    }
    return secret;
  }

  #encrypt(plainText: string): Buffer {
    this.calls.encrypt += 1;
    const plain = Buffer.from(plainText, 'utf8');
    switch (this.#backend) {
      case 'basic_text': {
        const cipher = createCipheriv('aes-128-cbc', linuxKey('peanuts'), IV);
        return Buffer.concat([Buffer.from('v10'), cipher.update(plain), cipher.final()]);
      }
      case 'keychain': {
        const key = pbkdf2Sync(this.#secret(), SALT, 1003, 16, 'sha1');
        const cipher = createCipheriv('aes-128-cbc', key, IV);
        return Buffer.concat([Buffer.from('v10'), cipher.update(plain), cipher.final()]);
      }
      case 'dpapi': {
        const key = Buffer.from(this.#secret().padEnd(44, '='), 'base64').subarray(0, 16);
        const nonce = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', Buffer.concat([key, key]), nonce);
        const body = Buffer.concat([cipher.update(plain), cipher.final()]);
        return Buffer.concat([Buffer.from('v10'), nonce, body, cipher.getAuthTag()]);
      }
      default: {
        const cipher = createCipheriv('aes-128-cbc', linuxKey(this.#secret()), IV);
        return Buffer.concat([Buffer.from('v11'), cipher.update(plain), cipher.final()]);
      }
    }
  }

  #decrypt(encrypted: Buffer): string | undefined {
    this.calls.decrypt += 1;
    const prefix = encrypted.subarray(0, 3).toString('latin1');
    const body = encrypted.subarray(3);
    try {
      if (this.#backend === 'dpapi') {
        if (prefix !== 'v10') return undefined;
        const key = Buffer.from(this.#secret().padEnd(44, '='), 'base64').subarray(0, 16);
        const decipher = createDecipheriv(
          'aes-256-gcm',
          Buffer.concat([key, key]),
          body.subarray(0, 12),
        );
        decipher.setAuthTag(body.subarray(body.length - 16));
        return Buffer.concat([
          decipher.update(body.subarray(12, body.length - 16)),
          decipher.final(),
        ]).toString('utf8');
      }
      const key =
        this.#backend === 'keychain'
          ? pbkdf2Sync(this.#secret(), SALT, 1003, 16, 'sha1')
          : prefix === 'v10'
            ? linuxKey('peanuts')
            : this.#backend === 'basic_text'
              ? undefined
              : linuxKey(this.#secret());
      if (!key) return undefined;
      const decipher = createDecipheriv('aes-128-cbc', key, IV);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
