// store-admin run as its own process with folders that take nothing (a real
// read-only tmpfs as the data folder, or as the cache folder alone): every
// command says so once in plain words, without a stack trace; orders list
// still prints the list and says it was not saved; a bulk cancel sends
// nothing. And the longest base address allowed works end to end, cache
// included, while one character more is refused as bad usage.

import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/run.ts';
import { fallbackFolderOf, quotaFolder } from '../../src/main/quota/shared-gate-files.ts';
import { MAX_BASE_URL_LENGTH } from '../../src/shared/environments.ts';
import { runCliProcess, type CliRun } from '../support/cli-process.ts';
import { craftedStore, type CraftedStore } from '../support/crafted-store.ts';
import { canMountTmpfs, mountTmpfs, TMPFS_SKIPPED } from '../support/tmpfs.ts';
import { useScratch } from '../support/scratch.ts';

const KEY = 'crafted-key-0123456789';
const mountable = canMountTmpfs();
const scratch = useScratch('folders');
const { folder } = scratch;

function readOnly(): string {
  const disk = mountTmpfs('64k');
  scratch.later(() => disk.unmount());
  execFileSync('mount', ['-o', 'remount,ro', disk.dir]);
  scratch.later(() =>
    rmSync(fallbackFolderOf(quotaFolder(disk.dir)), { recursive: true, force: true }),
  );
  return disk.dir;
}

async function store(): Promise<CraftedStore> {
  const crafted = await craftedStore({ '201': 'pending', '202': 'pending', '203': 'pending' });
  scratch.later(() => crafted.close());
  return crafted;
}

function expectPlain(run: CliRun, what: string): void {
  const printed = `${run.stdout}${run.stderr}`;
  expect(printed, what).not.toMatch(/^\s+at /m);
  expect(printed, what).not.toMatch(/\b(EROFS|ENOENT|ENOSPC)\b/);
  expect(printed, what).not.toContain('Error:');
}

describe.skipIf(!mountable)(
  `store-admin with folders that take nothing${mountable ? '' : TMPFS_SKIPPED}`,
  () => {
    it('says so in plain words for every command on a read-only data folder', async () => {
      const crafted = await store();
      const dataDir = readOnly();
      const env = { STORE_ADMIN_API_KEY: KEY, STORE_ADMIN_DATA_DIR: dataDir };
      const base = ['--base-url', crafted.baseUrl];

      const list = await runCliProcess(['orders', 'list', ...base], env);
      expectPlain(list, 'orders list');
      expect(list.code).toBe(EXIT.ok);
      expect(list.stdout).toContain('3 orders.');
      expect(list.stderr).toMatch(
        /^Note: The list was not saved in .+ because the disk is read-only\./m,
      );

      const cancel = await runCliProcess(['orders', 'cancel', '201', ...base], env);
      expectPlain(cancel, 'orders cancel');
      expect(cancel.code).toBe(EXIT.ok);
      expect(cancel.stderr).toMatch(/^Note: The cancel was not saved in /m);

      const ids = join(folder(), 'ids.txt');
      writeFileSync(ids, '202\n203\n');
      const bulk = await runCliProcess(['orders', 'cancel', '--from', ids, ...base], env);
      expectPlain(bulk, 'orders cancel --from');
      expect(bulk.code).toBe(EXIT.failed);
      expect(bulk.stderr).toContain('Nothing was sent.');
      expect(crafted.deletes.has('202')).toBe(false);

      for (const args of [['orders', 'changes'], ['quota'], ['orders', 'cancel', '--resume']]) {
        const run = await runCliProcess([...args, ...base], env);
        expectPlain(run, args.join(' '));
        expect(run.code, args.join(' ')).not.toBe(-1);
      }
    });

    it('prints the list and says it was not saved when only the cache folder is read-only', async () => {
      const crafted = await store();
      const env = {
        STORE_ADMIN_API_KEY: KEY,
        STORE_ADMIN_DATA_DIR: folder(),
        STORE_ADMIN_CACHE_DIR: readOnly(),
      };
      const list = await runCliProcess(
        ['orders', 'list', '--json', '--base-url', crafted.baseUrl],
        env,
      );
      expectPlain(list, 'orders list');
      expect(list.code).toBe(EXIT.ok);
      expect(JSON.parse(list.stdout)).toMatchObject({ ok: true, count: 3 });
      expect(list.stderr).toContain('STORE_ADMIN_CACHE_DIR');
    });
  },
);

describe('the longest base address', () => {
  it(`works end to end at ${MAX_BASE_URL_LENGTH} characters, cache included, and is refused past it`, async () => {
    const crafted = await store();
    const env = { STORE_ADMIN_API_KEY: KEY, STORE_ADMIN_DATA_DIR: folder() };
    const pad = MAX_BASE_URL_LENGTH - crafted.baseUrl.length - 1;
    const longest = `${crafted.origin}/${'p'.repeat(pad)}/v1`;
    expect(longest).toHaveLength(MAX_BASE_URL_LENGTH);
    for (let i = 0; i < 2; i++) {
      const list = await runCliProcess(['orders', 'list', '--base-url', longest], env);
      expect(list.stderr).toBe('');
      expect(list.code).toBe(EXIT.ok);
    }
    const changes = await runCliProcess(['orders', 'changes', '--base-url', longest], env);
    expect(changes.code).toBe(EXIT.ok);
    expect(changes.stdout).not.toContain('No list of this address is saved yet');

    const tooLong = await runCliProcess(
      ['orders', 'list', '--base-url', `${crafted.origin}/${'p'.repeat(pad + 1)}/v1`],
      env,
    );
    expect(tooLong.code).toBe(EXIT.usage);
    expect(tooLong.stderr).toContain(`at most ${MAX_BASE_URL_LENGTH} characters`);
  });
});
