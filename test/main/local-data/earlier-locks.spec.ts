// Locks as release 0.2.0 (723a839) wrote them: a plain file holding its
// process id, where today's lock is a folder with an `owner` file inside. A
// data folder carried over from that release may hold one (a bulk cancel
// killed midway, a gate record's lock left by a killed run). It is a lock
// like any other: held while its process lives and it is fresh, taken over
// when its process is gone or it is stale, never an internal error.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  lock,
  LockHeldError,
  lockOwner,
  lockSync,
} from '../../../src/main/local-data/file-lock.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-earlier-lock-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A process id that no process has now: one that has just exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

/** A live process that has nothing to do with the lock (a recycled process id, or a run still going). */
function stranger(): ChildProcess {
  // Node itself rather than sleep(1), which Windows does not have.
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)']);
  cleanups.push(() => child.kill('SIGKILL'));
  return child;
}

/** A lock file as 0.2.0 left it: the process id as the whole file, last touched `ageMs` ago. */
function plantFileLock(lockPath: string, pid: number, ageMs: number): void {
  writeFileSync(lockPath, String(pid), { mode: 0o600 });
  const at = new Date(Date.now() - ageMs);
  utimesSync(lockPath, at, at);
}

describe('a lock in the earlier form (a file holding a process id)', () => {
  it('names its process', () => {
    const lockPath = join(folder(), 'record.json.lock');
    plantFileLock(lockPath, 4242, 0);
    expect(lockOwner(lockPath)).toBe(4242);
  });

  it('is taken over at once when its process is gone (a section of a few system calls)', async () => {
    const lockPath = join(folder(), 'record.json.lock');
    plantFileLock(lockPath, await deadPid(), 0);
    const release = lockSync(lockPath, { staleMs: 2_000 });
    // Today's form now: a folder naming this process.
    expect(statSync(lockPath).isDirectory()).toBe(true);
    expect(lockOwner(lockPath)).toBe(process.pid);
    release();
    expect(existsSync(lockPath)).toBe(false);
  });

  it('is taken over when its process is gone, for a lock held long (a bulk cancel killed midway)', async () => {
    const lockPath = join(folder(), 'bulk-cancel-cli-0123456789abcdef.jsonl.lock');
    // Written when the run started, minutes ago; the run was killed.
    plantFileLock(lockPath, await deadPid(), 5 * 60_000);
    const release = await lock(lockPath, { staleMs: 5_000, goneAfterMs: 2_500 });
    expect(lockOwner(lockPath)).toBe(process.pid);
    await release();
  });

  it('is taken over when stale, even naming a live process (a process id now used by another)', () => {
    const lockPath = join(folder(), 'record.json.lock');
    plantFileLock(lockPath, stranger().pid!, 60_000);
    const release = lockSync(lockPath, { staleMs: 2_000 });
    expect(lockOwner(lockPath)).toBe(process.pid);
    release();
  });

  it('is held while its live process keeps it fresh, naming that process', () => {
    const lockPath = join(folder(), 'record.json.lock');
    const holder = stranger();
    plantFileLock(lockPath, holder.pid!, 0);
    let thrown: unknown;
    try {
      lockSync(lockPath, { staleMs: 5_000 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(LockHeldError);
    expect((thrown as LockHeldError).pid).toBe(holder.pid);
    // Left as it was: the file of the process that holds it.
    expect(statSync(lockPath).isFile()).toBe(true);
  });

  it('an empty one (a full disk took the file, not its id) is only ever held until stale', () => {
    const lockPath = join(folder(), 'record.json.lock');
    plantFileLock(lockPath, 0, 0);
    writeFileSync(lockPath, '');
    const old = new Date(Date.now() - 10_000);
    utimesSync(lockPath, old, old);
    const release = lockSync(lockPath, { staleMs: 2_000 });
    release();
  });
});
