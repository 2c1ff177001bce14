// The kill loop: a worker (kill-worker.ts) writes everything one desktop
// writes, and is killed with SIGKILL at seeded random moments. After every
// kill, what the next start reads must open (the old file or the new one,
// never a broken one); at the end the bulk cancel, carried on across every
// kill, has exactly one result per order, each as the sandbox has it.
// Each kill comes after a seeded number of the worker's write marks, not
// after a time: the kills land at the same points of the work on a fast
// machine and a slow one.
// Used by test/reliability/kill-loops.spec.ts (the heavy tier) and scripts/soak.ts.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BulkJournal, replay } from '../../src/main/bulk-cancel/journal.ts';
import { serviceScope } from '../../src/main/environments/service-scope.ts';
import { OrderCache } from '../../src/main/orders/order-cache.ts';
import { quotaFolder } from '../../src/main/quota/shared-gate-files.ts';
import { mulberry32 } from '../../src/main/sandbox/prng.ts';
import { startSandbox } from '../../src/main/sandbox/server.ts';

type Kind = 'cache' | 'marks' | 'settings' | 'quota' | 'bulk';

export interface KillLoopReport {
  readonly kills: number;
  /** Kills that landed while a write of that kind was under way. */
  readonly midWrite: Readonly<Record<Kind, number>>;
  /** Kills that cut at least one write. */
  readonly killsMidWrite: number;
  /** Files the next start could not open whole, by name (should be none). */
  readonly brokenFiles: readonly string[];
  readonly orders: number;
  /** Orders with no result at the end. */
  readonly lost: number;
  /** Orders with more than one result in the journal. */
  readonly doubled: number;
  /** Results that do not match the sandbox's state of the order. */
  readonly mismatched: number;
  /** Orders sent again after a kill took their answer (each said so in its result). */
  readonly continued: number;
  readonly elapsedMs: number;
}

const WORKER = join(import.meta.dirname, 'kill-worker.ts');

interface WorkerRun {
  readonly exited: Promise<void>;
  readonly open: Set<Kind>;
  readonly seen: Set<string>;
  /** Lines the worker has written so far. */
  lines(): number;
  kill(): void;
}

function startWorker(env: Record<string, string>, cacheDir: string): WorkerRun {
  const child = spawn(process.execPath, [WORKER], {
    env: { ...process.env, ...env, NODE_COMPILE_CACHE: cacheDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const open = new Set<Kind>();
  const seen = new Set<string>();
  let rest = '';
  let count = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      count += 1;
      seen.add(line);
      const kind = line.slice(1) as Kind;
      if (line.startsWith('+')) open.add(kind);
      else if (line.startsWith('-')) open.delete(kind);
    }
  });
  // Every mark written before the kill is in the pipe: read to its end, the open set is exact.
  const exited = new Promise<void>((resolve) => child.stdout.on('close', () => resolve()));
  return { exited, open, seen, lines: () => count, kill: () => void child.kill('SIGKILL') };
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return true;
}

/** Opens every file as the next start would; returns the names of those that are not whole. */
async function brokenFiles(dir: string): Promise<string[]> {
  const broken: string[] = [];
  const scope = serviceScope('sandbox');
  const cache = await new OrderCache(dir).read(scope);
  if (!cache.ok && cache.problem !== 'missing') broken.push('orders-sandbox.cache');
  const json = (file: string): void => {
    if (!existsSync(file)) return;
    try {
      JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      broken.push(file.slice(dir.length + 1));
    }
  };
  json(join(dir, 'review-marks-sandbox.json'));
  json(join(dir, 'settings.json'));
  const quota = quotaFolder(dir);
  if (existsSync(quota))
    for (const name of readdirSync(quota).filter((n) => n.endsWith('.json')))
      json(join(quota, name));
  // The journal: every line whole but a torn last one (skipped by design).
  const journal = join(dir, 'bulk-cancel-sandbox.jsonl');
  if (existsSync(journal)) {
    const lines = readFileSync(journal, 'utf8').split('\n').slice(0, -1);
    for (const line of lines.slice(0, -1)) {
      try {
        JSON.parse(line);
      } catch {
        broken.push('bulk-cancel-sandbox.jsonl');
        break;
      }
    }
  }
  return broken;
}

