// The fuse settings and the afterPack step, without packaging anything.

import { FuseV1Options, FuseVersion } from '@electron/fuses';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  electronBinaryPath,
  flipFusesAfterPack,
  fuseSettings,
  isRealElectronBinary,
} from '../../scripts/packaging/fuses.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('fuseSettings', () => {
  it('turns off running as Node, NODE_OPTIONS and --inspect, and turns on cookie encryption and the asar checks', () => {
    expect(fuseSettings()).toEqual({
      version: FuseVersion.V1,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
    });
  });
});

describe('the afterPack step', () => {
  const packager = { appInfo: { productFilename: 'Store Admin' }, executableName: 'store-admin' };

  it('finds the Electron binary where electron-builder puts it on each platform', () => {
    expect(electronBinaryPath({ appOutDir: '/o', electronPlatformName: 'linux', packager })).toBe(
      '/o/store-admin',
    );
    expect(electronBinaryPath({ appOutDir: '/o', electronPlatformName: 'win32', packager })).toBe(
      '/o/Store Admin.exe',
    );
    expect(electronBinaryPath({ appOutDir: '/o', electronPlatformName: 'darwin', packager })).toBe(
      '/o/Store Admin.app/Contents/MacOS/Store Admin',
    );
  });

  it('says in one line that a stand-in binary is skipped, and leaves it as it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-admin-fuses-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'store-admin'), '#!/bin/sh\n');
    expect(await isRealElectronBinary(join(dir, 'store-admin'))).toBe(false);
    const lines: string[] = [];
    await flipFusesAfterPack(
      { appOutDir: dir, electronPlatformName: 'linux', arch: 1, packager },
      (line) => lines.push(line),
    );
    expect(lines).toEqual([
      `Fuses not flipped: ${join(dir, 'store-admin')} is a stand-in, not an Electron binary.`,
    ]);
  });

  it('flips the fuses of a binary that has a fuse wire', async () => {
    // A file shaped like an Electron binary's fuse wire: the sentinel, a version,
    // the wire's length, then one byte per fuse ('1' on, '0' off), all on here.
    const dir = mkdtempSync(join(tmpdir(), 'store-admin-fuses-'));
    dirs.push(dir);
    const binary = join(dir, 'store-admin');
    const sentinel = Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX');
    const wire = Buffer.from('1'.repeat(9));
    writeFileSync(
      binary,
      Buffer.concat([Buffer.from('ELF...'), sentinel, Buffer.from([1, wire.length]), wire]),
    );
    expect(await isRealElectronBinary(binary)).toBe(true);
    await flipFusesAfterPack(
      { appOutDir: dir, electronPlatformName: 'linux', arch: 1, packager },
      () => undefined,
    );
    const { getCurrentFuseWire } = await import('@electron/fuses');
    const fuses = await getCurrentFuseWire(binary);
    const on = (option: FuseV1Options): boolean => Number(fuses[option]) === '1'.charCodeAt(0);
    expect(on(FuseV1Options.RunAsNode)).toBe(false);
    expect(on(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe(false);
    expect(on(FuseV1Options.EnableNodeCliInspectArguments)).toBe(false);
    expect(on(FuseV1Options.EnableCookieEncryption)).toBe(true);
    expect(on(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe(true);
    expect(on(FuseV1Options.OnlyLoadAppFromAsar)).toBe(true);
  });
});
