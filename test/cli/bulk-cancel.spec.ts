// store-admin orders cancel --from FILE: real CLI processes against the
// sandbox, with faults, a SIGKILL part-way and --resume.

import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { replay } from '../../src/main/bulk-cancel/journal.ts';
import { BulkJournal } from '../../src/main/bulk-cancel/journal.ts';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import type { BulkOutcome } from '../../src/shared/bulk-cancel.ts';

interface CliResult {
  readonly orderId: string;
  readonly outcome: BulkOutcome;
  readonly delivery: string;
  readonly message: string;
  readonly continued?: boolean;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(faults?: string): Promise<Sandbox> {
  const started = await startSandbox({ port: 0, orders: 400, faults });
  cleanups.push(() => started.close());
  return started;
}

/**
 * A sandbox whose first `count` answers come after 30 ms and whose later ones
 * wait until `release()` (then come at once), closed after the test.
 */
async function answersHeldAfter(count: number): Promise<{ store: Sandbox; release: () => void }> {
  let answered = 0;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const store = await startSandbox({
    port: 0,
    orders: 400,
    faults: 'latency=30@1',
    sleep: (ms) => (++answered > count ? released : sleep(ms)),
  });
  cleanups.push(() => store.close());
  return { store, release };
}

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cli-bulk-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function args(baseUrl: string, ...more: string[]): string[] {
  return ['bin/store-admin.js', 'orders', 'cancel', ...more, '--base-url', baseUrl];
}

function run(argv: string[], dataDir: string) {
  return runWithKey(argv, dataDir, 'demo-pro');
}

function runWithKey(argv: string[], dataDir: string, key: string) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      argv,
      {
        env: { ...process.env, STORE_ADMIN_API_KEY: key, STORE_ADMIN_DATA_DIR: dataDir },
        timeout: 60_000,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number((error as { code?: unknown }).code ?? -1) : 0,
          stdout,
          stderr,
        }),
    );
  });
}

/**
 * Reads the CLI's journal every few milliseconds until `reached` holds for the job it
 * replays (the journal appears once the run starts), for at most 30 seconds.
 */
async function untilJournal(
  dataDir: string,
  reached: (job: NonNullable<ReturnType<typeof replay>>) => boolean,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (readdirSync(dataDir).some((n) => /^bulk-cancel-cli-[0-9a-f]+\.jsonl$/.test(n))) {
      const job = replay(await cliJournal(dataDir).read());
      if (job && reached(job)) return;
    }
    await sleep(2);
  }
  throw new Error('the CLI journal never reached the point the test waits for');
}

/** The CLI's journal of the sandbox's address in a data folder. */
function cliJournal(dataDir: string): BulkJournal {
  const name = readdirSync(dataDir).find((n) => /^bulk-cancel-cli-[0-9a-f]+\.jsonl$/.test(n));
  return new BulkJournal(dataDir, {
    environment: 'production',
    key: name!.slice('bulk-cancel-'.length, -'.jsonl'.length),
  });
}

/** Each result as the sandbox has the order now. */
function expectMatchesSandbox(store: Sandbox, results: readonly CliResult[]): void {
  for (const result of results) {
    const status = store.orderStatus(result.orderId);
    const expected: Record<BulkOutcome, (string | undefined)[]> = {
      cancelled: ['cancelled'],
      // A 404 after a lost answer: removed by that try, or never there.
      gone: ['cancelled', undefined],
      'already-shipped': ['shipped'],
      'not-found': ['cancelled', undefined],
      failed: [],
    };
    expect(expected[result.outcome], `${result.orderId} ${result.outcome}`).toContain(status);
  }
}

