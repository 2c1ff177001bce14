import { describe, expect, it, vi } from 'vitest';
import { InvalidKeyError } from '../../../src/main/keys/key-validation.ts';
import type { KeyStatus } from '../../../src/shared/key-status.ts';
import { KeyStore } from '../../../src/main/keys/key-store.ts';
import { MemoryCiphertextStore } from '../../../src/main/keys/memory-ciphertext-store.ts';
import type { SafeStorageLike } from '../../../src/main/keys/storage-protection.ts';
import type { FakeStorageBackend } from '../../support/electron-mock.ts';
import {
  containsPlaintext,
  FakeSafeStorage,
  platformForBackend,
} from '../../support/electron-mock.ts';

const PROD_KEY = 'sk_live_Prod-7f3a9c1e5b2d4a6f';
const STAGING_KEY = 'sk_test_Stage-0c8e2a4b6d1f3e5a';
/** The address the keys are read for (a key saved without one binds to it at the first read). */
const ORIGIN = 'https://api.example.com';

async function setup(backend: FakeStorageBackend, store = new MemoryCiphertextStore()) {
  const safeStorage = new FakeSafeStorage(backend);
  const keys = new KeyStore({ safeStorage, store, platform: platformForBackend(backend) });
  const events: KeyStatus[] = [];
  keys.onChange((status) => events.push(status));
  await keys.ready();
  /** The same saved data seen by a fresh app run (the keys it loads decrypted once). */
  const restart = async (): Promise<KeyStore> => {
    const next = new KeyStore({ safeStorage, store, platform: platformForBackend(backend) });
    await next.ready();
    return next;
  };
  return { safeStorage, store, keys, events, restart };
}

/** Flips one bit in the middle of the saved ciphertext. */
function tamper(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  const i = Math.floor(bytes.length / 2);
  bytes[i] = (bytes[i] ?? 0) ^ 0x01;
  return bytes.toString('base64');
}

describe.each([
  { backend: 'keychain', name: 'the macOS Keychain' },
  { backend: 'dpapi', name: 'your Windows account' },
  { backend: 'gnome_libsecret', name: 'the GNOME keyring' },
  { backend: 'kwallet6', name: 'KDE Wallet' },
] as const)('with a real OS secret store ($backend)', ({ backend, name }) => {
  it('reports no key and no warning before one is set', async () => {
    const { keys } = await setup(backend);
    expect(keys.status('production')).toEqual({
      environment: 'production',
      set: false,
      storage: 'none',
      backend: name,
      weak: false,
      canAcceptWeakStorage: false,
    });
    expect(keys.getKey('production', ORIGIN)).toBeUndefined();
  });

  it('saves the key encrypted: the store holds ciphertext that is not the key and round-trips', async () => {
    const { keys, store, safeStorage, restart } = await setup(backend);
    const status = await keys.setKey('production', PROD_KEY);

    expect(status).toEqual({
      environment: 'production',
      set: true,
      storage: 'os-encrypted',
      backend: name,
      weak: false,
      canAcceptWeakStorage: false,
    });
    const saved = store.get('production')?.ciphertext;
    expect(saved).toBeDefined();
    expect(saved).not.toContain(PROD_KEY);
    const bytes = Buffer.from(saved ?? '', 'base64');
    expect(bytes.toString('latin1')).not.toContain(PROD_KEY.slice(0, 6));
    expect(safeStorage.decryptString(bytes)).toBe(`production\n${PROD_KEY}`);
    expect(containsPlaintext(JSON.stringify(store.snapshot()), PROD_KEY)).toBe(false);

    expect(keys.getKey('production', ORIGIN)).toBe(PROD_KEY);
    const nextRun = await restart();
    expect(nextRun.getKey('production', ORIGIN)).toBe(PROD_KEY);
    expect(nextRun.status('production').storage).toBe('os-encrypted');
  });

  it('ignores acceptWeakStorage, since the protection is real', async () => {
    const { keys, store } = await setup(backend);
    expect((await keys.setKey('staging', STAGING_KEY, { acceptWeakStorage: true })).storage).toBe(
      'os-encrypted',
    );
    expect(store.getWeakAccepted('staging')).toBe(false);
  });
});