export async function runKillLoop(options: {
  readonly kills: number;
  readonly seed: number;
  readonly orders: number;
  /** The most write marks (+kind, -kind) the worker writes after it is ready before the kill. */
  readonly maxMarks?: number;
}): Promise<KillLoopReport> {
  const started = Date.now();
  const random = mulberry32(options.seed);
  const dir = mkdtempSync(join(tmpdir(), 'kill-loop-'));
  const cacheDir = join(tmpdir(), 'store-admin-kill-loop-compile-cache');
  const sandbox = await startSandbox({
    port: 0,
    orders: Math.ceil(options.orders * 2),
    seed: options.seed,
    faults: 'latency=25@1',
  });
  try {
    const pending = sandbox.orderIds({ status: 'pending' });
    const shipped = sandbox.orderIds({ status: 'shipped' });
    const shippedCount = Math.floor(options.orders / 10);
    const ids = [
      ...pending.slice(0, options.orders - shippedCount),
      ...shipped.slice(0, shippedCount),
    ];
    const env = {
      DATA_DIR: dir,
      SANDBOX_URL: sandbox.baseUrl,
      KEY: 'demo-enterprise',
      IDS: ids.join(','),
    };
    const midWrite: Record<Kind, number> = { cache: 0, marks: 0, settings: 0, quota: 0, bulk: 0 };
    let killsMidWrite = 0;
    const broken: string[] = [];
    const journal = new BulkJournal(dir, serviceScope('sandbox'));
    for (let k = 0; k < options.kills; k++) {
      const worker = startWorker(env, cacheDir);
      // Bounds for a stuck worker, not targets: a healthy one writes marks all the time.
      if (!(await until(() => worker.seen.has('ready'), 60_000)))
        throw new Error('worker did not start');
      const marks = worker.lines() + 1 + Math.floor(random() * (options.maxMarks ?? 1000));
      if (!(await until(() => worker.lines() >= marks, 60_000)))
        throw new Error('worker stopped writing');
      worker.kill();
      await worker.exited;
      const cut = new Set(worker.open);
      // A DELETE was on its way: its send line is journaled and its result is not.
      const job = replay(await journal.read());
      if (job && [...job.items.values()].includes('sent')) cut.add('bulk');
      for (const kind of cut) midWrite[kind] += 1;
      if (cut.size > 0) killsMidWrite += 1;
      broken.push(...(await brokenFiles(dir)));
    }
    // One last start finishes the bulk cancel.
    const last = startWorker({ ...env, FINISH: '1' }, cacheDir);
    await last.exited;
    const text = readFileSync(journal.file, 'utf8');
    const resultLines = text
      .split('\n')
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as { t: string; orderId: string }];
        } catch {
          return [];
        }
      })
      .filter((line) => line.t === 'result');
    const perOrder = new Map<string, number>();
    for (const line of resultLines)
      perOrder.set(line.orderId, (perOrder.get(line.orderId) ?? 0) + 1);
    const final = replay(await journal.read())!;
    const expected = (outcome: string): (string | undefined)[] =>
      outcome === 'already-shipped'
        ? ['shipped']
        : outcome === 'cancelled'
          ? ['cancelled']
          : outcome === 'gone'
            ? ['cancelled', undefined]
            : [];
    return {
      kills: options.kills,
      midWrite,
      killsMidWrite,
      brokenFiles: broken,
      orders: ids.length,
      lost: ids.filter((id) => !perOrder.has(id)).length,
      doubled: [...perOrder.values()].filter((n) => n > 1).length,
      mismatched: final.results.filter(
        (r) => !expected(r.outcome).includes(sandbox.orderStatus(r.orderId)),
      ).length,
      continued: final.results.filter((r) => r.continued).length,
      elapsedMs: Date.now() - started,
    };
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
