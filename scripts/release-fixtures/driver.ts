// Makes a data folder the way a clerk would, with an earlier release's own
// code. scripts/release-fixtures.ts copies this file into that release's
// checkout (as test/main/release-fixture.spec.ts) and runs it with that
// release's vitest, one stage at a time: everything of the release it
// reaches, it reaches through the release's own test support (its in-process
// app: the real main services behind its IPC dispatch), its sandbox and its
// command line, loaded by path from the checkout. Nothing here is imported
// from the current code.
//
// Stages (FIXTURE_STAGE), each in a process of its own:
// - `app`: lists and a refresh, single cancels, marks and notes, settings,
//   a domain in progress (watched, where the release watched domains), a
//   banned key's quota state;
// - `bulk`: a bulk cancel in the app, the process killed (SIGKILL) midway
//   with DELETEs on their way;
// - `cli`: the command line's folders (lists, cancels, a bulk cancel killed
//   midway), where the release's command line had them.
// Each stage writes what it did to `stage-<name>.json` in the output folder.

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { it } from 'vitest';

/** What the orchestrator passes (FIXTURE_CONFIG, JSON). */
interface DriverConfig {
  /** The fixture's folder: `app/` (the app's userData), `cli-cache/`. */
  readonly out: string;
  readonly productionPort: number;
  readonly stagingPort: number;
  readonly productionOrders: number;
  readonly seed: number;
  /** The release keeps domains per environment (0.1.0, 0.2.0) or per project (0.3.0 on). */
  readonly domains: 'environment' | 'project';
  /** The release's command line keeps lists and journals (0.2.0 on). */
  readonly cliFolders: boolean;
  readonly productionKey: string;
  readonly stagingKey: string;
  readonly projectName: string;
}

type Result =
  { ok: true; value: unknown } | { ok: false; error: { kind: string; message: string } };

interface ReleaseApp {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  readList?: (
    channel: 'orders:list' | 'orders:cached',
    environment: string,
  ) => Promise<{ result: Result; orders: { id?: string }[] }>;
  close(): Promise<void>;
}

interface ReleaseSandbox {
  readonly baseUrl: string;
  orderIds(filter?: { status?: string }): string[];
  setOrderStatus(id: string, status: string): void;
  close(): Promise<void>;
}

interface SandboxModule {
  startSandbox(options: Record<string, unknown>): Promise<ReleaseSandbox>;
}
interface InProcessModule {
  startInProcessApp(options: Record<string, unknown>): Promise<ReleaseApp>;
}

const config = JSON.parse(process.env.FIXTURE_CONFIG ?? '{}') as DriverConfig;
const stage = process.env.FIXTURE_STAGE ?? '';
const root = process.cwd();
const appData = () => join(config.out, 'app');
const dataDir = () => join(appData(), 'local-data');

const load = <T>(path: string): Promise<T> => import(join(root, path)) as Promise<T>;

function ok(result: unknown, what: string): unknown {
  const r = result as Result;
  if (!r.ok) throw new Error(`${what}: ${r.error.kind} ${r.error.message}`);
  return r.value;
}

function record(name: string, facts: unknown): void {
  writeFileSync(join(config.out, `stage-${name}.json`), `${JSON.stringify(facts, null, 2)}\n`);
}

async function sandboxes(latencyMs = 0) {
  const { startSandbox } = await load<SandboxModule>('src/main/sandbox/server.ts');
  const production = await startSandbox({
    port: config.productionPort,
    orders: config.productionOrders,
    seed: config.seed,
    ...(latencyMs > 0 ? { faults: `latency=${latencyMs}` } : {}),
  });
  // A key of a tiny plan, so another client's requests get it banned.
  const staging = await startSandbox({
    port: config.stagingPort,
    orders: 30,
    seed: config.seed + 1,
    keys: [{ plan: 'enterprise', key: config.stagingKey }],
    enterpriseLimits: { perMinute: 1, perDay: 1000 },
    banAfter: 1,
  });
  return { production, staging };
}

async function app(settings: unknown): Promise<ReleaseApp> {
  const { startInProcessApp } = await load<InProcessModule>('test/support/in-process-app.ts');
  return startInProcessApp({
    dataDir: dataDir(),
    settings,
    sandbox: { orders: 40 },
    confirmKeyForOrigin: async () => true,
  });
}

/** A whole list, as the release's window asked for it. */
async function list(
  clerk: ReleaseApp,
  environment: string,
): Promise<{ count: number; ids: string[] }> {
  if (clerk.readList) {
    const { result, orders } = await clerk.readList('orders:list', environment);
    ok(result, `list ${environment}`);
    return { count: orders.length, ids: orders.flatMap((order) => (order.id ? [order.id] : [])) };
  }
  // 0.1.0: the body came back whole.
  const value = ok(await clerk.invoke('orders:list', environment), `list ${environment}`) as {
    body: string;
    count: number;
  };
  const ids = [...value.body.matchAll(/"id"\s*:\s*(\d+)/g)].map((match) => match[1]!);
  return { count: value.count, ids };
}