describe('on Linux with basic_text (no real protection)', () => {
  it('warns before any key is entered and offers weak storage', async () => {
    const { keys } = await setup('basic_text');
    const status = keys.status('production');
    expect(status).toMatchObject({
      set: false,
      storage: 'none',
      backend: 'no password store (only a password built into the app)',
      weak: true,
      canAcceptWeakStorage: true,
    });
    expect(status.notice).toMatch(/would not be protected/);
    expect(status.notice).toMatch(/kept until you quit/);
  });

  it('keeps the key for this session only by default and saves nothing', async () => {
    const { keys, store, restart, safeStorage } = await setup('basic_text');
    const status = await keys.setKey('production', PROD_KEY);

    expect(status).toMatchObject({
      set: true,
      storage: 'session-only',
      weak: true,
      canAcceptWeakStorage: true,
    });
    expect(status.notice).toMatch(/Enter it again each time Store Admin starts/);
    expect(status.notice).toMatch(/save the Production key anyway/);
    expect(keys.getKey('production', ORIGIN)).toBe(PROD_KEY);
    expect(store.snapshot()).toEqual({ ciphertexts: {}, origins: {}, weakAccepted: [] });
    expect(safeStorage.calls.encrypt).toBe(0);
    expect((await restart()).status('production').set).toBe(false);
  });

  it('saves the key only after the user explicitly accepts weak storage, and says so', async () => {
    const { keys, store, restart } = await setup('basic_text');
    const status = await keys.setKey('production', PROD_KEY, { acceptWeakStorage: true });

    expect(status).toMatchObject({ set: true, storage: 'weak-accepted', weak: true });
    expect(status.notice).toMatch(/Anyone who can read your files can read the Production key/);
    const saved = store.get('production')?.ciphertext;
    expect(saved).toBeDefined();
    expect(containsPlaintext(saved ?? '', PROD_KEY)).toBe(false);
    expect(store.getWeakAccepted('production')).toBe(true);

    const nextRun = await restart();
    expect(nextRun.getKey('production', ORIGIN)).toBe(PROD_KEY);
    expect(nextRun.status('production').storage).toBe('weak-accepted');
  });

  it('remembers the acceptance for that environment only', async () => {
    const { keys } = await setup('basic_text');
    await keys.setKey('production', PROD_KEY, { acceptWeakStorage: true });

    expect((await keys.setKey('production', `${PROD_KEY}-rotated`)).storage).toBe('weak-accepted');
    expect((await keys.setKey('staging', STAGING_KEY)).storage).toBe('session-only');
  });

  it('withdrawing the acceptance keeps the new key in memory and deletes the saved one', async () => {
    const { keys, store, restart } = await setup('basic_text');
    await keys.setKey('production', PROD_KEY, { acceptWeakStorage: true });

    const status = await keys.setKey('production', `${PROD_KEY}-rotated`, {
      acceptWeakStorage: false,
    });
    expect(status.storage).toBe('session-only');
    expect(store.get('production')).toBeUndefined();
    expect(store.getWeakAccepted('production')).toBe(false);
    expect(keys.getKey('production', ORIGIN)).toBe(`${PROD_KEY}-rotated`);
    expect((await restart()).getKey('production', ORIGIN)).toBeUndefined();
  });

  it('removeKey also forgets the acceptance', async () => {
    const { keys, store } = await setup('basic_text');
    await keys.setKey('production', PROD_KEY, { acceptWeakStorage: true });
    keys.removeKey('production');

    expect(store.getWeakAccepted('production')).toBe(false);
    expect((await keys.setKey('production', PROD_KEY)).storage).toBe('session-only');
  });
});

describe('on Linux with basic_text, saving anyway', () => {
  it('tells safeStorage to use its built-in password, as Electron requires, and only then', async () => {
    const { keys, safeStorage, restart } = await setup('basic_text');
    await keys.setKey('production', PROD_KEY);
    // Kept for the session: safeStorage was not asked to encrypt in plain text.
    expect(safeStorage.isEncryptionAvailable()).toBe(false);
    await keys.setKey('production', PROD_KEY, { acceptWeakStorage: true });
    expect(safeStorage.isEncryptionAvailable()).toBe(true);
    // A new run of the app (a fresh safeStorage) is told again while loading the accepted key.
    safeStorage.setUsePlainTextEncryption(false);
    const next = await restart();
    expect(safeStorage.isEncryptionAvailable()).toBe(true);
    expect(next.getKey('production', ORIGIN)).toBe(PROD_KEY);
  });
});

