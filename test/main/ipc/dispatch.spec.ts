import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import { startInProcessApp, type InProcessApp } from '../../support/in-process-app.ts';

const STAGING_KEY = 'stg_9f8e7d6c5b4a-secret';
const apps: InProcessApp[] = [];
const sandboxes: Sandbox[] = [];

afterEach(async () => {
  await Promise.all([
    ...apps.splice(0).map((a) => a.close()),
    ...sandboxes.splice(0).map((s) => s.close()),
  ]);
});

async function app(): Promise<InProcessApp> {
  const started = await startInProcessApp();
  apps.push(started);
  return started;
}

/** A second sandbox playing "staging", accepting only STAGING_KEY. */
async function staging(): Promise<Sandbox> {
  const server = await startSandbox({
    port: 0,
    seed: 7,
    keys: [{ plan: 'free', key: STAGING_KEY }],
  });
  sandboxes.push(server);
  return server;
}

describe('IPC dispatch: every argument is validated before use', () => {
  it('refuses unknown channels and malformed arguments without running anything', async () => {
    const { invoke, sandbox } = await app();
    const bad: Array<[string, ...unknown[]]> = [
      ['orders:cancel', 'sandbox', '12; DROP'],
      ['orders:cancel', 'sandbox', 12],
      ['orders:cancel', 'sandbox', '99999999999999999999'],
      ['orders:cancel', 'prod', '1'],
      ['orders:cancel', 'sandbox'],
      ['orders:cancel', 'sandbox', '1', 'extra'],
      ['orders:delete-all', 'sandbox'],
      ['__proto__'],
      ['keys:set', 'staging', 'k'.repeat(5000)],
      ['keys:set', 'sandbox', 'key'],
      ['keys:set', 'staging', 'key', { acceptWeakStorage: true, other: 1 }],
      ['environments:set-base-url', 'staging', { toString: 'https://x/v1' }],
      // Order ids are int64: the range is checked at the schema, and -0 is not canonical.
      ['orders:cancel', 'sandbox', '9999999999999999999'],
      ['orders:cancel', 'sandbox', '9223372036854775808'],
      ['orders:cancel', 'sandbox', '-9223372036854775809'],
      ['orders:cancel', 'sandbox', '-0'],
      ['review-marks:set', 'sandbox', '-0', { reviewed: true, note: '' }],
      ['bulk-cancel:start', 'sandbox', ['1', '9223372036854775808']],
      // The page cannot aim main's checks at a host and port of its choice.
      [
        'domains:check',
        'sandbox',
        { domain: 'a.example.com', target: 't.example.net', resolver: '10.0.0.1:22' },
      ],
      ['domains:check', { domain: 'a.example.com', target: 't.example.net' }],
      ['domains:certificate', { domain: 'a.example.com', port: 22 }],
      ['domains:certificate', 'sandbox', { domain: 'a.example.com', resolver: '10.0.0.1:22' }],
      ['domains:certificate', { domain: 'a.example.com' }],
    ];
    for (const [channel, ...args] of bad) {
      const result = await invoke(channel, ...args);
      expect(result, JSON.stringify([channel, ...args])).toMatchObject({
        ok: false,
        error: { kind: 'invalid-input' },
      });
    }
    expect(sandbox.requestLog).toHaveLength(0);
  });

  it('validates base URLs in plain words', async () => {
    const { api } = await app();
    const cases: Array<[string, string]> = [
      ['http://api.example.com/v1', 'https://'],
      ['https://api.example.com/v2', '/v1'],
      ['not a url', 'not a web address'],
      ['https://user:pw@api.example.com/v1', 'user name'],
    ];
    for (const [url, words] of cases) {
      const result = await api.environments.setBaseUrl('production', url);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.message).toContain(words);
    }
    const good = await api.environments.setBaseUrl('production', 'https://api.example.com/v1/');
    expect(good).toMatchObject({ ok: true, value: { baseUrl: 'https://api.example.com/v1' } });
  });
});

