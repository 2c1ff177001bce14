// The real file layer on a real disk that fills up (a small tmpfs): a write
// the disk takes only part of fails, with ENOSPC, instead of leaving a hole
// in the order cache's temporary file. Where the machine lets the test mount
// a tmpfs (root); skipped otherwise, saying why.

import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFiles } from '../../../src/main/local-data/local-files.ts';
import { canMountTmpfs, fillDisk, mountTmpfs, TMPFS_SKIPPED } from '../../support/tmpfs.ts';

const tmpfs = canMountTmpfs();
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

describe.skipIf(!tmpfs)(`a streamed file on a real tmpfs${tmpfs ? '' : TMPFS_SKIPPED}`, () => {
  it('a write the nearly full disk takes only part of fails with ENOSPC', async () => {
    const disk = mountTmpfs('256k');
    cleanups.push(() => disk.unmount());
    // Two pages left free: a spare file is removed once the rest is full.
    const spare = join(disk.dir, 'spare');
    await writeFile(spare, Buffer.alloc(8192, 1));
    fillDisk(join(disk.dir, 'filler'));
    await rm(spare);

    const file = await nodeFiles().create(join(disk.dir, 'orders.cache.tmp'));
    try {
      const pieces = [Buffer.alloc(6000, 0x61), Buffer.alloc(6000, 0x62)];
      await expect(file.writeAt(pieces, 0)).rejects.toMatchObject({ code: 'ENOSPC' });
    } finally {
      await file.close();
    }
    // What it did take is the start of the data, in place.
    const taken = await readFile(join(disk.dir, 'orders.cache.tmp'));
    expect(taken.length).toBeLessThan(12_000);
    expect(taken.subarray(0, 6000).every((byte) => byte === 0x61)).toBe(true);
  });

  it('with room, every piece lands where it is written', async () => {
    const disk = mountTmpfs('256k');
    cleanups.push(() => disk.unmount());
    const path = join(disk.dir, 'orders.cache.tmp');
    const file = await nodeFiles().create(path);
    await file.writeAt([Buffer.from('    \n')], 0);
    await file.writeAt([Buffer.from('[1,'), Buffer.from('2]')], 5);
    await file.writeAt([Buffer.from('{"a"}')], 0);
    await file.sync();
    await file.close();
    expect(await readFile(path, 'utf8')).toBe('{"a"}[1,2]');
  });
});