describe('scrubbing keys from log lines', () => {
  it('decrypts nothing: the keys were decrypted once, when the store loaded', async () => {
    const { keys, safeStorage, restart } = await setup('gnome_libsecret');
    await keys.setKey('production', PROD_KEY);
    await keys.setKey('staging', STAGING_KEY);
    const next = await restart();
    const decrypts = safeStorage.calls.decrypt;
    for (let line = 0; line < 1_000; line++) next.keysToScrub();
    expect(next.keysToScrub().sort()).toEqual([PROD_KEY, STAGING_KEY].sort());
    expect(safeStorage.calls.decrypt).toBe(decrypts);
  });
});

describe('on Linux with an unidentified backend', () => {
  it('treats it as weak rather than assuming protection', async () => {
    const safeStorage: SafeStorageLike = {
      isAsyncEncryptionAvailable: async () => true,
      encryptStringAsync: async (plain) => Buffer.from(plain),
      decryptStringAsync: async (buf) => ({ result: buf.toString(), shouldReEncrypt: false }),
      getSelectedStorageBackend: () => 'unknown',
    };
    const keys = new KeyStore({
      safeStorage,
      store: new MemoryCiphertextStore(),
      platform: 'linux',
    });
    expect(await keys.setKey('production', PROD_KEY)).toMatchObject({
      storage: 'session-only',
      weak: true,
    });
  });
});

describe('with no encryption available', () => {
  it('warns, and offers no weak storage', async () => {
    const { keys } = await setup('unavailable');
    const status = keys.status('staging');
    expect(status).toMatchObject({
      set: false,
      storage: 'none',
      backend: 'no password store (encryption is not available)',
      weak: true,
      canAcceptWeakStorage: false,
    });
    expect(status.notice).toMatch(/kept until you quit/);
  });

  it('keeps keys for this session only, even when the user accepts weak storage', async () => {
    const { keys, store, restart } = await setup('unavailable');
    const status = await keys.setKey('staging', STAGING_KEY, { acceptWeakStorage: true });

    expect(status).toMatchObject({
      set: true,
      storage: 'session-only',
      weak: true,
      canAcceptWeakStorage: false,
    });
    expect(status.notice).toMatch(/again each time Store Admin starts/);
    expect(keys.getKey('staging', ORIGIN)).toBe(STAGING_KEY);
    expect(store.snapshot()).toEqual({ ciphertexts: {}, origins: {}, weakAccepted: [] });
    expect((await restart()).getKey('staging', ORIGIN)).toBeUndefined();
  });

  it('keeps a key saved earlier (it may be readable again later) and says it cannot be read now', async () => {
    const { keys, store, safeStorage, restart } = await setup('gnome_libsecret');
    await keys.setKey('production', PROD_KEY);
    // The next start finds the keyring locked.
    safeStorage.setBackend('unavailable');
    const next = await restart();
    const events: KeyStatus[] = [];
    next.onChange((status) => events.push(status));

    const locked = next.status('production');
    expect(locked).toMatchObject({ set: false, storage: 'none', problem: 'locked' });
    expect(locked.notice).toMatch(/cannot be read/);
    expect(next.getKey('production', ORIGIN)).toBeUndefined();
    expect(store.get('production')).toBeDefined();
    expect(events).toEqual([]);

    // Unlocked by the start after that: the key is there again.
    safeStorage.setBackend('gnome_libsecret');
    expect((await restart()).getKey('production', ORIGIN)).toBe(PROD_KEY);
  });
});