/** The settings file as electron-store writes it (electron-store is `conf` in the userData folder). */
async function saveSettings(settings: unknown): Promise<void> {
  const { default: Conf } = (await import(
    join(root, 'node_modules/conf/dist/source/index.js')
  )) as {
    default: new (options: Record<string, unknown>) => { set(key: string, value: unknown): void };
  };
  const store = new Conf({
    cwd: appData(),
    configName: 'settings',
    projectName: 'store-admin',
    clearInvalidConfig: true,
  });
  store.set('settings', settings);
}

/** Raw requests from another client of the staging key, past its limit: the service bans the key. */
async function banStagingKey(baseUrl: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) {
    const response = await fetch(`${baseUrl}/store/orders`, {
      headers: { authorization: `Bearer ${config.stagingKey}` },
    });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

async function appStage(): Promise<void> {
  const { production, staging } = await sandboxes();
  const settings = {
    activeEnvironment: 'production',
    baseUrls: { production: production.baseUrl, staging: staging.baseUrl },
  };
  const clerk = await app(settings);
  ok(await clerk.invoke('keys:set', 'production', config.productionKey), 'production key');
  ok(await clerk.invoke('keys:set', 'staging', config.stagingKey), 'staging key');

  const first = await list(clerk, 'production');
  // Between two refreshes: some orders cancelled elsewhere, some shipped.
  const pending = production.orderIds({ status: 'pending' });
  const goneElsewhere = pending.slice(0, 4);
  for (const id of goneElsewhere) production.setOrderStatus(id, 'cancelled');
  const shipped = pending.slice(4, 6);
  for (const id of shipped) production.setOrderStatus(id, 'shipped');
  const second = await list(clerk, 'production');
  const sandboxList = await list(clerk, 'sandbox');

  // Single cancels: one cancelled, one already shipped, one that is not there.
  const cancels: { orderId: string; kind: string }[] = [];
  for (const orderId of [pending[10]!, shipped[0]!, '987654321']) {
    const result = (await clerk.invoke('orders:cancel', 'production', orderId)) as Result;
    const outcome = result.ok ? (result.value as { kind?: string; outcome?: string }) : undefined;
    cancels.push({
      orderId,
      kind: outcome
        ? (outcome.kind ?? outcome.outcome ?? 'cancelled')
        : (result as { error: { kind: string } }).error.kind,
    });
  }
  // Cancelled here, then gone from the next list: "Cancelled here" in its changes.
  const third = await list(clerk, 'production');

  const marks = {
    [pending[20]!]: { reviewed: true, note: 'Checked with the warehouse' },
    [pending[21]!]: { reviewed: false, note: 'Kunde ruft zurück – 12:30' },
    [pending[22]!]: { reviewed: true, note: '' },
  };
  for (const [orderId, mark] of Object.entries(marks))
    ok(await clerk.invoke('review-marks:set', 'production', orderId, mark), 'mark');

  // A domain waiting on DNS. The DNS server named answers nothing: the watcher's checks say so.
  const domainSettings = { target: 'proxy.platform.example', resolver: '127.0.0.1:9' };
  let where: string = 'production';
  if (config.domains === 'project') {
    const added = ok(await clerk.invoke('domains:add-project', config.projectName), 'project') as {
      project: { id: string };
    };
    where = added.project.id;
  }
  const domainAt = Date.now();
  ok(await clerk.invoke('domains:save-settings', where, domainSettings), 'domain settings');
  const progress = {
    domain: 'shop.example.com',
    step: 'check-dns',
    preconditions: { paidPlan: true, dnsAccess: true, deployed: true },
    updatedAt: domainAt,
  };
  ok(await clerk.invoke('domains:save-progress', where, progress), 'domain progress');
  // Where the release watched domains (0.2.0 on), until its first check is saved.
  const watchFile = join(dataDir(), 'domain-watch.json');
  const watches = ((await clerk.invoke('domains:watch', where)) as Result).ok;
  let watched = false;
  for (let i = 0; watches && i < 100; i++) {
    if (existsSync(watchFile) && readFileSync(watchFile, 'utf8').includes('checkedAt')) {
      watched = true;
      break;
    }
    await sleep(100);
  }

  // The staging key banned by another client; the app's next request learns of it.
  const banStatuses = await banStagingKey(staging.baseUrl);
  const stagingList = (await clerk.invoke('orders:list', 'staging')) as Result;
  const quota = {
    production: ok(await clerk.invoke('quota:get', 'production'), 'quota'),
    staging: ok(await clerk.invoke('quota:get', 'staging'), 'quota'),
  };

  await clerk.close();
  await saveSettings(settings);
  await Promise.all([production.close(), staging.close()]);
  record('app', {
    settings,
    lists: { first, second, third, sandbox: { count: sandboxList.count } },
    goneElsewhere,
    shipped,
    cancels,
    marks,
    domain: { where, settings: domainSettings, progress, watched },
    banStatuses,
    stagingList: stagingList.ok ? 'ok' : stagingList.error.kind,
    quota,
  });
}

/** The journal lines of a file, as parsed (torn ones left out). */
function journalLines(file: string): { t: string; orderId?: string }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { t: string; orderId?: string }];
      } catch {
        return [];
      }
    });
}

