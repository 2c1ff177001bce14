// The fuse settings and the afterPack step on stand-in layouts of each
// platform's unpacked app, each carrying a real fuse wire (the sentinel, the
// wire's version and length, then one byte per fuse as Electron 45 ships
// them), flipped and read back with @electron/fuses.

import { FuseV1Options, FuseVersion, getCurrentFuseWire } from '@electron/fuses';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  flipFusesAfterPack,
  fuseSettings,
  fuseTarget,
  fuseWireFile,
} from '../../scripts/packaging/fuses.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Electron 45's defaults: RunAsNode, NODE_OPTIONS, --inspect and file:// privileges on; the rest off. */
const ELECTRON_DEFAULTS = '10110001';

function binaryWithWire(): Buffer {
  return Buffer.concat([
    Buffer.from('\x7fELF...code...'),
    Buffer.from(SENTINEL),
    Buffer.from([1, ELECTRON_DEFAULTS.length]),
    Buffer.from(ELECTRON_DEFAULTS),
    Buffer.from('...more code'),
  ]);
}

function write(file: string, content: Buffer | string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}

const packager = { appInfo: { productFilename: 'Store Admin' }, executableName: 'store-admin' };

/** An unpacked app as electron-builder leaves it before afterPack, with the wire where Electron keeps it. */
function unpackedApp(platform: 'linux' | 'win32' | 'darwin'): { appOutDir: string; wire: string } {
  const appOutDir = mkdtempSync(join(tmpdir(), `store-admin-fuses-${platform}-`));
  dirs.push(appOutDir);
  if (platform === 'darwin') {
    const app = join(appOutDir, 'Store Admin.app', 'Contents');
    // The executable has no wire: it lives in the framework's binary.
    write(join(app, 'MacOS', 'Store Admin'), 'a small launcher');
    const wire = join(app, 'Frameworks', 'Electron Framework.framework', 'Electron Framework');
    write(wire, binaryWithWire());
    return { appOutDir, wire };
  }
  const wire = join(appOutDir, platform === 'win32' ? 'Store Admin.exe' : 'store-admin');
  write(wire, binaryWithWire());
  return { appOutDir, wire };
}

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
  it('gives @electron/fuses the .app on macOS and the executable elsewhere', () => {
    // Paths as the system that packages writes them (backslashes on Windows).
    const out = join(tmpdir(), 'o');
    const at = (electronPlatformName: string) =>
      fuseTarget({ appOutDir: out, electronPlatformName, packager });
    expect(at('linux')).toBe(join(out, 'store-admin'));
    expect(at('win32')).toBe(join(out, 'Store Admin.exe'));
    expect(at('darwin')).toBe(join(out, 'Store Admin.app'));
    expect(fuseWireFile(at('darwin'))).toBe(
      join(
        out,
        'Store Admin.app',
        'Contents',
        'Frameworks',
        'Electron Framework.framework',
        'Electron Framework',
      ),
    );
  });

  for (const platform of ['linux', 'win32', 'darwin'] as const) {
    it(`flips the fuses of a ${platform} app and they read back flipped`, async () => {
      const { appOutDir, wire } = unpackedApp(platform);
      const before = readFileSync(wire);
      const lines: string[] = [];
      await flipFusesAfterPack(
        { appOutDir, electronPlatformName: platform, arch: 1, packager },
        (line) => lines.push(line),
      );
      expect(lines).toEqual([`Fuses flipped in ${wire}.`]);
      const fuses = await getCurrentFuseWire(
        fuseTarget({ appOutDir, electronPlatformName: platform, packager }),
      );
      const on = (option: FuseV1Options) => Number(fuses[option]) === '1'.charCodeAt(0);
      expect(on(FuseV1Options.RunAsNode)).toBe(false);
      expect(on(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe(false);
      expect(on(FuseV1Options.EnableNodeCliInspectArguments)).toBe(false);
      expect(on(FuseV1Options.EnableCookieEncryption)).toBe(true);
      expect(on(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe(true);
      expect(on(FuseV1Options.OnlyLoadAppFromAsar)).toBe(true);
      // Fuses the settings leave alone keep Electron's defaults.
      expect(on(FuseV1Options.LoadBrowserProcessSpecificV8Snapshot)).toBe(false);
      expect(on(FuseV1Options.GrantFileProtocolExtraPrivileges)).toBe(true);
      // Only the wire's bytes changed.
      const after = readFileSync(wire);
      expect(after.length).toBe(before.length);
      const changed = [...after.keys()].filter((i) => after[i] !== before[i]);
      const wireStart = before.indexOf(SENTINEL) + SENTINEL.length + 2;
      expect(changed.every((i) => i >= wireStart && i < wireStart + 8)).toBe(true);
      if (platform === 'darwin') {
        expect(
          readFileSync(join(appOutDir, 'Store Admin.app/Contents/MacOS/Store Admin'), 'utf8'),
        ).toBe('a small launcher');
      }
    });
  }

  it('says in one line that a binary without a fuse wire is left as it is', async () => {
    const appOutDir = mkdtempSync(join(tmpdir(), 'store-admin-fuses-'));
    dirs.push(appOutDir);
    writeFileSync(join(appOutDir, 'store-admin'), '#!/bin/sh\n');
    const lines: string[] = [];
    await flipFusesAfterPack(
      { appOutDir, electronPlatformName: 'linux', arch: 1, packager },
      (line) => lines.push(line),
    );
    expect(lines).toEqual([
      `Fuses not flipped: ${join(appOutDir, 'store-admin')} has no fuse wire (not an Electron binary).`,
    ]);
    expect(readFileSync(join(appOutDir, 'store-admin'), 'utf8')).toBe('#!/bin/sh\n');
  });
});