describe('a saved key that cannot be decrypted', () => {
  /** A start on the saved data as it is now, with its events from the first one. */
  async function startOn(safeStorage: FakeSafeStorage, store: MemoryCiphertextStore) {
    const keys = new KeyStore({
      safeStorage,
      store,
      platform: platformForBackend(safeStorage.backend),
    });
    const events: KeyStatus[] = [];
    keys.onChange((status) => events.push(status));
    await keys.ready();
    return { keys, events };
  }

  it('is removed at the next start, and the status says to enter it again', async () => {
    const { keys: first, store, safeStorage } = await setup('keychain');
    await first.setKey('production', PROD_KEY);
    store.set('production', { ciphertext: tamper(store.get('production')?.ciphertext ?? '') });
    const { keys, events } = await startOn(safeStorage, store);

    const status = keys.status('production');
    expect(status).toMatchObject({ set: false, storage: 'none', problem: 'undecryptable' });
    expect(status.notice).toMatch(/could not be read.*removed\. Enter it again/);
    expect(store.get('production')).toBeUndefined();
    expect(events).toEqual([status]);

    // The notice stays until the user acts, without further events.
    expect(keys.status('production').problem).toBe('undecryptable');
    expect(events).toHaveLength(1);
    const fixed = await keys.setKey('production', PROD_KEY);
    expect(fixed.problem).toBeUndefined();
    expect(fixed.notice).toBeUndefined();
  });

  it('is not handed out: getKey returns undefined', async () => {
    const { store, safeStorage } = await setup('dpapi');
    store.set('staging', { ciphertext: 'bm90IGEgY2lwaGVydGV4dA==' });
    const { keys, events } = await startOn(safeStorage, store);

    expect(keys.getKey('staging', ORIGIN)).toBeUndefined();
    expect(store.get('staging')).toBeUndefined();
    expect(events.map((e) => e.problem)).toEqual(['undecryptable']);
  });

  it.each([
    ['not base64', '%%% not base64 %%%'],
    ['empty', ''],
    ['truncated base64', 'djEx='],
  ])('is removed when it is garbage (%s)', async (_label, garbage) => {
    const { store, safeStorage } = await setup('gnome_libsecret');
    store.set('production', { ciphertext: garbage });
    const { keys } = await startOn(safeStorage, store);
    expect(keys.status('production').problem).toBe('undecryptable');
    expect(store.get('production')).toBeUndefined();
  });

  it('is removed when the password store changed (libsecret to KWallet)', async () => {
    const { keys: first, store, safeStorage } = await setup('gnome_libsecret');
    await first.setKey('production', PROD_KEY);
    safeStorage.setBackend('kwallet6');
    const { keys } = await startOn(safeStorage, store);

    expect(keys.status('production')).toMatchObject({ set: false, problem: 'undecryptable' });
    expect(store.get('production')).toBeUndefined();
  });

  it('is removed when it decrypts to something no key can be', async () => {
    const { store, safeStorage } = await setup('keychain');
    store.set('production', {
      ciphertext: (await safeStorage.encryptStringAsync('production\ntwo words')).toString(
        'base64',
      ),
    });
    const { keys } = await startOn(safeStorage, store);
    expect(keys.getKey('production', ORIGIN)).toBeUndefined();
    expect(keys.status('production').problem).toBe('undecryptable');
  });

  it('does not touch the other environment', async () => {
    const { keys: first, store, safeStorage } = await setup('keychain');
    await first.setKey('production', PROD_KEY);
    await first.setKey('staging', STAGING_KEY);
    store.set('production', { ciphertext: tamper(store.get('production')?.ciphertext ?? '') });
    const { keys } = await startOn(safeStorage, store);

    expect(keys.status('production').set).toBe(false);
    expect(keys.getKey('staging', ORIGIN)).toBe(STAGING_KEY);
  });
});

describe('when the OS store refuses to encrypt', () => {
  it('keeps the key for this session and says it was not saved', async () => {
    const { keys, store, safeStorage } = await setup('keychain');
    vi.spyOn(safeStorage, 'encryptStringAsync').mockRejectedValue(
      new Error('User interaction is not allowed.'),
    );

    const status = await keys.setKey('production', PROD_KEY);
    expect(status).toMatchObject({
      set: true,
      storage: 'session-only',
      problem: 'not-saved',
      weak: false,
    });
    expect(status.notice).toMatch(/could not be saved in this computer’s password store/);
    expect(store.get('production')).toBeUndefined();
    expect(keys.getKey('production', ORIGIN)).toBe(PROD_KEY);
  });

  it('does not leave an older saved key to come back next run', async () => {
    const { keys, store, safeStorage, restart } = await setup('keychain');
    await keys.setKey('production', PROD_KEY);
    vi.spyOn(safeStorage, 'encryptStringAsync').mockRejectedValue(new Error('denied'));
    await keys.setKey('production', `${PROD_KEY}-rotated`);

    expect(store.get('production')).toBeUndefined();
    expect((await restart()).getKey('production', ORIGIN)).toBeUndefined();
  });
});

