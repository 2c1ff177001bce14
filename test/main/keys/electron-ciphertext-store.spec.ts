// The adapter over a real electron-store instance writing to a temp dir.
// electron-store is loaded by Node, not Vitest, so `vi.mock('electron')` does
// not reach it; keepElectronFromDownloading lets it load without Electron.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type ElectronStoreClass from 'electron-store';
import {
  API_KEYS_FILE_NAME,
  ElectronCiphertextStore,
} from '../../../src/main/keys/electron-ciphertext-store.ts';
import { keepElectronFromDownloading } from '../../support/electron-mock.ts';

let ElectronStore: typeof ElectronStoreClass;
let dir: string;

beforeAll(async () => {
  keepElectronFromDownloading();
  ElectronStore = (await import('electron-store')).default;
});

afterAll(() => {
  vi.unstubAllEnvs();
});

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'store-admin-ciphertext-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function open(): ElectronCiphertextStore {
  return new ElectronCiphertextStore(
    new ElectronStore<Record<string, unknown>>({ name: API_KEYS_FILE_NAME, cwd: dir }),
  );
}

function fileContents(): unknown {
  return JSON.parse(readFileSync(path.join(dir, `${API_KEYS_FILE_NAME}.json`), 'utf8'));
}

describe('ElectronCiphertextStore over electron-store', () => {
  it('starts empty', () => {
    const store = open();
    expect(store.get('production')).toBeUndefined();
    expect(store.getWeakAccepted('production')).toBe(false);
  });

  it('persists ciphertext and the weak-storage choice per environment in the file', () => {
    const store = open();
    store.set('production', { ciphertext: 'UFJPRA==', origin: 'https://api.example.com' });
    store.setWeakAccepted('staging', true);
    store.set('staging', { ciphertext: 'U1RBRw==' });

    expect(fileContents()).toEqual({
      production: { ciphertext: 'UFJPRA==', origin: 'https://api.example.com' },
      staging: { ciphertext: 'U1RBRw==', weakStorageAccepted: true },
    });
    const reopened = open();
    expect(reopened.get('production')).toEqual({
      ciphertext: 'UFJPRA==',
      origin: 'https://api.example.com',
    });
    expect(reopened.get('staging')).toEqual({ ciphertext: 'U1RBRw==' });
    expect(reopened.getWeakAccepted('production')).toBe(false);
    expect(reopened.getWeakAccepted('staging')).toBe(true);
  });

  it('replaces a record whole: a new key without an origin keeps none of the old one', () => {
    const store = open();
    store.set('production', { ciphertext: 'T0xE', origin: 'https://old.example.com' });
    store.set('production', { ciphertext: 'TkVX' });
    expect(open().get('production')).toEqual({ ciphertext: 'TkVX' });
  });

  it('delete removes only the key record of that environment', () => {
    const store = open();
    store.set('production', { ciphertext: 'UFJPRA==', origin: 'https://api.example.com' });
    store.setWeakAccepted('production', true);
    store.set('staging', { ciphertext: 'U1RBRw==' });
    store.delete('production');

    expect(store.get('production')).toBeUndefined();
    expect(fileContents()).toMatchObject({ production: { weakStorageAccepted: true } });
    expect(store.getWeakAccepted('production')).toBe(true);
    expect(store.get('staging')).toEqual({ ciphertext: 'U1RBRw==' });
  });

  it('withdrawing the weak-storage choice removes it from the file', () => {
    const store = open();
    store.setWeakAccepted('production', true);
    store.setWeakAccepted('production', false);
    expect(store.getWeakAccepted('production')).toBe(false);
    expect(fileContents()).toEqual({ production: {} });
  });

  it('ignores hand-edited values of the wrong type', () => {
    writeFileSync(
      path.join(dir, `${API_KEYS_FILE_NAME}.json`),
      JSON.stringify({
        production: { ciphertext: 42, weakStorageAccepted: 'yes' },
        staging: { ciphertext: 'U1RBRw==', origin: 7 },
      }),
    );
    const store = open();
    expect(store.get('production')).toBeUndefined();
    // An origin that is not text is passed on as one the key store refuses, not as "none".
    expect(store.get('staging')).toEqual({ ciphertext: 'U1RBRw==', origin: '' });
    expect(store.getWeakAccepted('production')).toBe(false);
  });
});
