// Electron's fuses for the packaged app, flipped in electron-builder's
// afterPack step (before signing). The settings are a plain function so they
// are tested on their own (test/packaging/fuses.spec.ts).

import { FuseV1Options, FuseVersion, flipFuses, type FuseV1Config } from '@electron/fuses';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Off: running the app as plain Node (ELECTRON_RUN_AS_NODE), NODE_OPTIONS and
 * --inspect, which would let anyone with a shell run code as Store Admin and
 * read its keys. On: cookies encrypted at rest, the asar checked against its
 * embedded hash, and the app loaded only from that asar.
 */
export function fuseSettings(): FuseV1Config {
  return {
    version: FuseVersion.V1,
    [FuseV1Options.RunAsNode]: false,
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
    [FuseV1Options.EnableNodeCliInspectArguments]: false,
    [FuseV1Options.EnableCookieEncryption]: true,
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
    [FuseV1Options.OnlyLoadAppFromAsar]: true,
  };
}

/** Every Electron binary carries this marker before its fuse wire; a binary without it has no fuses. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/** Whether the file holds a fuse wire. */
export async function hasFuseWire(file: string): Promise<boolean> {
  try {
    return (await readFile(file)).includes(FUSE_SENTINEL);
  } catch {
    return false;
  }
}

/**
 * What @electron/fuses is given for an unpacked app, as electron-builder lays
 * it out: the .app bundle on macOS (it flips the wire in
 * Contents/Frameworks/Electron Framework.framework/Electron Framework, where
 * Electron keeps it), the executable on Windows and Linux.
 */
export function fuseTarget(context: {
  appOutDir: string;
  electronPlatformName: string;
  packager: { appInfo: { productFilename: string }; executableName?: string };
}): string {
  const { appOutDir, electronPlatformName, packager } = context;
  const name = packager.appInfo.productFilename;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas')
    return join(appOutDir, `${name}.app`);
  if (electronPlatformName === 'win32') return join(appOutDir, `${name}.exe`);
  return join(appOutDir, packager.executableName ?? name);
}

/** The file that holds the wire for a target: the framework's binary inside a .app. */
export function fuseWireFile(target: string): string {
  return target.endsWith('.app')
    ? join(target, 'Contents', 'Frameworks', 'Electron Framework.framework', 'Electron Framework')
    : target;
}

export interface AfterPackContext {
  readonly appOutDir: string;
  readonly electronPlatformName: string;
  readonly arch: number;
  readonly packager: { appInfo: { productFilename: string }; executableName?: string };
}

/** electron-builder's Arch enum: 3 is arm64. */
const ARM64 = 3;

export async function flipFusesAfterPack(
  context: AfterPackContext,
  log: (line: string) => void = console.log,
): Promise<void> {
  const target = fuseTarget(context);
  const wire = fuseWireFile(target);
  if (!(await hasFuseWire(wire))) {
    log(`Fuses not flipped: ${wire} has no fuse wire (not an Electron binary).`);
    return;
  }
  await flipFuses(target, {
    ...fuseSettings(),
    // Flipping fuses breaks the ad-hoc signature of arm64 macOS binaries; redo it.
    resetAdHocDarwinSignature: context.electronPlatformName === 'darwin' && context.arch === ARM64,
  });
  log(`Fuses flipped in ${wire}.`);
}
