// Locks shared by processes, with real processes: several racing for one
// lock (a stale one planted before each round, so they all race to take it
// over) are never inside together and lose no update; a lock naming a
// process that is gone (killed, or from before a reboot) is taken over at
// once; one naming a process id that now belongs to another process is
// taken over once it has stood still past the stale time, never blocking
// for ever. Bounded: 8 rounds of 4 processes started together, 10 turns each.
// Heavy tier: real processes and a 2-second stale time, about 15 seconds.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LockHeldError, lockOwner, lockSync } from '../../../src/main/local-data/file-lock.ts';

const WORKER = join(import.meta.dirname, 'lock-race-worker.ts');
const HOLDER = join(import.meta.dirname, 'lock-holder.ts');
const PROCESSES = 4;
const TURNS = 10;
const ROUNDS = 8;

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-lock-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A process id that no process has now: one that has just exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

/** A lock as a process left it: `pid` inside, last touched `ageMs` ago. */
function plantLock(lockPath: string, pid: number, ageMs: number): void {
  mkdirSync(lockPath);
  writeFileSync(join(lockPath, 'owner'), String(pid));
  const at = new Date(Date.now() - ageMs);
  utimesSync(lockPath, at, at);
}

function race(lockPath: string, marker: string, counter: string, go: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [WORKER, lockPath, marker, counter, String(TURNS), go],
      { timeout: 60_000 },
      (error, stdout) => {
        if (error) reject(new Error(error.message));
        else resolve((JSON.parse(stdout) as { overlaps: number }).overlaps);
      },
    );
  });
}

function live(child: ChildProcess): void {
  cleanups.push(() => child.kill('SIGKILL'));
}

describe('file locks between processes', () => {
  it(
    `${PROCESSES} processes racing over a stale lock, started together, ${ROUNDS} rounds: never two inside, no update lost`,
    { timeout: 120_000 },
    async () => {
      const dir = folder();
      const lockPath = join(dir, 'record.json.lock');
      const marker = join(dir, 'inside');
      const counter = join(dir, 'counter');
      writeFileSync(counter, '0');
      let overlaps = 0;
      for (let round = 0; round < ROUNDS; round++) {
        // Left by a process that died holding it, a minute ago: every racer judges it stale at once.
        plantLock(lockPath, await deadPid(), 60_000);
        const go = join(dir, `go-${round}`);
        const racing = Promise.all(
          Array.from({ length: PROCESSES }, () => race(lockPath, marker, counter, go)),
        );
        // All loaded and waiting, then all at once.
        for (let i = 0; i < 600; i++) {
          if (
            readdirSync(dir).filter((name) => name.startsWith(`go-${round}.ready.`)).length ===
            PROCESSES
          )
            break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        writeFileSync(go, '');
        const found = await racing;
        overlaps += found.reduce((a, b) => a + b, 0);
      }
      console.log(
        `lock race: ${ROUNDS} rounds of ${PROCESSES} processes x ${TURNS} turns over a planted stale lock, ${overlaps} overlaps, counter ${readFileSync(counter, 'utf8')}`,
      );
      expect(overlaps).toBe(0);
      expect(Number(readFileSync(counter, 'utf8'))).toBe(ROUNDS * PROCESSES * TURNS);
    },
  );

  it('takes over at once a lock whose process was killed holding it', async () => {
    const lockPath = join(folder(), 'journal.lock');
    const holder = spawn(process.execPath, [HOLDER, lockPath], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    live(holder);
    await new Promise((resolve) => holder.stdout.once('data', resolve));
    expect(lockOwner(lockPath)).toBe(holder.pid);
    expect(() => lockSync(lockPath, { staleMs: 5_000 })).toThrow(LockHeldError);
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.on('exit', resolve));
    // Killed, it refreshed the lock a moment ago: gone all the same, so taken at once.
    const release = lockSync(lockPath, { staleMs: 5_000 });
    expect(lockOwner(lockPath)).toBe(process.pid);
    release();
  });

  it('takes over at once a lock from before a reboot (its process gone, days old)', async () => {
    const lockPath = join(folder(), 'journal.lock');
    plantLock(lockPath, await deadPid(), 2 * 24 * 3_600_000);
    const release = lockSync(lockPath, { staleMs: 5_000 });
    release();
  });

  it('takes over, after the stale time, a lock naming a process id now used by another process', async () => {
    const lockPath = join(folder(), 'journal.lock');
    // A live process that has nothing to do with the lock, as a recycled process id would be.
    const stranger = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)']);
    live(stranger);
    plantLock(lockPath, stranger.pid!, 0);
    expect(() => lockSync(lockPath, { staleMs: 2_000 })).toThrow(LockHeldError);
    // Bounded: nobody keeps it fresh, so it is stale after 2 s (tried for at most 10).
    const started = Date.now();
    let release: (() => void) | undefined;
    while (!release && Date.now() - started < 10_000) {
      try {
        release = lockSync(lockPath, { staleMs: 2_000 });
      } catch (error) {
        if (!(error instanceof LockHeldError)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(release).toBeDefined();
    expect(lockOwner(lockPath)).toBe(process.pid);
    release!();
  });

  it('refuses a lock its live holder keeps fresh', async () => {
    const lockPath = join(folder(), 'journal.lock');
    const holder = spawn(process.execPath, [HOLDER, lockPath], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    live(holder);
    await new Promise((resolve) => holder.stdout.once('data', resolve));
    for (let i = 0; i < 3; i++) {
      expect(() => lockSync(lockPath, { staleMs: 5_000 })).toThrow(LockHeldError);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
});
