// A shell loop over store-admin on a data folder that takes no writes must
// not get the key banned. Real runs of the command against the sandbox's
// Free plan, its window already spent by someone else, on a real read-only
// file system and on a real full one (a tmpfs: root can always write to a
// folder, so chmod would prove nothing). The gate's state moves to a folder
// that takes it and is shared there: one 429, no ban, every later run held
// back sending nothing, and each run says where the state went in one line.
// When no folder takes it at all, a run sends nothing.
//
// The sandbox's clock stands still, so its window cannot reset while the
// loop runs, however slow the machine: the figures do not depend on time.
// Heavy tier: three loops of real processes, about 10 to 15 seconds.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/run.ts';
import { fallbackFolderOf, quotaFolder } from '../../src/main/quota/shared-gate-files.ts';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import { runCliProcess, type CliRun } from '../support/cli-process.ts';
import { canMountTmpfs, fillDisk, mountTmpfs, TMPFS_SKIPPED } from '../support/tmpfs.ts';

const RUNS = 8;
const FREE_PER_MINUTE = 60;
const mountable = canMountTmpfs();
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A data folder on its own tmpfs, read-only or full. */
function badDisk(kind: 'read-only' | 'full'): string {
  const disk = mountTmpfs('256k');
  cleanups.push(() => disk.unmount());
  if (kind === 'read-only') execFileSync('mount', ['-o', 'remount,ro', disk.dir]);
  else fillDisk(join(disk.dir, 'filler'));
  cleanups.push(() =>
    rmSync(fallbackFolderOf(quotaFolder(disk.dir)), { recursive: true, force: true }),
  );
  return disk.dir;
}

async function spentSandbox(): Promise<Sandbox> {
  // A clock that stands still a second into a window (the sandbox's windows start at whole
  // minutes): the window stays spent, its reset a minute away, for the whole loop.
  const frozen = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
  const sandbox = await startSandbox({ port: 0, orders: 50, now: () => frozen });
  cleanups.push(() => sandbox.close());
  for (let i = 0; i < FREE_PER_MINUTE; i++) {
    const response = await fetch(`${sandbox.baseUrl}/store/orders`, {
      headers: { authorization: 'Bearer demo-free' },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  }
  sandbox.clearRequestLog();
  return sandbox;
}

async function loop(sandbox: Sandbox, dataDir: string, env: Record<string, string> = {}) {
  const cacheDir = mkdtempSync(join(tmpdir(), 'store-admin-loop-cache-'));
  cleanups.push(() => rmSync(cacheDir, { recursive: true, force: true }));
  const ids = sandbox.orderIds({ status: 'pending' }).slice(0, RUNS);
  const runs: CliRun[] = [];
  for (const id of ids) {
    runs.push(
      await runCliProcess(['orders', 'cancel', id, '--json', '--base-url', sandbox.baseUrl], {
        STORE_ADMIN_API_KEY: 'demo-free',
        STORE_ADMIN_DATA_DIR: dataDir,
        STORE_ADMIN_CACHE_DIR: cacheDir,
        ...env,
      }),
    );
  }
  const probe = await fetch(`${sandbox.baseUrl}/store/orders`, {
    headers: { authorization: 'Bearer demo-free' },
  });
  const probeBody = (await probe.json()) as { code?: string };
  const errors = runs.map(
    (run) =>
      (JSON.parse(run.stdout || '{}') as { error?: { kind: string; delivery: string } }).error,
  );
  const deletes = sandbox.requestLog.filter((entry) => entry.method === 'DELETE');
  return {
    runs,
    sent: deletes.length,
    answers429: deletes.filter((entry) => entry.status === 429).length,
    bans:
      errors.filter((error) => error?.kind === 'banned').length +
      (probeBody.code === 'api_key_banned' ? 1 : 0),
    heldNotSent: errors.filter((e) => e?.kind === 'rate-limited' && e.delivery === 'not-sent')
      .length,
  };
}

describe.skipIf(!mountable)(
  `a loop of ${RUNS} runs on the Free plan, window spent, on a data folder that takes no writes${mountable ? '' : TMPFS_SKIPPED}`,
  () => {
    for (const kind of ['read-only', 'full'] as const) {
      it(
        `on a ${kind} disk: one 429, no ban, the rest held back sending nothing`,
        { timeout: 120_000 },
        async () => {
          const sandbox = await spentSandbox();
          const dataDir = badDisk(kind);
          const figures = await loop(sandbox, dataDir);
          console.log(
            `CLI loop on a ${kind} data folder: ${RUNS} runs, ${figures.sent} DELETEs sent, ` +
              `${figures.answers429} answers of 429, ${figures.heldNotSent} held back sending nothing, bans: ${figures.bans}`,
          );
          expect(figures.runs.map((run) => run.code)).toEqual(Array(RUNS).fill(EXIT.held));
          expect(figures.bans).toBe(0);
          expect(figures.answers429).toBe(1);
          expect(figures.sent).toBe(1);
          expect(figures.heldNotSent).toBe(RUNS - 1);
          for (const run of figures.runs) {
            const notes = run.stderr.split('\n').filter((line) => line.includes('request pacing'));
            expect(notes).toHaveLength(1);
            expect(notes[0]).toContain(quotaFolder(dataDir));
            expect(notes[0]).toContain('STORE_ADMIN_DATA_DIR');
            expect(notes[0]).toContain(kind === 'full' ? 'the disk is full' : 'read-only');
          }
        },
      );
    }

    it(
      'sends nothing at all when no folder takes the state, and says so in one line',
      { timeout: 120_000 },
      async () => {
        const sandbox = await spentSandbox();
        const dataDir = badDisk('read-only');
        const temporary = badDisk('read-only');
        const figures = await loop(sandbox, dataDir, { TMPDIR: temporary });
        expect(figures.sent).toBe(0);
        for (const run of figures.runs) {
          expect(run.code).toBe(EXIT.failed);
          const { error } = JSON.parse(run.stdout) as {
            error: { message: string; delivery: string };
          };
          expect(error.delivery).toBe('not-sent');
          expect(error.message).toContain(quotaFolder(dataDir));
          expect(error.message).toContain('sends nothing');
          expect(error.message).toContain('STORE_ADMIN_DATA_DIR');
        }
      },
    );
  },
);
