// The app's quota state through IPC, against the sandbox: per key and
// address, a "Try now" through a hold, and nothing learnt from a refused key.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import { startInProcessApp, type InProcessApp } from '../../support/in-process-app.ts';
import { answer, scriptedServer, type ScriptedServer } from '../../support/scripted-server.ts';

let dataDir: string;
const apps: InProcessApp[] = [];
const closers: Array<{ close(): Promise<void> }> = [];
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'app-quota-'));
});
afterEach(async () => {
  await Promise.all([...apps.splice(0), ...closers.splice(0)].map((c) => c.close()));
  await rm(dataDir, { recursive: true, force: true });
});

async function app(): Promise<InProcessApp> {
  // The clerk says yes when main asks whether the key may follow a new address.
  const started = await startInProcessApp({ dataDir, confirmKeyForOrigin: async () => true });
  apps.push(started);
  return started;
}

async function sandbox(): Promise<Sandbox> {
  const started = await startSandbox({ port: 0, orders: 20 });
  closers.push(started);
  return started;
}

async function server(script: Parameters<typeof scriptedServer>[0]): Promise<ScriptedServer> {
  const started = await scriptedServer(script);
  closers.push(started);
  return started;
}

describe('the quota of an environment belongs to its key and address', () => {
  it('starts afresh at a new address and comes back when the old one is set again', async () => {
    const banning = await server((_req, res) =>
      answer(
        res,
        429,
        { code: 'api_key_banned', message: 'Banned', status: 429 },
        { 'retry-after': '900' },
      ),
    );
    const other = await sandbox();
    const first = await app();
    await first.api.keys.set('staging', 'demo-free');
    await first.api.environments.setBaseUrl('staging', banning.baseUrl);
    expect(await first.api.orders.list('staging')).toMatchObject({ error: { kind: 'banned' } });

    await first.api.environments.setBaseUrl('staging', other.baseUrl);
    await first.api.keys.confirmOrigin('staging');
    expect(await first.api.orders.list('staging')).toMatchObject({ ok: true });
    const fresh = await first.api.quota.get('staging');
    expect(fresh).toMatchObject({ value: { known: true, limit: 60, sentToday: 1 } });
    expect(fresh.ok && fresh.value.holdReason).toBeUndefined();
    await first.close();
    apps.splice(0);

    // After a restart (the key store lives in memory in tests: the key is entered again).
    const { api } = await app();
    await api.keys.set('staging', 'demo-free');
    await api.environments.setBaseUrl('staging', banning.baseUrl);
    await api.keys.confirmOrigin('staging');
    expect(await api.orders.list('staging')).toMatchObject({ error: { kind: 'banned' } });
    expect(await api.quota.get('staging')).toMatchObject({
      value: { holdReason: 'banned', sentToday: 1 },
    });
    expect(banning.requests).toHaveLength(1);
    // Back to the other address: its own figures, shown before any request.
    await api.environments.setBaseUrl('staging', other.baseUrl);
    await api.keys.confirmOrigin('staging');
    const back = await api.quota.get('staging');
    expect(back).toMatchObject({ value: { known: true, limit: 60, sentToday: 1 } });
    expect(back.ok && back.value.holdReason).toBeUndefined();
    expect(await api.orders.list('staging')).toMatchObject({ ok: true });
    expect(await api.quota.get('staging')).toMatchObject({ value: { sentToday: 2 } });
  });

  it('never infers a plan from the answer to a refused key', async () => {
    const target = await sandbox();
    const { api } = await app();
    await api.environments.setBaseUrl('staging', target.baseUrl);
    await api.keys.set('staging', 'not-a-key');
    // The sandbox answers 401 with the Free limits of its bucket for unknown keys.
    expect(await api.orders.list('staging')).toMatchObject({ error: { kind: 'unauthorized' } });
    expect(await api.quota.get('staging')).toMatchObject({ ok: true, value: { known: false } });
    const quota = await api.quota.get('staging');
    expect(quota.ok && quota.value.limit).toBeUndefined();
  });
});

describe('quota:try-now', () => {
  it('sends one confirmed request through a hold, then paces as usual', async () => {
    const held = await server((_req, res, i) => {
      res.setHeader('x-ratelimit-limit', '300');
      res.setHeader('x-ratelimit-remaining', String(250 - i));
      res.setHeader('x-ratelimit-reset', String(Math.ceil(Date.now() / 1000) + 60));
      if (i === 0) answer(res, 429, '', { 'retry-after': '99999999999999999999999' });
      else answer(res, 200, []);
    });
    const { api } = await app();
    await api.environments.setBaseUrl('staging', held.baseUrl);
    await api.keys.set('staging', 'stg-key');
    const limited = await api.orders.list('staging');
    expect(limited).toMatchObject({ ok: false, error: { kind: 'rate-limited' } });
    expect(JSON.stringify(limited)).not.toContain('NaN');
    expect(await api.orders.list('staging')).toMatchObject({ ok: false });
    expect(held.requests).toHaveLength(1);

    const tried = await api.quota.tryNow('staging');
    expect(tried).toMatchObject({ ok: true, value: { environment: 'staging', status: 200 } });
    expect(held.requests).toHaveLength(2);
    const quota = await api.quota.get('staging');
    expect(quota.ok && quota.value.holdUntil).toBeUndefined();
    expect(await api.orders.list('staging')).toMatchObject({ ok: true });
  });

  it('refuses an environment that is not one', async () => {
    const { invoke } = await app();
    expect(await invoke('quota:try-now', 'elsewhere')).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input' },
    });
  });
});
