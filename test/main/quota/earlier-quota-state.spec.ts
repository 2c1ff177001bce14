// The quota state of release 0.1.0 (31bce36): one file, `quota-state.json`
// in the data folder, holding per environment the key's figures, a hold or
// ban, the day's local count and the chart, tied to the key by a
// fingerprint (a hash of the environment, the address and the key). Today
// the state is a record per key and address in `quota/`. The earlier file is
// read once into the record of its key, at its address: a ban saved before
// the upgrade still holds, the day's count goes on, nothing is counted twice.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox } from '../../../src/main/sandbox/server.ts';
import { runCliProcess } from '../../support/cli-process.ts';
import { type InProcessApp } from '../../support/in-process-app.ts';
import { useScratch } from '../../support/scratch.ts';

const KEY = 'demo-pro';
const scratch = useScratch('quota-state');
const { folder } = scratch;
const sandbox = (): Promise<Sandbox> => scratch.sandbox({ orders: 20 });
const app = (dataDir: string, baseUrl: string): Promise<InProcessApp> =>
  scratch.productionApp(dataDir, baseUrl, KEY);

/** How 0.1.0 tied a saved state to its key (environment-service.ts at 31bce36). */
function fingerprint(environment: string, baseUrl: string, key: string): string {
  return createHash('sha256')
    .update(`${environment}\n${baseUrl}\n${key}`)
    .digest('hex')
    .slice(0, 16);
}

function localDay(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** `quota-state.json` as 0.1.0 wrote it: Production banned for 20 more minutes, 57 sent today. */
function writeQuotaState(dataDir: string, baseUrl: string, now: number): number {
  const holdUntil = now + 20 * 60_000;
  const bucket = Math.floor(now / 10_000) * 10_000;
  const state = {
    production: {
      fingerprint: fingerprint('production', baseUrl, KEY),
      snapshot: {
        known: true,
        limit: 300,
        remaining: 0,
        resetAt: now + 30_000,
        observedAt: now - 5_000,
        holdUntil,
        holdReason: 'banned',
      },
      day: localDay(now),
      sentToday: 57,
      history: [{ at: bucket - 10_000, sent: 3, remaining: 0 }],
    },
    // Another key's state (the sandbox's, with the key it had then): never applied to this one.
    sandbox: {
      fingerprint: fingerprint('sandbox', 'http://127.0.0.1:4010/v1', 'demo-pro'),
      snapshot: { known: true, limit: 60, remaining: 59, observedAt: now - 60_000 },
      day: localDay(now),
      sentToday: 1,
      history: [],
    },
  };
  writeFileSync(join(dataDir, 'quota-state.json'), JSON.stringify(state), { mode: 0o600 });
  return holdUntil;
}

describe("0.1.0's quota-state.json", () => {
  it('a ban saved before the upgrade still holds after it: nothing is sent, the day’s count goes on', async () => {
    const store = await sandbox();
    const dataDir = folder();
    const holdUntil = writeQuotaState(dataDir, store.baseUrl, Date.now());
    const { api, close } = await app(dataDir, store.baseUrl);

    const quota = await api.quota.get('production');
    expect(quota).toMatchObject({
      ok: true,
      value: { known: true, limit: 300, holdReason: 'banned', holdUntil, sentToday: 57 },
    });
    expect(await api.orders.list('production')).toMatchObject({
      ok: false,
      error: { kind: 'banned' },
    });
    expect(store.requestLog).toHaveLength(0);
    await close();

    // Read once: the next start finds the state in today's record, counted once.
    const saved = JSON.parse(readFileSync(join(dataDir, 'quota-state.json'), 'utf8')) as object;
    expect(Object.keys(saved)).toEqual(['sandbox']);
    const again = await app(dataDir, store.baseUrl);
    expect(await again.api.quota.get('production')).toMatchObject({
      value: { holdReason: 'banned', holdUntil, sentToday: 57 },
    });
    expect(store.requestLog).toHaveLength(0);
  });

  it('is left alone for another key', async () => {
    const store = await sandbox();
    const dataDir = folder();
    writeQuotaState(dataDir, store.baseUrl, Date.now());
    const { api } = await app(dataDir, store.baseUrl);
    // Another key at the same address: a fresh start, the earlier ban is not its.
    await api.keys.set('production', 'demo-business');
    const other = await api.quota.get('production');
    expect(other.ok && other.value.holdReason).toBeUndefined();
    expect(other).toMatchObject({ value: { sentToday: 0 } });
    expect(existsSync(join(dataDir, 'quota-state.json'))).toBe(true);
  });

  it('a CLI run on the same data folder holds to the ban too, sending nothing', async () => {
    const store = await sandbox();
    const dataDir = folder();
    writeQuotaState(dataDir, store.baseUrl, Date.now());
    const [id] = store.orderIds({ status: 'pending' });
    const run = await runCliProcess(
      ['orders', 'cancel', id!, '--base-url', store.baseUrl, '--json'],
      { STORE_ADMIN_API_KEY: KEY, STORE_ADMIN_DATA_DIR: dataDir },
    );
    expect(run.code).toBe(8);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { kind: 'banned' } });
    expect(store.requestLog).toHaveLength(0);
  });
});
