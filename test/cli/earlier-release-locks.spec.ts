// The command line on a data folder that release 0.2.0 (723a839) left with a
// lock in its own form, a plain file holding a process id: a bulk cancel it
// was running when it was killed, and a gate record's lock a killed run
// never removed. Today's locks are folders; the earlier form is a lock like
// any other, taken over as its process is gone, so the CLI goes on sending.
// (Before, the bulk cancel failed on every try with an internal error, and
// the gate's lock made the run keep the gate's state elsewhere.)

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scopedFileName, serviceScope } from '../../src/main/environments/service-scope.ts';
import { fallbackFolderOf, quotaFolder } from '../../src/main/quota/shared-gate-files.ts';
import { type Sandbox } from '../../src/main/sandbox/server.ts';
import { runCliProcess } from '../support/cli-process.ts';
import { useScratch } from '../support/scratch.ts';

const scratch = useScratch('earlier-locks');
const { folder } = scratch;
const sandbox = (): Promise<Sandbox> => scratch.sandbox({ orders: 200 });

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

function plantFileLock(lockPath: string, pid: number, ageMs: number): void {
  writeFileSync(lockPath, String(pid), { mode: 0o600 });
  const at = new Date(Date.now() - ageMs);
  utimesSync(lockPath, at, at);
}

function env(dataDir: string) {
  return { STORE_ADMIN_API_KEY: 'demo-pro', STORE_ADMIN_DATA_DIR: dataDir };
}

describe('a data folder with a lock file from release 0.2.0', () => {
  it('a bulk cancel whose lock file names a killed run starts, and every order gets its answer', async () => {
    const store = await sandbox();
    const dataDir = folder();
    const scope = serviceScope('production', store.baseUrl);
    const lockPath = join(
      dataDir,
      `${scopedFileName('bulk-cancel', { ...scope, key: scope.key.replace(/^production-/, 'cli-') })}.lock`,
    );
    // The run that wrote it started minutes ago and was killed.
    plantFileLock(lockPath, await deadPid(), 5 * 60_000);
    const ids = store.orderIds({ status: 'pending' }).slice(0, 5);
    const file = join(dataDir, 'ids.txt');
    writeFileSync(file, `${ids.join('\n')}\n`);
    const run = await runCliProcess(
      ['orders', 'cancel', '--from', file, '--base-url', store.baseUrl, '--json'],
      env(dataDir),
    );
    expect(run.stderr).not.toContain('something went wrong inside Store Admin');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { ok: boolean; counts: Record<string, number> };
    expect(result.counts.cancelled).toBe(5);
    for (const id of ids) expect(store.orderStatus(id)).toBe('cancelled');
    // The run gave its lock back: nothing of the earlier one is left either.
    expect(existsSync(lockPath)).toBe(false);
  });

  it("a gate record's lock file naming a killed run: the run shares the data folder's record and sends", async () => {
    const store = await sandbox();
    const dataDir = folder();
    scratch.later(() =>
      rmSync(fallbackFolderOf(quotaFolder(dataDir)), { recursive: true, force: true }),
    );
    // A first run makes the folder's salt and the key's record, as 0.2.0 had.
    expect((await runCliProcess(['quota', '--base-url', store.baseUrl], env(dataDir))).code).toBe(
      0,
    );
    const quota = quotaFolder(dataDir);
    const record = readdirSync(quota).find((name) => /^[0-9a-f]{32}\.json$/.test(name))!;
    plantFileLock(join(quota, `${record}.lock`), await deadPid(), 0);
    const before = statSync(join(quota, record)).mtimeMs;
    const [id] = store.orderIds({ status: 'pending' });
    const run = await runCliProcess(
      ['orders', 'cancel', id!, '--base-url', store.baseUrl, '--json'],
      env(dataDir),
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, outcome: 'cancelled' });
    // Nothing said about keeping the gate's state elsewhere: the data folder's record took the answer.
    expect(run.stderr).toBe('');
    expect(statSync(join(quota, record)).mtimeMs).toBeGreaterThan(before);
    expect(existsSync(fallbackFolderOf(quota))).toBe(false);
  });
});