describe('IPC dispatch: environments', () => {
  it('starts on the sandbox, which works with no account', async () => {
    const { api } = await app();
    const state = await api.app.getState();
    expect(state).toMatchObject({ ok: true, value: { activeEnvironment: 'sandbox' } });
    const list = await api.orders.list('sandbox');
    expect(list.ok && list.value.count).toBe(1000);
  });

  it('keeps quota and keys apart per environment', async () => {
    const { api } = await app();
    const stagingServer = await staging();
    await api.environments.setBaseUrl('staging', stagingServer.baseUrl);
    expect(await api.orders.list('staging')).toMatchObject({
      ok: false,
      error: { kind: 'no-key' },
    });
    await api.keys.set('staging', STAGING_KEY);
    await api.orders.list('staging');
    await api.orders.list('sandbox');
    const stagingQuota = await api.quota.get('staging');
    const sandboxQuota = await api.quota.get('sandbox');
    // The call without a key was never sent: one request reached staging.
    expect(stagingServer.requestLog).toHaveLength(1);
    expect(stagingQuota).toMatchObject({ ok: true, value: { limit: 60, remaining: 59 } });
    expect(sandboxQuota).toMatchObject({ ok: true, value: { limit: 300, remaining: 299 } });
    expect(await api.quota.get('production')).toMatchObject({ ok: true, value: { known: false } });
  });

  it('tests a connection with one request and reports the quota it saw', async () => {
    const { api } = await app();
    const stagingServer = await staging();
    await api.environments.setBaseUrl('staging', stagingServer.baseUrl);
    await api.keys.set('staging', STAGING_KEY);
    const check = await api.connection.test('staging');
    expect(check).toMatchObject({
      ok: true,
      value: { status: 200, quota: { known: true, limit: 60, remaining: 59 } },
    });
    expect(stagingServer.requestLog).toHaveLength(1);
  });

  it('reports a refused key as unauthorized, pointing to Settings', async () => {
    const { api } = await app();
    const stagingServer = await staging();
    await api.environments.setBaseUrl('staging', stagingServer.baseUrl);
    await api.keys.set('staging', 'wrong-key');
    const result = await api.connection.test('staging');
    expect(result).toMatchObject({ ok: false, error: { kind: 'unauthorized', status: 401 } });
  });

  it('tells the renderer when the service cannot be reached', async () => {
    const { api, received } = await app();
    const stagingServer = await staging();
    await api.environments.setBaseUrl('staging', stagingServer.baseUrl);
    await api.keys.set('staging', STAGING_KEY);
    await stagingServer.close();
    const result = await api.orders.list('staging');
    expect(result).toMatchObject({ ok: false, error: { kind: 'network', delivery: 'not-sent' } });
    expect(received).toContainEqual(
      expect.objectContaining({
        event: 'connectivity:changed',
        payload: expect.objectContaining({ environment: 'staging', reachable: false }),
      }),
    );
  });
});

describe('IPC dispatch: the key never reaches the renderer', () => {
  it('appears in no result and no event, through every channel and failure', async () => {
    const { api, received, readList } = await app();
    const stagingServer = await staging();
    await api.environments.setBaseUrl('staging', stagingServer.baseUrl);
    await api.keys.set('staging', STAGING_KEY);
    await api.app.getState();
    await api.connection.test('staging');
    const [first] = (await readList('orders:list', 'staging')).orders;
    await api.orders.cancel('staging', first!.id!);
    await api.orders.cancel('staging', '123456789');
    await api.quota.get('staging');
    await api.environments.select('staging');
    await api.keys.set('production', `${STAGING_KEY}-prod`);
    await api.environments.setBaseUrl('production', stagingServer.baseUrl);
    await api.orders.list('production'); // 401: the server does not know this key
    await api.keys.remove('staging');
    await api.orders.list('staging'); // no key
    expect(received.length).toBeGreaterThan(10);
    const everything = JSON.stringify(received);
    expect(everything).not.toContain(STAGING_KEY);
    expect(everything).not.toContain('Bearer');
  });
});
