// A real small file system for tests of a full or read-only disk: a tmpfs
// mounted on a temporary folder. Only where the machine allows mounting one
// (root, and mount allowed); tests skip otherwise, saying why.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether this machine lets the test mount a tmpfs (root, and mount allowed). */
export function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

export const TMPFS_SKIPPED =
  ' (skipped: this machine does not let the test mount one; it needs root)';

/** A new folder with a tmpfs of `size` (e.g. '1m') on it; `unmount` takes both away. */
export function mountTmpfs(size: string): { readonly dir: string; unmount(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'tmpfs-data-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
  return {
    dir,
    unmount: () => {
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fills the file system of `file` to the last byte it takes, with `file`. */
export function fillDisk(file: string): void {
  const chunk = Buffer.alloc(4096, 1);
  writeFileSync(file, '');
  for (;;) {
    try {
      writeFileSync(file, chunk, { flag: 'a' });
    } catch {
      return;
    }
  }
}