describe('setKey validation', () => {
  it('trims the key', async () => {
    const { keys } = await setup('keychain');
    await keys.setKey('production', `  ${PROD_KEY}\n`);
    expect(keys.getKey('production', ORIGIN)).toBe(PROD_KEY);
  });

  it.each([
    ['empty', '   ', 'empty'],
    ['inner space', 'sk_live_abc def', 'whitespace'],
    ['inner newline', 'sk_live_abc\ndef', 'whitespace'],
    ['control character', 'sk_live_abc\u0007def', 'control-character'],
    ['zero-width space', 'sk_live_abc\u200bdef', 'control-character'],
    ['curly quote', 'sk_live_abc\u201ddef', 'non-ascii'],
    ['too long', `sk_live_${'x'.repeat(4096)}`, 'too-long'],
  ])(
    'rejects a key that is %s, without echoing it, and changes nothing',
    async (_label, bad, reason) => {
      const { keys, store, events } = await setup('keychain');
      await keys.setKey('production', PROD_KEY);
      events.length = 0;
      const before = store.snapshot();

      let thrown: unknown;
      try {
        await keys.setKey('production', bad);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(InvalidKeyError);
      const error = thrown as InvalidKeyError;
      expect(error.reason).toBe(reason);
      expect(error.message.length).toBeGreaterThan(10);
      const serialized = `${error.message} ${error.stack ?? ''} ${JSON.stringify(error)}`;
      for (const fragment of bad
        .trim()
        .split(/\s+/)
        .filter((f) => f.length >= 6)) {
        expect(serialized).not.toContain(fragment.slice(0, 40));
      }
      expect(store.snapshot()).toEqual(before);
      expect(keys.getKey('production', ORIGIN)).toBe(PROD_KEY);
      expect(events).toEqual([]);
    },
  );

  it('rejects an environment that has no stored key (the sandbox)', async () => {
    const { keys } = await setup('keychain');
    await expect(keys.setKey('sandbox' as never, PROD_KEY)).rejects.toThrow(TypeError);
    expect(() => keys.status('sandbox' as never)).toThrow(/production or staging/);
  });
});

describe('removeKey', () => {
  it.each(['keychain', 'basic_text', 'unavailable'] as const)(
    'forgets a saved or session key (%s)',
    async (backend) => {
      const { keys, store, restart } = await setup(backend);
      await keys.setKey('production', PROD_KEY, { acceptWeakStorage: true });
      expect(keys.getKey('production', ORIGIN)).toBe(PROD_KEY);

      const status = keys.removeKey('production');
      expect(status).toMatchObject({ environment: 'production', set: false, storage: 'none' });
      expect(keys.getKey('production', ORIGIN)).toBeUndefined();
      expect(store.snapshot()).toEqual({ ciphertexts: {}, origins: {}, weakAccepted: [] });
      expect((await restart()).getKey('production', ORIGIN)).toBeUndefined();
    },
  );

  it('clears an undecryptable notice', async () => {
    const { store, restart } = await setup('keychain');
    store.set('production', { ciphertext: 'garbage!' });
    const keys = await restart();
    expect(keys.status('production').problem).toBe('undecryptable');
    expect(keys.removeKey('production').problem).toBeUndefined();
  });
});

describe('environments are isolated', () => {
  it.each(['keychain', 'basic_text'] as const)(
    'production and staging keys never mix (%s)',
    async (backend) => {
      const { keys, store } = await setup(backend);
      await keys.setKey('production', PROD_KEY, { acceptWeakStorage: true });
      await keys.setKey('staging', STAGING_KEY);

      expect(keys.getKey('production', ORIGIN)).toBe(PROD_KEY);
      expect(keys.getKey('staging', ORIGIN)).toBe(STAGING_KEY);
      expect(store.get('production')?.ciphertext).not.toBe(store.get('staging')?.ciphertext);

      keys.removeKey('production');
      expect(keys.getKey('production', ORIGIN)).toBeUndefined();
      expect(keys.getKey('staging', ORIGIN)).toBe(STAGING_KEY);
      expect(keys.status('staging').environment).toBe('staging');
    },
  );

  it('a ciphertext copied into the other environment is not accepted as its key', async () => {
    const { keys: first, store, restart } = await setup('keychain');
    await first.setKey('staging', STAGING_KEY);
    store.set('production', { ciphertext: store.get('staging')?.ciphertext ?? '' });
    const keys = await restart();

    expect(keys.getKey('production', ORIGIN)).toBeUndefined();
    expect(keys.status('production').problem).toBe('undecryptable');
    expect(keys.getKey('staging', ORIGIN)).toBe(STAGING_KEY);
  });
});

describe('a key is bound to the origin it was entered for', () => {
  const OLD = 'https://api.old.example';
  const NEW = 'https://api.new.example';

  it.each(['keychain', 'basic_text'] as const)(
    'is handed out for that origin only, saved or for the session (%s)',
    async (backend) => {
      const { keys, restart } = await setup(backend);
      expect(await keys.setKey('production', PROD_KEY, { origin: OLD })).toMatchObject({
        origin: OLD,
      });
      expect(keys.getKey('production', NEW)).toBeUndefined();
      expect(keys.getKey('production', OLD)).toBe(PROD_KEY);
      if (backend === 'keychain')
        expect((await restart()).getKey('production', NEW)).toBeUndefined();
    },
  );

  it('says so in the status, naming both hosts, without a key or a decision', async () => {
    const { keys } = await setup('keychain');
    await keys.setKey('staging', STAGING_KEY, { origin: OLD });
    const status = keys.status('staging', NEW);
    expect(status).toMatchObject({
      set: true,
      storage: 'os-encrypted',
      origin: OLD,
      problem: 'other-address',
    });
    expect(status.notice).toBe(
      'The Staging key was entered for api.old.example, so it is not sent to api.new.example until you confirm the new address or enter the key again.',
    );
    expect(keys.status('staging', OLD).problem).toBeUndefined();
    expect(JSON.stringify(status)).not.toContain(STAGING_KEY);
  });

  it('names whole origins when only the scheme differs', async () => {
    const { keys } = await setup('keychain');
    await keys.setKey('staging', STAGING_KEY, { origin: 'http://127.0.0.1:4010' });
    expect(keys.status('staging', 'https://127.0.0.1:4010').notice).toContain(
      'entered for http://127.0.0.1:4010, so it is not sent to https://127.0.0.1:4010',
    );
  });

  it('moves to another origin only through allowOrigin, and a new key binds afresh', async () => {
    const { keys, events } = await setup('keychain');
    await keys.setKey('production', PROD_KEY, { origin: OLD });
    expect(keys.allowOrigin('production', NEW)).toMatchObject({ origin: NEW });
    expect(events.at(-1)).toMatchObject({ origin: NEW });
    expect(keys.getKey('production', NEW)).toBe(PROD_KEY);
    expect(keys.getKey('production', OLD)).toBeUndefined();
    await keys.setKey('production', STAGING_KEY, { origin: OLD });
    expect(keys.getKey('production', OLD)).toBe(STAGING_KEY);
    expect(keys.getKey('production', NEW)).toBeUndefined();
  });

  it('binds a key saved without an origin to the first address it is read for', async () => {
    const { keys, store, restart } = await setup('keychain');
    await keys.setKey('production', PROD_KEY);
    expect(store.get('production')?.origin).toBeUndefined();
    expect(keys.status('production').origin).toBeUndefined();
    expect((await restart()).getKey('production', OLD)).toBe(PROD_KEY);
    expect(store.get('production')?.origin).toBe(OLD);
    expect((await restart()).getKey('production', NEW)).toBeUndefined();
  });

  it('binds an unbound key while the password store is locked, without decrypting it', async () => {
    const { keys, store, safeStorage } = await setup('gnome_libsecret');
    await keys.setKey('production', PROD_KEY);
    safeStorage.setBackend('unavailable');
    const decrypts = safeStorage.calls.decrypt;
    keys.bindUnbound('production', OLD);
    expect(safeStorage.calls.decrypt).toBe(decrypts);
    expect(store.get('production')?.origin).toBe(OLD);
    safeStorage.setBackend('gnome_libsecret');
    expect(keys.getKey('production', NEW)).toBeUndefined();
    // Already bound: binding again changes nothing.
    keys.bindUnbound('production', NEW);
    expect(keys.getKey('production', OLD)).toBe(PROD_KEY);
  });

  it('treats a saved origin that is not one as damage', async () => {
    const { keys: first, store, restart } = await setup('keychain');
    await first.setKey('production', PROD_KEY, { origin: OLD });
    const record = store.get('production');
    store.set('production', { ciphertext: record?.ciphertext ?? '', origin: `${OLD}/v1` });
    const keys = await restart();
    expect(keys.getKey('production', OLD)).toBeUndefined();
    expect(keys.status('production').problem).toBe('undecryptable');
    expect(store.get('production')).toBeUndefined();
  });

  it('refuses anything but an origin as an address', async () => {
    const { keys } = await setup('keychain');
    await expect(keys.setKey('production', PROD_KEY, { origin: `${OLD}/v1` })).rejects.toThrow(
      TypeError,
    );
    expect(() => keys.getKey('production', 'api.old.example')).toThrow(TypeError);
    expect(() => keys.allowOrigin('production', 'file:///x')).toThrow(TypeError);
  });
});

describe('change events', () => {
  it('fire with the new status on setKey and removeKey, for that environment', async () => {
    const { keys, events } = await setup('keychain');
    const set = await keys.setKey('staging', STAGING_KEY);
    const removed = keys.removeKey('staging');

    expect(events).toEqual([set, removed]);
    expect(events.map((e) => [e.environment, e.set])).toEqual([
      ['staging', true],
      ['staging', false],
    ]);
  });

  it('do not fire for reads', async () => {
    const { keys, events } = await setup('keychain');
    await keys.setKey('production', PROD_KEY);
    events.length = 0;
    keys.status('production');
    keys.getKey('production', ORIGIN);
    keys.status('staging');
    expect(events).toEqual([]);
  });

  it('stop after unsubscribing', async () => {
    const { keys } = await setup('keychain');
    const listener = vi.fn();
    const unsubscribe = keys.onChange(listener);
    await keys.setKey('production', PROD_KEY);
    unsubscribe();
    keys.removeKey('production');
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('the key never leaves through statuses, notices, events or errors', () => {
  it.each([
    'keychain',
    'dpapi',
    'gnome_libsecret',
    'kwallet6',
    'basic_text',
    'unavailable',
  ] as const)('%s', async (backend) => {
    const { keys, store, events } = await setup(backend);
    const seen: unknown[] = [];
    seen.push(await keys.setKey('production', PROD_KEY));
    seen.push(await keys.setKey('staging', STAGING_KEY, { acceptWeakStorage: true }));
    seen.push(keys.status('production'), keys.status('staging'));
    // The keys are really held, so the search below could find them.
    expect([keys.getKey('production', ORIGIN), keys.getKey('staging', ORIGIN)]).toEqual([
      PROD_KEY,
      STAGING_KEY,
    ]);

    for (const bad of [
      `${PROD_KEY} ${STAGING_KEY}`,
      `${PROD_KEY}\u0000`,
      `${STAGING_KEY}\u201c`,
      PROD_KEY.repeat(200),
    ]) {
      try {
        await keys.setKey('production', bad);
      } catch (error) {
        seen.push(
          error instanceof Error
            ? { name: error.name, message: error.message, stack: error.stack }
            : error,
        );
      }
    }
    const saved = store.get('staging');
    if (saved !== undefined)
      store.set('staging', { ...saved, ciphertext: tamper(saved.ciphertext) });
    seen.push(keys.status('staging'), keys.removeKey('production'));
    seen.push(...events, store.snapshot());

    expect(seen.length).toBeGreaterThanOrEqual(10);
    const text = JSON.stringify(seen);
    expect(text).not.toContain(PROD_KEY);
    expect(text).not.toContain(STAGING_KEY);
  });
});