describe('store-admin orders cancel --from FILE', () => {
  it('cancels a CSV of orders with one result each, as the sandbox has them, and a progress line', async () => {
    const store = await sandbox('latency=10@0.3,5xx@0.05,reset@0.05');
    const dir = folder();
    const pending = store.orderIds({ status: 'pending' }).slice(0, 40);
    const shipped = store.orderIds({ status: 'shipped' }).slice(0, 8);
    const csv = join(dir, 'orders.csv');
    // The app's own export names the column "Order ID"; ids quoted, a note with a comma and a line break.
    writeFileSync(
      csv,
      `"Order ID","Note"\r\n${[...pending, ...shipped, '990001', pending[0]!].map((id) => `"${id}","x, ""y""\ny"`).join('\r\n')}\r\n`,
    );
    const { code, stdout, stderr } = await run(args(store.baseUrl, '--from', csv, '--json'), dir);
    expect(stderr).toMatch(/Cancelling: \d+ of 49 done/);
    expect(stderr).toContain('1 order numbers appear more than once');
    const out = JSON.parse(stdout) as { ok: boolean; results: CliResult[] };
    expect(code).toBe(0);
    expect(out.ok).toBe(true);
    expect(out.results).toHaveLength(49);
    expect(new Set(out.results.map((r) => r.orderId)).size).toBe(49);
    expectMatchesSandbox(store, out.results);
    const outcome = (id: string) => out.results.find((r) => r.orderId === id)!.outcome;
    expect(shipped.every((id) => outcome(id) === 'already-shipped')).toBe(true);
    expect(['not-found', 'gone']).toContain(outcome('990001'));
    expect(pending.every((id) => ['cancelled', 'gone'].includes(outcome(id)))).toBe(true);
    // "gone" says the delivery of the earlier try is unknown; the others were answered.
    for (const r of out.results)
      expect(r.delivery).toBe(r.outcome === 'gone' ? 'unknown' : 'answered');
  });

  it('refuses a file with a bad line, naming it, and sends nothing', async () => {
    const store = await sandbox();
    const dir = folder();
    const file = join(dir, 'ids.txt');
    writeFileSync(file, '12\n13\n1e3\n14\n');
    const bad = await run(args(store.baseUrl, '--from', file), dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('line 3: “1e3” is not an order number');
    expect(await run(args(store.baseUrl, '--from', join(dir, 'missing.txt')), dir)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('cannot read'),
    });
    expect(await run(args(store.baseUrl, '--resume'), dir)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('nothing to resume'),
    });
    // --from and --resume belong to orders cancel, not to another command that would ignore them.
    const misplaced = await run(
      ['bin/store-admin.js', 'orders', 'list', '--resume', '--base-url', store.baseUrl],
      dir,
    );
    expect(misplaced).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('belong to orders cancel'),
    });
    expect(store.requestLog.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });

  it('resumes after a SIGKILL: every order once, each as the sandbox has it, a lost answer said so', async () => {
    // Answers after the 20th are held until the run is killed, so DELETEs are on their way at
    // the kill however slow this side is (the run could finish first).
    const { store, release } = await answersHeldAfter(20);
    const dir = folder();
    const pending = store.orderIds({ status: 'pending' }).slice(0, 60);
    const shipped = store.orderIds({ status: 'shipped' }).slice(0, 10);
    const ids = [...pending, ...shipped];
    const file = join(dir, 'ids.txt');
    writeFileSync(file, `${ids.join('\n')}\n`);

    // First run, killed once it has some results.
    const child = spawn(process.execPath, args(store.baseUrl, '--from', file, '--json'), {
      env: { ...process.env, STORE_ADMIN_API_KEY: 'demo-pro', STORE_ADMIN_DATA_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await untilJournal(
      dir,
      (job) =>
        job.results.length >= 20 && [...job.items.values()].some((state) => state === 'sent'),
    );
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    release();
    const killed = replay(await cliJournal(dir).read())!;
    const lost = [...killed.items.entries()].filter(([, s]) => s === 'sent').map(([id]) => id);
    expect(lost.length).toBeGreaterThan(0);

    // A new run without --resume refuses, pointing at it.
    const refused = await run(args(store.baseUrl, '--from', file), dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--resume');

    const resumed = await run(args(store.baseUrl, '--resume', '--json'), dir);
    expect(resumed.code).toBe(0);
    const out = JSON.parse(resumed.stdout) as { ok: boolean; results: CliResult[] };
    expect(out.ok).toBe(true);
    // Exactly one result per order, never two, each matching the sandbox.
    expect(out.results).toHaveLength(70);
    expect(new Set(out.results.map((r) => r.orderId)).size).toBe(70);
    expectMatchesSandbox(store, out.results);
    expect(pending.every((id) => store.orderStatus(id) === 'cancelled')).toBe(true);
    // The orders whose answer the kill took were continued, and their results say so.
    for (const id of lost) {
      const result = out.results.find((r) => r.orderId === id)!;
      expect(result.continued, id).toBe(true);
      if (result.outcome === 'gone')
        expect(result.message).toContain('an earlier try was sent and its answer was lost');
      if (result.outcome === 'cancelled')
        expect(result.message).toContain("earlier try's answer was lost");
    }
    // Only they were sent twice.
    const deletes = new Map<string, number>();
    for (const entry of store.requestLog.filter((r) => r.method === 'DELETE')) {
      const id = entry.path.split('/').pop()!;
      deletes.set(id, (deletes.get(id) ?? 0) + 1);
    }
    const twice = [...deletes.entries()].filter(([, n]) => n > 1).map(([id]) => id);
    expect(twice.every((id) => lost.includes(id))).toBe(true);
  });
});

describe('store-admin orders cancel --from FILE, interrupted', () => {
  // Windows has no signals between processes: kill('SIGINT') ends the run outright there, so what
  // Ctrl-C does in a console (the run's own SIGINT handler) shows only where signals exist.
  const signals = process.platform !== 'win32';
  it.runIf(signals)(
    `Ctrl-C sends nothing more, waits for the answers on their way, and --resume finishes without an unknown answer${signals ? '' : ' (skipped on Windows: no signal reaches another process there)'}`,
    async () => {
      // Answers after the 10th are held until the test has pressed Ctrl-C, so the run cannot
      // finish first however slow this side is.
      const { store, release } = await answersHeldAfter(10);
      const dir = folder();
      const ids = store.orderIds({ status: 'pending' }).slice(0, 60);
      const file = join(dir, 'ids.txt');
      writeFileSync(file, `${ids.join('\n')}\n`);
      const child = spawn(process.execPath, args(store.baseUrl, '--from', file), {
        env: { ...process.env, STORE_ADMIN_API_KEY: 'demo-pro', STORE_ADMIN_DATA_DIR: dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      await untilJournal(dir, (job) => job.results.length >= 10);
      child.kill('SIGINT');
      release();
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toContain('--resume');
      // Every DELETE that left has its answer in the journal.
      const stopped = replay(await cliJournal(dir).read())!;
      expect([...stopped.items.values()].filter((state) => state === 'sent')).toHaveLength(0);
      expect(stopped.results.length).toBeLessThan(60);

      const resumed = await run(args(store.baseUrl, '--resume', '--json'), dir);
      expect(resumed.code).toBe(0);
      const out = JSON.parse(resumed.stdout) as { results: CliResult[] };
      expect(out.results).toHaveLength(60);
      expect(out.results.every((r) => r.outcome === 'cancelled' && !r.continued)).toBe(true);
      expect(ids.every((id) => store.orderStatus(id) === 'cancelled')).toBe(true);
      expect(store.requestLog.filter((r) => r.method === 'DELETE')).toHaveLength(60);
    },
  );
});