function journalIn(dir: string, pattern: RegExp): string | undefined {
  const name = readdirSync(dir).find((found) => pattern.test(found));
  return name === undefined ? undefined : join(dir, name);
}

/** Waits until a journal has `results` answers and a DELETE on its way, then kills `kill`. */
async function killMidway(pattern: RegExp, results: number, kill: () => void): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const file = journalIn(dataDir(), pattern);
    if (file) {
      const lines = journalLines(file);
      const answered = new Set(lines.filter((l) => l.t === 'result').map((l) => l.orderId));
      const inFlight = lines.filter((l) => l.t === 'send' && !answered.has(l.orderId));
      if (answered.size >= results && inFlight.length > 0) {
        kill();
        return;
      }
    }
    await sleep(20);
  }
  throw new Error('the bulk cancel never reached the point to kill it at');
}

async function bulkStage(): Promise<void> {
  // Slow answers, so DELETEs are on their way when the process dies.
  const { production, staging } = await sandboxes(400);
  const app1 = JSON.parse(readFileSync(join(config.out, 'stage-app.json'), 'utf8')) as {
    settings: unknown;
  };
  const clerk = await app(app1.settings);
  ok(await clerk.invoke('keys:set', 'production', config.productionKey), 'production key');
  const orderIds = production.orderIds({ status: 'pending' }).slice(40, 80);
  record('bulk', { orderIds, staging: staging.baseUrl });
  ok(await clerk.invoke('bulk-cancel:start', 'production', orderIds), 'bulk cancel');
  // The app's own journal (not the command line's), killed as a crash would.
  await killMidway(/^bulk-cancel-production(-[0-9a-f]+)?\.jsonl$/, 8, () =>
    process.kill(process.pid, 'SIGKILL'),
  );
}

/** The release's command line, as a shell runs it, with the app's data folder and a cache folder of its own. */
function cli(args: string[]) {
  return spawn(process.execPath, [join(root, 'src/cli/index.ts'), ...args], {
    env: {
      ...process.env,
      STORE_ADMIN_API_KEY: config.productionKey,
      STORE_ADMIN_DATA_DIR: dataDir(),
      STORE_ADMIN_CACHE_DIR: join(config.out, 'cli-cache'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function cliRun(args: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = cli(args);
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.resume();
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout };
}

async function cliStage(): Promise<void> {
  const { production, staging } = await sandboxes(300);
  const url = production.baseUrl;
  const pending = production.orderIds({ status: 'pending' });
  const runs: { args: string; code: number | null }[] = [];
  const note = async (args: string[]) => {
    const run = await cliRun([...args, '--base-url', url]);
    runs.push({ args: args.join(' '), code: run.code });
  };
  await note(['orders', 'list']);
  for (const id of pending.slice(100, 103)) production.setOrderStatus(id, 'cancelled');
  await note(['orders', 'cancel', pending[104]!]);
  await note(['orders', 'cancel', pending[100]!]);
  await note(['orders', 'list']);
  const orderIds = pending.slice(110, 150);
  const file = join(config.out, 'cli-bulk-ids.txt');
  writeFileSync(file, `${orderIds.join('\n')}\n`);
  const bulk = cli(['orders', 'cancel', '--from', file, '--base-url', url]);
  bulk.stdout.resume();
  bulk.stderr.resume();
  const exited = new Promise((resolve) => bulk.on('exit', resolve));
  await killMidway(/^bulk-cancel-cli-[0-9a-f]+\.jsonl$/, 6, () => bulk.kill('SIGKILL'));
  await exited;
  record('cli', {
    runs,
    cancelledElsewhere: pending.slice(100, 103),
    cancelled: pending[104],
    bulkOrderIds: orderIds,
  });
  await Promise.all([production.close(), staging.close()]);
}

it(`makes the ${stage} part of a data folder`, { timeout: 120_000 }, async () => {
  if (stage === 'app') await appStage();
  else if (stage === 'bulk') await bulkStage();
  else if (stage === 'cli') await cliStage();
  else throw new Error(`no stage "${stage}"`);
});
