// A shell loop over the CLI must not get the key banned. 110 runs of the real
// `store-admin orders cancel` process against the sandbox's Free plan (60 a
// window) with a short window, one after another and six at a time. Someone
// else has spent most of the first window with the same key before the loop
// starts, so every loop meets the limit at once (each run used to start with
// an open gate: 429s, then api_key_banned).
//
// Every run must end cancelled (exit 0) or held back with nothing sent
// (exit 8); the key is never banned and at most one 429 comes back per window.
// The figures are printed for the record.
//
// The runs are real processes on the real clock, so the sandbox's windows
// keep real time's pace; but the sandbox's clock stands still while the
// window is spent and then starts from a chosen moment in it, so however slow
// the machine, the loop starts with the same time left in the spent window
// (and waits for no window to begin). The sandbox's clock is then ahead of
// the runs', which read its Date headers, as they would a service's.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/run.ts';
import { startSandbox } from '../../src/main/sandbox/server.ts';

const RUNS = 110;
const WINDOW_MS = 20_000;
/** Two runs get through before the limit, so the limit is met within the first few runs. */
const SPENT_BEFORE = 58;
/** The whole loop's bound (a slow machine's, not a target): past it no run is started, and the test fails. */
const LOOP_DEADLINE_MS = 480_000;
/** One run's bound: a run waits at most 10 s at the gate. */
const RUN_TIMEOUT_MS = 40_000;
/**
 * The window left when the loop starts: enough that, once the first runs are
 * done, the gate's wait is still past the 10 s a run waits (so the runs that
 * meet it are held back, not let through after a wait) unless two runs take
 * more than 9 s.
 */
const WINDOW_LEFT_AT_START_MS = 19_000;

/**
 * The sandbox's clock: it stands at a moment while the test spends the
 * window, then runs at real time's pace from that moment.
 */
function standingClock(at: number) {
  let standing: number | undefined = at;
  let offset = 0;
  return {
    now: (): number => standing ?? Date.now() + offset,
    run(): void {
      offset = standing! - Date.now();
      standing = undefined;
    },
  };
}

interface Run {
  readonly id: string;
  readonly code: number;
  readonly ms: number;
  readonly out: { outcome?: string; error?: { kind: string; delivery: string } };
}

function runCancel(id: string, baseUrl: string, dataDir: string): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/store-admin.js', 'orders', 'cancel', id, '--json', '--base-url', baseUrl],
      {
        env: { ...process.env, STORE_ADMIN_API_KEY: 'demo-free', STORE_ADMIN_DATA_DIR: dataDir },
        timeout: RUN_TIMEOUT_MS,
      },
      (error, stdout) => {
        const code = error ? Number((error as { code?: unknown }).code ?? -1) : 0;
        let out: Run['out'] = {};
        try {
          out = JSON.parse(stdout) as Run['out'];
        } catch {
          // no JSON: the run crashed or timed out, which the code shows
        }
        resolve({ id, code, ms: Date.now() - started, out });
      },
    );
  });
}

async function loop(concurrency: number) {
  // A moment in the next window with WINDOW_LEFT_AT_START_MS of it left.
  const windowEnd = (Math.floor(Date.now() / WINDOW_MS) + 2) * WINDOW_MS;
  const clock = standingClock(windowEnd - WINDOW_LEFT_AT_START_MS);
  const sandbox = await startSandbox({
    port: 0,
    orders: 400,
    minuteMs: WINDOW_MS,
    now: clock.now,
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'store-admin-loop-'));
  try {
    for (let i = 0; i < SPENT_BEFORE; i++) {
      const response = await fetch(`${sandbox.baseUrl}/store/orders`, {
        headers: { authorization: 'Bearer demo-free' },
      });
      await response.arrayBuffer();
    }
    sandbox.clearRequestLog();
    clock.run();
    const ids = sandbox.orderIds({ status: 'pending' }).slice(0, RUNS);
    expect(ids).toHaveLength(RUNS);
    const deadline = Date.now() + LOOP_DEADLINE_MS;
    const runs: Run[] = [];
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < ids.length && Date.now() < deadline) {
          runs.push(await runCancel(ids[next++]!, sandbox.baseUrl, dataDir));
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    // Is the key banned now? One request tells (after the loop, so it counts for nothing).
    const probe = await fetch(`${sandbox.baseUrl}/store/orders`, {
      headers: { authorization: 'Bearer demo-free' },
    });
    const probeBody = (await probe.json()) as { code?: string };
    const log = sandbox.requestLog.filter((entry) => entry.method === 'DELETE');
    const per429Window = new Map<number, number>();
    for (const entry of log.filter((e) => e.status === 429)) {
      const window = Math.floor(entry.at / WINDOW_MS);
      per429Window.set(window, (per429Window.get(window) ?? 0) + 1);
    }
    const held = runs.filter((r) => r.code === EXIT.held);
    return {
      runs,
      seconds,
      deletes: log.length,
      answers429: log.filter((e) => e.status === 429).length,
      most429InAWindow: Math.max(0, ...per429Window.values()),
      bannedRuns: runs.filter((r) => r.out.error?.kind === 'banned').length,
      bannedAfter: probeBody.code === 'api_key_banned',
      cancelled: runs.filter((r) => r.code === EXIT.ok).length,
      held: held.length,
      heldNotSent: held.filter((r) => r.out.error?.delivery === 'not-sent').length,
      slowestHeldExitMs: Math.max(0, ...held.map((r) => r.ms)),
      other: runs.filter((r) => r.code !== EXIT.ok && r.code !== EXIT.held),
      allCancelledOnServer: runs.every(
        (r) => r.code !== EXIT.ok || sandbox.orderStatus(r.id) === 'cancelled',
      ),
    };
  } finally {
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('a shell loop over store-admin orders cancel (Free plan, 20-second window)', () => {
  for (const [label, concurrency] of [
    ['one after another', 1],
    ['six at a time', 6],
  ] as const) {
    it(
      `${RUNS} runs ${label} never get the key banned and receive at most one 429 per window`,
      async () => {
        const figures = await loop(concurrency);
        console.log(
          `CLI loop, ${RUNS} runs ${label}: ${figures.cancelled} cancelled, ${figures.held} held back ` +
            `(${figures.heldNotSent} sending nothing), ${figures.answers429} answers of 429 ` +
            `(at most ${figures.most429InAWindow} in a window), bans: ${figures.bannedRuns + (figures.bannedAfter ? 1 : 0)}, ` +
            `${figures.deletes} DELETEs, ${figures.seconds.toFixed(0)} s`,
        );
        expect(figures.runs).toHaveLength(RUNS);
        expect(figures.other).toEqual([]);
        expect(figures.bannedRuns).toBe(0);
        expect(figures.bannedAfter).toBe(false);
        expect(figures.most429InAWindow).toBeLessThanOrEqual(1);
        // Held runs sent nothing: every DELETE is a cancel or one of those few 429s.
        expect(figures.heldNotSent).toBe(figures.held);
        expect(figures.deletes).toBe(figures.cancelled + figures.answers429);
        expect(figures.allCancelledOnServer).toBe(true);
        // The spent window was met: some runs were held back, and they did not hang.
        expect(figures.held).toBeGreaterThan(0);
        expect(figures.slowestHeldExitMs).toBeLessThan(RUN_TIMEOUT_MS);
      },
      LOOP_DEADLINE_MS + 60_000,
    );
  }
});
