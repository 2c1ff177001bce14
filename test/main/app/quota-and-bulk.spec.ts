import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BulkCancelSnapshot } from '../../../src/shared/bulk-cancel.ts';
import { startInProcessApp, type InProcessApp } from '../../support/in-process-app.ts';
import { answer, scriptedServer, type ScriptedServer } from '../../support/scripted-server.ts';

let dataDir: string;
const apps: InProcessApp[] = [];
const servers: ScriptedServer[] = [];
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'app-'));
});
afterEach(async () => {
  await Promise.all([
    ...apps.splice(0).map((a) => a.close()),
    ...servers.splice(0).map((s) => s.close()),
  ]);
  await rm(dataDir, { recursive: true, force: true });
});

async function app(): Promise<InProcessApp> {
  const started = await startInProcessApp({ dataDir });
  apps.push(started);
  return started;
}

describe('quota across restarts', () => {
  it('remembers a ban, so a restart does not start sending again', async () => {
    const server = await scriptedServer((_req, res) =>
      answer(
        res,
        429,
        { code: 'api_key_banned', message: 'Banned for 15 minutes', status: 429 },
        { 'retry-after': '900' },
      ),
    );
    servers.push(server);
    const first = await app();
    await first.api.environments.setBaseUrl('staging', server.baseUrl);
    await first.api.keys.set('staging', 'stg-key');
    expect(await first.api.orders.list('staging')).toMatchObject({
      ok: false,
      error: { kind: 'banned' },
    });
    const quota = await first.api.quota.get('staging');
    expect(quota).toMatchObject({ ok: true, value: { holdReason: 'banned', sentToday: 1 } });
    await first.close();
    apps.splice(0);

    // The key store lives in memory in tests: the key is entered again, the saved ban applies to it.
    const second = await app();
    await second.api.environments.setBaseUrl('staging', server.baseUrl);
    await second.api.keys.set('staging', 'stg-key');
    const again = await second.api.orders.list('staging');
    expect(again).toMatchObject({ ok: false, error: { kind: 'banned' } });
    expect(server.requests).toHaveLength(1);
    expect(await second.api.quota.get('staging')).toMatchObject({
      ok: true,
      value: { holdReason: 'banned', sentToday: 1 },
    });
  });

  it('does not apply a saved hold to a different key', async () => {
    const server = await scriptedServer((_req, res, i) =>
      i === 0 ? answer(res, 429, '', { 'retry-after': '900' }) : answer(res, 200, []),
    );
    servers.push(server);
    const first = await app();
    await first.api.environments.setBaseUrl('staging', server.baseUrl);
    await first.api.keys.set('staging', 'old-key');
    await first.api.orders.list('staging');
    await first.close();
    apps.splice(0);
    const second = await app();
    await second.api.environments.setBaseUrl('staging', server.baseUrl);
    await second.api.keys.set('staging', 'new-key');
    expect(await second.api.orders.list('staging')).toMatchObject({ ok: true });
  });

  it('counts requests locally and keeps a short history for the chart', async () => {
    const { api } = await app();
    await api.orders.list('sandbox');
    await api.orders.list('sandbox');
    const quota = await api.quota.get('sandbox');
    expect(quota).toMatchObject({
      ok: true,
      value: { known: true, limit: 300, remaining: 298, sentToday: 2 },
    });
    if (quota.ok) {
      expect(quota.value.history.reduce((n, p) => n + p.sent, 0)).toBe(2);
      expect(quota.value.history.at(-1)?.remaining).toBe(298);
    }
  });
});

describe('bulk cancel over IPC', () => {
  it('runs a job to the end with progress events, results and the cancel log', async () => {
    const { api, sandbox } = await app();
    const events: BulkCancelSnapshot[] = [];
    api.events.onBulkCancelChanged(({ snapshot }) => events.push(snapshot));
    const ids = [
      ...sandbox.orderIds({ status: 'pending' }).slice(0, 20),
      ...sandbox.orderIds({ status: 'shipped' }).slice(0, 5),
    ];
    const started = await api.bulkCancel.start('sandbox', ids);
    expect(started).toMatchObject({ ok: true, value: { status: 'running', total: 25 } });
    expect(await api.bulkCancel.start('sandbox', ids)).toMatchObject({
      ok: false,
      error: { kind: 'conflict' },
    });
    await expect
      .poll(
        async () =>
          (await api.bulkCancel.status('sandbox')).ok && (await api.bulkCancel.status('sandbox')),
      )
      .toMatchObject({
        value: { status: 'finished', counts: { cancelled: 20, 'already-shipped': 5, waiting: 0 } },
      });
    const results = await api.bulkCancel.results('sandbox');
    expect(results.ok && results.value.length).toBe(25);
    // The last result's log line may still be on its way to disk when the job says finished.
    await expect
      .poll(async () => {
        const log = await api.cancelLog.list('sandbox');
        return log.ok && log.value.filter((e) => e.result === 'already-shipped').length;
      })
      .toBe(5);
    await expect.poll(() => events.at(-1)?.status).toBe('finished');
  });

  it('refuses ids that are not order numbers', async () => {
    const { invoke } = await app();
    expect(await invoke('bulk-cancel:start', 'sandbox', ['1', 'two'])).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input' },
    });
    expect(await invoke('bulk-cancel:start', 'sandbox', [])).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input' },
    });
  });
});
