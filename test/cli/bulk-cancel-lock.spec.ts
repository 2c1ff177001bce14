// One bulk cancel per address, with real store-admin processes: two runs
// started together never both send (one refuses, naming the other); a run
// killed mid-job is resumed the moment it is gone, never refused as if it
// were alive (a kill loop); a lock naming a process id that now belongs to
// another process, or left from before a reboot, never blocks --resume for
// ever. Bounded: 3 kills, each resume within seconds. Heavy tier: real
// processes, about 20 seconds.

import { spawn } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/run.ts';
import { scopedFileName, serviceScope } from '../../src/main/environments/service-scope.ts';
import { runCliProcess } from '../support/cli-process.ts';
import { craftedStore, type CraftedStore } from '../support/crafted-store.ts';
import { answer } from '../support/scripted-server.ts';
import { useScratch } from '../support/scratch.ts';

const KEY = 'crafted-key-0123456789';
const scratch = useScratch('bulk-lock');
const { folder } = scratch;

/** A store whose cancels take `ms` each to answer, so a run is still going when the test acts. */
async function slowStore(count: number, ms: number): Promise<CraftedStore> {
  const ids = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [String(500 + i), 'pending' as const]),
  );
  const store = await craftedStore(ids, (_id, _attempt, res) => {
    setTimeout(() => answer(res, 204), ms);
    return true;
  });
  scratch.later(() => store.close());
  return store;
}

function env(dataDir: string) {
  return { STORE_ADMIN_API_KEY: KEY, STORE_ADMIN_DATA_DIR: dataDir };
}

function idsFile(dir: string, store: CraftedStore): string {
  const file = join(dir, 'ids.txt');
  writeFileSync(file, `${[...store.orders.keys()].join('\n')}\n`);
  return file;
}

/** The lock of the command line's bulk cancel at `baseUrl`. */
function lockOf(dataDir: string, baseUrl: string): string {
  const scope = serviceScope('production', baseUrl);
  const cli = { ...scope, key: scope.key.replace(/^production-/, 'cli-') };
  return join(dataDir, `${scopedFileName('bulk-cancel', cli)}.lock`);
}

function plantLock(lockPath: string, pid: number, ageMs: number): void {
  mkdirSync(lockPath);
  writeFileSync(join(lockPath, 'owner'), String(pid));
  const at = new Date(Date.now() - ageMs);
  utimesSync(lockPath, at, at);
}

describe('store-admin orders cancel --from: one run per address', () => {
  it('lets one of two runs started together send, and the other refuse naming it', async () => {
    // Slow enough (8 cancels of 0.4 s, two at a time) that the runs overlap however they start.
    const store = await slowStore(8, 400);
    const dataDir = folder();
    const file = idsFile(dataDir, store);
    const args = ['orders', 'cancel', '--from', file, '--json', '--base-url', store.baseUrl];
    const [a, b] = await Promise.all([
      runCliProcess(args, env(dataDir)),
      runCliProcess(args, env(dataDir)),
    ]);
    const codes = [a.code, b.code].sort();
    expect(codes).toEqual([EXIT.ok, EXIT.usage]);
    const refused = a.code === EXIT.usage ? a : b;
    expect(refused.stderr).toMatch(/another store-admin run \(process \d+\) is cancelling orders/);
    expect([...store.deletes.values()]).toEqual(Array(8).fill(1));
  });

  it('resumes a run killed mid-job the moment it is gone, 3 kills in a row', async () => {
    const store = await slowStore(12, 150);
    const dataDir = folder();
    const file = idsFile(dataDir, store);
    const base = ['--json', '--base-url', store.baseUrl];
    let args = ['orders', 'cancel', '--from', file, ...base];
    for (let kill = 0; kill < 3; kill++) {
      const sent = [...store.deletes.values()].reduce((a, b) => a + b, 0);
      const run = spawn(process.execPath, ['bin/store-admin.js', ...args], {
        env: { ...process.env, ...env(dataDir) },
        stdio: 'ignore',
      });
      scratch.later(() => run.kill('SIGKILL'));
      // Killed once it has sent a cancel or two (bounded: 10 s).
      for (
        let i = 0;
        i < 200 && [...store.deletes.values()].reduce((a, b) => a + b, 0) < sent + 2;
        i++
      )
        await new Promise((resolve) => setTimeout(resolve, 50));
      run.kill('SIGKILL');
      await new Promise((resolve) => run.on('exit', resolve));
      args = ['orders', 'cancel', '--resume', ...base];
    }
    // At once after the last kill: taken over, not refused as if the dead run were alive.
    const resumed = await runCliProcess(args, env(dataDir));
    expect(resumed.stderr).not.toContain('another store-admin run');
    expect(resumed.code).toBe(EXIT.ok);
    expect([...store.orders.values()].every((state) => state === 'cancelled')).toBe(true);
  });

  it('is never blocked for ever by a lock naming a recycled process id, or from before a reboot', async () => {
    const store = await slowStore(2, 0);
    const dataDir = folder();
    const file = idsFile(dataDir, store);
    const args = ['orders', 'cancel', '--from', file, '--json', '--base-url', store.baseUrl];
    // A live process that has nothing to do with store-admin holds the process id the lock names.
    const stranger = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)']);
    scratch.later(() => stranger.kill('SIGKILL'));
    plantLock(lockOf(dataDir, store.baseUrl), stranger.pid!, 0);
    const recycled = await runCliProcess(args, env(dataDir), 30_000);
    expect(recycled.code).toBe(EXIT.ok);
    // Taken over once it stood still past the stale time (5 s), not refused and not for ever.
    expect(recycled.ms).toBeLessThan(20_000);

    // Its process gone and two days old, as after a reboot: taken over at once.
    const dataDir2 = folder();
    const file2 = idsFile(dataDir2, store);
    plantLock(lockOf(dataDir2, store.baseUrl), 2 ** 22 + 12_345, 2 * 24 * 3_600_000);
    const rebooted = await runCliProcess(
      ['orders', 'cancel', '--from', file2, '--json', '--base-url', store.baseUrl],
      env(dataDir2),
    );
    expect(rebooted.code).toBe(EXIT.ok);
  });
});
