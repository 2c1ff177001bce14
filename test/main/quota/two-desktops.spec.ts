// Several desktops, one key: two app instances on different computers (each
// with its own data folder, so no shared gate file) run bulk cancels on the
// same key at once. Together they must receive no 429 and use at least 90%
// of the allowed rate: each gate paces from what the service reports.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../../src/main/app-services.ts';
import { DEFAULT_SETTINGS } from '../../../src/main/environments/environment-service.ts';
import { KeyStore } from '../../../src/main/keys/key-store.ts';
import { MemoryCiphertextStore } from '../../../src/main/keys/memory-ciphertext-store.ts';
import { declineKeyForOrigin } from '../../../src/main/keys/origin-confirmation.ts';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import { FakeSafeStorage } from '../../support/electron-mock.ts';
import { scheduledTiming, type VirtualTiming } from '../../support/virtual-timing.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function desktop(sandbox: Sandbox, key: string, timing: VirtualTiming): Promise<AppServices> {
  const dataDir = await mkdtemp(join(tmpdir(), 'desktop-'));
  let settings = DEFAULT_SETTINGS;
  const services = createAppServices({
    dataDir,
    timing,
    settings: { read: () => settings, write: (next) => (settings = next) },
    keys: new KeyStore({
      safeStorage: new FakeSafeStorage('keychain'),
      store: new MemoryCiphertextStore(),
      platform: 'darwin',
    }),
    confirmKeyForOrigin: declineKeyForOrigin,
    startSandbox: async () => ({ baseUrl: sandbox.baseUrl, key, close: async () => undefined }),
  });
  services.handlers(() => undefined);
  cleanups.push(async () => {
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return services;
}

export interface DesktopsRun {
  /** DELETEs answered (not 429) per full window, together. */
  readonly perWindow: readonly number[];
  readonly ratio: number;
  readonly rejected: number;
  readonly results: number;
}

/** `count` desktops cancel `each` orders apiece on one Free key, every request taking `latencyMs`. */
async function runDesktops(count: number, each: number, latencyMs: number): Promise<DesktopsRun> {
  const timing = scheduledTiming({ start: Date.UTC(2026, 10, 22, 9, 0, 0) });
  const sandbox = await startSandbox({
    port: 0,
    orders: Math.ceil(count * each * 2),
    now: timing.now,
    sleep: (ms) => timing.sleep(ms),
    faults: `latency=${latencyMs}@1`,
  });
  cleanups.push(() => sandbox.close());
  const pending = sandbox.orderIds({ status: 'pending' });
  const queues = [];
  for (let i = 0; i < count; i++) {
    const services = await desktop(sandbox, 'demo-free', timing);
    queues.push((await services.bulkCancelOf('sandbox'))!);
  }
  await Promise.all(queues.map((q, i) => q.start(pending.slice(i * each, (i + 1) * each))));
  await Promise.all(queues.map((q) => q.idle()));
  const deletes = sandbox.requestLog.filter((r) => r.method === 'DELETE');
  const windows = new Map<number, number>();
  for (const entry of deletes) {
    const w = Math.floor(entry.at / 60_000);
    windows.set(w, (windows.get(w) ?? 0) + (entry.status === 429 ? 0 : 1));
  }
  // The last window is partial.
  const perWindow = [...windows.entries()]
    .sort(([x], [y]) => x - y)
    .map(([, n]) => n)
    .slice(0, -1);
  return {
    perWindow,
    ratio: perWindow.reduce((s, n) => s + n, 0) / perWindow.length / 60,
    rejected: deletes.filter((r) => r.status === 429).length,
    results: queues.reduce((s, q) => s + q.results().length, 0),
  };
}

describe('several desktops, one key (virtual clock, 80 ms a request)', () => {
  it('two bulk cancels together get no 429 and use at least 90% of the rate', async () => {
    const run = await runDesktops(2, 240, 80);
    expect(run.results).toBe(480);
    console.log(run);
    expect(run.rejected).toBe(0);
    expect(run.ratio).toBeGreaterThanOrEqual(0.9);
  });

  it('three get no 429 either: the margin follows what the service reports', async () => {
    const run = await runDesktops(3, 160, 80);
    expect(run.results).toBe(480);
    console.log(run);
    expect(run.rejected).toBe(0);
    expect(run.ratio).toBeGreaterThanOrEqual(0.85);
  });
});
