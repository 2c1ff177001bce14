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

function setup(backend: FakeStorageBackend, store = new MemoryCiphertextStore()) {
  const safeStorage = new FakeSafeStorage(backend);
  const keys = new KeyStore({ safeStorage, store, platform: platformForBackend(backend) });
  const events: KeyStatus[] = [];
  keys.onChange((status) => events.push(status));
  /** The same saved data seen by a fresh app run. */
  const restart = (): KeyStore =>
    new KeyStore({ safeStorage, store, platform: platformForBackend(backend) });
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
  it('reports no key and no warning before one is set', () => {
    const { keys } = setup(backend);
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

  it('saves the key encrypted: the store holds ciphertext that is not the key and round-trips', () => {
    const { keys, store, safeStorage, restart } = setup(backend);
    const status = keys.setKey('production', PROD_KEY);

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
    const nextRun = restart();
    expect(nextRun.getKey('production', ORIGIN)).toBe(PROD_KEY);
    expect(nextRun.status('production').storage).toBe('os-encrypted');
  });

  it('ignores acceptWeakStorage, since the protection is real', () => {
    const { keys, store } = setup(backend);
    expect(keys.setKey('staging', STAGING_KEY, { acceptWeakStorage: true }).storage).toBe(
      'os-encrypted',
    );
    expect(store.getWeakAccepted('staging')).toBe(false);
  });
});

describe('on Linux with basic_text (no real protection)', () => {
  it('warns before any key is entered and offers weak storage', () => {
    const { keys } = setup('basic_text');
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

  it('keeps the key for this session only by default and saves nothing', () => {
    const { keys, store, restart, safeStorage } = setup('basic_text');
    const status = keys.setKey('production', PROD_KEY);

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
    expect(safeStorage.calls.encryptString).toBe(0);
    expect(restart().status('production').set).toBe(false);
  });

  it('saves the key only after the user explicitly accepts weak storage, and says so', () => {
    const { keys, store, restart } = setup('basic_text');
    const status = keys.setKey('production', PROD_KEY, { acceptWeakStorage: true });

    expect(status).toMatchObject({ set: true, storage: 'weak-accepted', weak: true });
    expect(status.notice).toMatch(/Anyone who can read your files can read the Production key/);
    const saved = store.get('production')?.ciphertext;
    expect(saved).toBeDefined();
    expect(containsPlaintext(saved ?? '', PROD_KEY)).toBe(false);
    expect(store.getWeakAccepted('production')).toBe(true);

    const nextRun = restart();
    expect(nextRun.getKey('production', ORIGIN)).toBe(PROD_KEY);
    expect(nextRun.status('production').storage).toBe('weak-accepted');
  });

  it('remembers the acceptance for that environment only', () => {
    const { keys } = setup('basic_text');
    keys.setKey('production', PROD_KEY, { acceptWeakStorage: true });

    expect(keys.setKey('production', `${PROD_KEY}-rotated`).storage).toBe('weak-accepted');
    expect(keys.setKey('staging', STAGING_KEY).storage).toBe('session-only');
  });

  it('withdrawing the acceptance keeps the new key in memory and deletes the saved one', () => {
    const { keys, store, restart } = setup('basic_text');
    keys.setKey('production', PROD_KEY, { acceptWeakStorage: true });

    const status = keys.setKey('production', `${PROD_KEY}-rotated`, { acceptWeakStorage: false });
    expect(status.storage).toBe('session-only');
    expect(store.get('production')).toBeUndefined();
    expect(store.getWeakAccepted('production')).toBe(false);
    expect(keys.getKey('production', ORIGIN)).toBe(`${PROD_KEY}-rotated`);
    expect(restart().getKey('production', ORIGIN)).toBeUndefined();
  });

  it('removeKey also forgets the acceptance', () => {
    const { keys, store } = setup('basic_text');
    keys.setKey('production', PROD_KEY, { acceptWeakStorage: true });
    keys.removeKey('production');

    expect(store.getWeakAccepted('production')).toBe(false);
    expect(keys.setKey('production', PROD_KEY).storage).toBe('session-only');
  });
});

describe('on Linux with an unidentified backend', () => {
  it('treats it as weak rather than assuming protection', () => {
    const safeStorage: SafeStorageLike = {
      isEncryptionAvailable: () => true,
      encryptString: (plain) => Buffer.from(plain),
      decryptString: (buf) => buf.toString(),
      getSelectedStorageBackend: () => 'unknown',
    };
    const keys = new KeyStore({
      safeStorage,
      store: new MemoryCiphertextStore(),
      platform: 'linux',
    });
    expect(keys.setKey('production', PROD_KEY)).toMatchObject({
      storage: 'session-only',
      weak: true,
    });
  });
});

describe('with no encryption available', () => {
  it('warns, and offers no weak storage', () => {
    const { keys } = setup('unavailable');
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

  it('keeps keys for this session only, even when the user accepts weak storage', () => {
    const { keys, store, restart } = setup('unavailable');
    const status = keys.setKey('staging', STAGING_KEY, { acceptWeakStorage: true });

    expect(status).toMatchObject({
      set: true,
      storage: 'session-only',
      weak: true,
      canAcceptWeakStorage: false,
    });
    expect(status.notice).toMatch(/again each time Store Admin starts/);
    expect(keys.getKey('staging', ORIGIN)).toBe(STAGING_KEY);
    expect(store.snapshot()).toEqual({ ciphertexts: {}, origins: {}, weakAccepted: [] });
    expect(restart().getKey('staging', ORIGIN)).toBeUndefined();
  });

  it('keeps a key saved earlier (it may be readable again later) and says it cannot be read now', () => {
    const { keys, store, safeStorage, events } = setup('gnome_libsecret');
    keys.setKey('production', PROD_KEY);
    events.length = 0;
    safeStorage.setBackend('unavailable');

    const locked = keys.status('production');
    expect(locked).toMatchObject({ set: false, storage: 'none', problem: 'locked' });
    expect(locked.notice).toMatch(/cannot be read/);
    expect(keys.getKey('production', ORIGIN)).toBeUndefined();
    expect(store.get('production')).toBeDefined();
    expect(events).toEqual([]);

    safeStorage.setBackend('gnome_libsecret');
    expect(keys.getKey('production', ORIGIN)).toBe(PROD_KEY);
  });
});

describe('a saved key that cannot be decrypted', () => {
  it('is removed, and the status says to enter it again', () => {
    const { keys, store, events } = setup('keychain');
    keys.setKey('production', PROD_KEY);
    store.set('production', { ciphertext: tamper(store.get('production')?.ciphertext ?? '') });
    events.length = 0;

    const status = keys.status('production');
    expect(status).toMatchObject({ set: false, storage: 'none', problem: 'undecryptable' });
    expect(status.notice).toMatch(/could not be read.*removed\. Enter it again/);
    expect(store.get('production')).toBeUndefined();
    expect(events).toEqual([status]);

    // The notice stays until the user acts, without further events.
    expect(keys.status('production').problem).toBe('undecryptable');
    expect(events).toHaveLength(1);
    const fixed = keys.setKey('production', PROD_KEY);
    expect(fixed.problem).toBeUndefined();
    expect(fixed.notice).toBeUndefined();
  });

  it('is removed when getKey finds it, which returns undefined', () => {
    const { keys, store, events } = setup('dpapi');
    store.set('staging', { ciphertext: 'bm90IGEgY2lwaGVydGV4dA==' });

    expect(keys.getKey('staging', ORIGIN)).toBeUndefined();
    expect(store.get('staging')).toBeUndefined();
    expect(events.map((e) => e.problem)).toEqual(['undecryptable']);
  });

  it.each([
    ['not base64', '%%% not base64 %%%'],
    ['empty', ''],
    ['truncated base64', 'RkFLRXYx='],
  ])('is removed when it is garbage (%s)', (_label, garbage) => {
    const { keys, store } = setup('gnome_libsecret');
    store.set('production', { ciphertext: garbage });
    expect(keys.status('production').problem).toBe('undecryptable');
    expect(store.get('production')).toBeUndefined();
  });

  it('is removed when the password store changed (libsecret to KWallet)', () => {
    const { keys, store, safeStorage } = setup('gnome_libsecret');
    keys.setKey('production', PROD_KEY);
    safeStorage.setBackend('kwallet6');

    expect(keys.status('production')).toMatchObject({ set: false, problem: 'undecryptable' });
    expect(store.get('production')).toBeUndefined();
  });

  it('is removed when it decrypts to something no key can be', () => {
    const { keys, store, safeStorage } = setup('keychain');
    store.set('production', {
      ciphertext: safeStorage.encryptString('production\ntwo words').toString('base64'),
    });
    expect(keys.getKey('production', ORIGIN)).toBeUndefined();
    expect(keys.status('production').problem).toBe('undecryptable');
  });

  it('does not touch the other environment', () => {
    const { keys, store } = setup('keychain');
    keys.setKey('production', PROD_KEY);
    keys.setKey('staging', STAGING_KEY);
    store.set('production', { ciphertext: tamper(store.get('production')?.ciphertext ?? '') });

    expect(keys.status('production').set).toBe(false);
    expect(keys.getKey('staging', ORIGIN)).toBe(STAGING_KEY);
  });
});

describe('when the OS store refuses to encrypt', () => {
  it('keeps the key for this session and says it was not saved', () => {
    const { keys, store, safeStorage } = setup('keychain');
    vi.spyOn(safeStorage, 'encryptString').mockImplementation(() => {
      throw new Error('User interaction is not allowed.');
    });

    const status = keys.setKey('production', PROD_KEY);
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

  it('does not leave an older saved key to come back next run', () => {
    const { keys, store, safeStorage, restart } = setup('keychain');
    keys.setKey('production', PROD_KEY);
    vi.spyOn(safeStorage, 'encryptString').mockImplementation(() => {
      throw new Error('denied');
    });
    keys.setKey('production', `${PROD_KEY}-rotated`);

    expect(store.get('production')).toBeUndefined();
    expect(restart().getKey('production', ORIGIN)).toBeUndefined();
  });
});

describe('setKey validation', () => {
  it('trims the key', () => {
    const { keys } = setup('keychain');
    keys.setKey('production', `  ${PROD_KEY}\n`);
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
  ])('rejects a key that is %s, without echoing it, and changes nothing', (_label, bad, reason) => {
    const { keys, store, events } = setup('keychain');
    keys.setKey('production', PROD_KEY);
    events.length = 0;
    const before = store.snapshot();

    let thrown: unknown;
    try {
      keys.setKey('production', bad);
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
  });

  it('rejects an environment that has no stored key (the sandbox)', () => {
    const { keys } = setup('keychain');
    expect(() => keys.setKey('sandbox' as never, PROD_KEY)).toThrow(TypeError);
    expect(() => keys.status('sandbox' as never)).toThrow(/production or staging/);
  });
});

describe('removeKey', () => {
  it.each(['keychain', 'basic_text', 'unavailable'] as const)(
    'forgets a saved or session key (%s)',
    (backend) => {
      const { keys, store, restart } = setup(backend);
      keys.setKey('production', PROD_KEY, { acceptWeakStorage: true });
      expect(keys.getKey('production', ORIGIN)).toBe(PROD_KEY);

      const status = keys.removeKey('production');
      expect(status).toMatchObject({ environment: 'production', set: false, storage: 'none' });
      expect(keys.getKey('production', ORIGIN)).toBeUndefined();
      expect(store.snapshot()).toEqual({ ciphertexts: {}, origins: {}, weakAccepted: [] });
      expect(restart().getKey('production', ORIGIN)).toBeUndefined();
    },
  );

  it('clears an undecryptable notice', () => {
    const { keys, store } = setup('keychain');
    store.set('production', { ciphertext: 'garbage!' });
    expect(keys.status('production').problem).toBe('undecryptable');
    expect(keys.removeKey('production').problem).toBeUndefined();
  });
});

describe('environments are isolated', () => {
  it.each(['keychain', 'basic_text'] as const)(
    'production and staging keys never mix (%s)',
    (backend) => {
      const { keys, store } = setup(backend);
      keys.setKey('production', PROD_KEY, { acceptWeakStorage: true });
      keys.setKey('staging', STAGING_KEY);

      expect(keys.getKey('production', ORIGIN)).toBe(PROD_KEY);
      expect(keys.getKey('staging', ORIGIN)).toBe(STAGING_KEY);
      expect(store.get('production')?.ciphertext).not.toBe(store.get('staging')?.ciphertext);

      keys.removeKey('production');
      expect(keys.getKey('production', ORIGIN)).toBeUndefined();
      expect(keys.getKey('staging', ORIGIN)).toBe(STAGING_KEY);
      expect(keys.status('staging').environment).toBe('staging');
    },
  );

  it('a ciphertext copied into the other environment is not accepted as its key', () => {
    const { keys, store } = setup('keychain');
    keys.setKey('staging', STAGING_KEY);
    store.set('production', { ciphertext: store.get('staging')?.ciphertext ?? '' });

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
    (backend) => {
      const { keys, restart } = setup(backend);
      expect(keys.setKey('production', PROD_KEY, { origin: OLD })).toMatchObject({ origin: OLD });
      expect(keys.getKey('production', NEW)).toBeUndefined();
      expect(keys.getKey('production', OLD)).toBe(PROD_KEY);
      if (backend === 'keychain') expect(restart().getKey('production', NEW)).toBeUndefined();
    },
  );

  it('says so in the status, naming both hosts, without a key or a decision', () => {
    const { keys } = setup('keychain');
    keys.setKey('staging', STAGING_KEY, { origin: OLD });
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

  it('names whole origins when only the scheme differs', () => {
    const { keys } = setup('keychain');
    keys.setKey('staging', STAGING_KEY, { origin: 'http://127.0.0.1:4010' });
    expect(keys.status('staging', 'https://127.0.0.1:4010').notice).toContain(
      'entered for http://127.0.0.1:4010, so it is not sent to https://127.0.0.1:4010',
    );
  });

  it('moves to another origin only through allowOrigin, and a new key binds afresh', () => {
    const { keys, events } = setup('keychain');
    keys.setKey('production', PROD_KEY, { origin: OLD });
    expect(keys.allowOrigin('production', NEW)).toMatchObject({ origin: NEW });
    expect(events.at(-1)).toMatchObject({ origin: NEW });
    expect(keys.getKey('production', NEW)).toBe(PROD_KEY);
    expect(keys.getKey('production', OLD)).toBeUndefined();
    keys.setKey('production', STAGING_KEY, { origin: OLD });
    expect(keys.getKey('production', OLD)).toBe(STAGING_KEY);
    expect(keys.getKey('production', NEW)).toBeUndefined();
  });

  it('binds a key saved without an origin to the first address it is read for', () => {
    const { keys, store, restart } = setup('keychain');
    keys.setKey('production', PROD_KEY);
    expect(store.get('production')?.origin).toBeUndefined();
    expect(keys.status('production').origin).toBeUndefined();
    expect(restart().getKey('production', OLD)).toBe(PROD_KEY);
    expect(store.get('production')?.origin).toBe(OLD);
    expect(restart().getKey('production', NEW)).toBeUndefined();
  });

  it('binds an unbound key while the password store is locked, without decrypting it', () => {
    const { keys, store, safeStorage } = setup('gnome_libsecret');
    keys.setKey('production', PROD_KEY);
    safeStorage.setBackend('unavailable');
    const decrypts = safeStorage.calls.decryptString;
    keys.bindUnbound('production', OLD);
    expect(safeStorage.calls.decryptString).toBe(decrypts);
    expect(store.get('production')?.origin).toBe(OLD);
    safeStorage.setBackend('gnome_libsecret');
    expect(keys.getKey('production', NEW)).toBeUndefined();
    // Already bound: binding again changes nothing.
    keys.bindUnbound('production', NEW);
    expect(keys.getKey('production', OLD)).toBe(PROD_KEY);
  });

  it('treats a saved origin that is not one as damage', () => {
    const { keys, store } = setup('keychain');
    keys.setKey('production', PROD_KEY, { origin: OLD });
    const record = store.get('production');
    store.set('production', { ciphertext: record?.ciphertext ?? '', origin: `${OLD}/v1` });
    expect(keys.getKey('production', OLD)).toBeUndefined();
    expect(keys.status('production').problem).toBe('undecryptable');
    expect(store.get('production')).toBeUndefined();
  });

  it('refuses anything but an origin as an address', () => {
    const { keys } = setup('keychain');
    expect(() => keys.setKey('production', PROD_KEY, { origin: `${OLD}/v1` })).toThrow(TypeError);
    expect(() => keys.getKey('production', 'api.old.example')).toThrow(TypeError);
    expect(() => keys.allowOrigin('production', 'file:///x')).toThrow(TypeError);
  });
});

describe('change events', () => {
  it('fire with the new status on setKey and removeKey, for that environment', () => {
    const { keys, events } = setup('keychain');
    const set = keys.setKey('staging', STAGING_KEY);
    const removed = keys.removeKey('staging');

    expect(events).toEqual([set, removed]);
    expect(events.map((e) => [e.environment, e.set])).toEqual([
      ['staging', true],
      ['staging', false],
    ]);
  });

  it('do not fire for reads', () => {
    const { keys, events } = setup('keychain');
    keys.setKey('production', PROD_KEY);
    events.length = 0;
    keys.status('production');
    keys.getKey('production', ORIGIN);
    keys.status('staging');
    expect(events).toEqual([]);
  });

  it('stop after unsubscribing', () => {
    const { keys } = setup('keychain');
    const listener = vi.fn();
    const unsubscribe = keys.onChange(listener);
    keys.setKey('production', PROD_KEY);
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
  ] as const)('%s', (backend) => {
    const { keys, store, events } = setup(backend);
    const seen: unknown[] = [];
    seen.push(keys.setKey('production', PROD_KEY));
    seen.push(keys.setKey('staging', STAGING_KEY, { acceptWeakStorage: true }));
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
        keys.setKey('production', bad);
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
