// One desktop's writes at once, in a process of its own, for the kill loop:
// the order cache (streamed in pieces, as a refresh writes it), review marks,
// settings (conf, the store under electron-store, as the app writes them),
// the key's quota state and a bulk cancel. Each write is marked on stdout as
// it begins (+kind) and ends (-kind), so the parent knows which writes a
// SIGKILL cut. The bulk cancel carries on from its journal at each start, as
// the app does.
// Env: DATA_DIR, SANDBOX_URL, KEY, IDS (comma-separated), FINISH (only finish the bulk cancel).

import Conf from 'conf';
import { BulkJournal } from '../../src/main/bulk-cancel/journal.ts';
import { BulkCancelQueue } from '../../src/main/bulk-cancel/queue.ts';
import { serviceScope } from '../../src/main/environments/service-scope.ts';
import { OrderCache } from '../../src/main/orders/order-cache.ts';
import { ReviewMarksStore } from '../../src/main/orders/review-marks.ts';
import { realTiming } from '../../src/main/store-api/clock.ts';
import { RequestGate } from '../../src/main/quota/gate.ts';
import { noteRemaining } from '../../src/main/quota/local-usage.ts';
import { RetryBudget } from '../../src/main/store-api/retry-budget.ts';
import { quotaFolder, SharedGateFolder } from '../../src/main/quota/shared-gate-files.ts';
import { StoreClient } from '../../src/main/store-api/client.ts';

const env = process.env as Record<string, string>;
const dir = env.DATA_DIR!;
const scope = serviceScope('sandbox');
const mark = (text: string): void => void process.stdout.write(`${text}\n`);
const yieldNow = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** The size of the pieces an order list arrives in (what a socket read hands over). */
const DOWNLOAD_CHUNK = 64 * 1024;

const store = new SharedGateFolder(quotaFolder(dir)).open(env.SANDBOX_URL!, env.KEY!);
const client = new StoreClient({
  baseUrl: env.SANDBOX_URL!,
  getKey: () => env.KEY,
  gate: new RequestGate({ timing: realTiming, store }),
  budget: new RetryBudget(Date.now),
});
const queue = new BulkCancelQueue({
  environment: 'sandbox',
  journal: new BulkJournal(dir, scope),
  client: async () => client,
  timing: realTiming,
  offlineRetryMs: 50,
});

async function bulk(): Promise<void> {
  await queue.load();
  if (!queue.snapshot()) await queue.start(env.IDS!.split(','));
  for (;;) {
    await queue.idle();
    if (queue.snapshot()!.status === 'finished') break;
    await new Promise((resolve) => setTimeout(resolve, 20)); // paused offline: it resumes itself
  }
  mark('bulk-done');
}

async function cacheWrites(): Promise<void> {
  const orders = Array.from(
    { length: 30_000 },
    (_, i) =>
      `{"id":${i + 1},"petId":${9_007_199_254_740_993n + BigInt(i)},"quantity":1,"shipDate":"2026-01-01T00:00:00Z","complete":false}`,
  );
  const body = Buffer.from(`[${orders.join(',')}]`);
  const cache = new OrderCache(dir);
  // What a crash left behind, removed as the app does at each start.
  await cache.sweepTemporaryFiles();
  for (let n = 1; ; n++) {
    mark('+cache');
    // As the app writes a refresh: begun with the first bytes, appended as they arrive,
    // committed once the whole list is read.
    const pending = cache.begin({ environment: 'sandbox', baseUrl: env.SANDBOX_URL! });
    for (let at = 0; at < body.length; at += DOWNLOAD_CHUNK) {
      await pending.append(body.subarray(at, at + DOWNLOAD_CHUNK));
      await yieldNow();
    }
    await pending.commit(30_000, n);
    mark('-cache');
  }
}

async function markWrites(): Promise<void> {
  const marks = new ReviewMarksStore(dir);
  for (let n = 1; ; n++) {
    mark('+marks');
    await marks.set(scope, String(1 + (n % 500)), { reviewed: n % 2 === 0, note: `note ${n}` }, n);
    mark('-marks');
  }
}

async function settingsWrites(): Promise<void> {
  const settings = new Conf<{ settings: unknown }>({
    cwd: dir,
    configName: 'settings',
    clearInvalidConfig: true,
  });
  for (let n = 1; ; n++) {
    mark('+settings');
    settings.set('settings', {
      activeEnvironment: n % 2 ? 'staging' : 'sandbox',
      baseUrls: { staging: `https://staging-${n}.example.com/v1` },
    });
    mark('-settings');
    await yieldNow();
  }
}

async function quotaWrites(): Promise<void> {
  for (let n = 1; ; n++) {
    mark('+quota');
    store.update((record) => noteRemaining(record.usage, n % 300, Date.now()));
    mark('-quota');
    await yieldNow();
  }
}

mark('ready');
if (env.FINISH) {
  await bulk();
} else {
  void cacheWrites();
  void markWrites();
  void settingsWrites();
  void quotaWrites();
  await bulk();
  // Keep writing until the kill comes.
  await new Promise(() => undefined);
}
