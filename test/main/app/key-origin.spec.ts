// A saved key is bound to the origin it was saved for. After the
// address moves, nothing goes out with the key until the clerk enters it again
// or confirms, in main's own dialog, that it may go to the new host. Through
// the real IPC dispatch, against the real sandbox and a server that records
// every header it receives.

import { afterEach, describe, expect, it } from 'vitest';
import type { OriginQuestion } from '../../../src/main/keys/origin-confirmation.ts';
import { KeyStore } from '../../../src/main/keys/key-store.ts';
import { MemoryCiphertextStore } from '../../../src/main/keys/memory-ciphertext-store.ts';
import { FakeSafeStorage } from '../../support/electron-mock.ts';
import {
  SANDBOX_DEMO_KEY,
  startInProcessApp,
  type InProcessApp,
} from '../../support/in-process-app.ts';
import { answer, scriptedServer, type ScriptedServer } from '../../support/scripted-server.ts';

const apps: InProcessApp[] = [];
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all([
    ...apps.splice(0).map((a) => a.close()),
    ...servers.splice(0).map((s) => s.close()),
  ]);
});

/** A server that answers every request like a healthy service and keeps every header. */
async function recorder(): Promise<ScriptedServer> {
  const server = await scriptedServer((_req, res) =>
    answer(res, 200, [], {
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
      'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
    }),
  );
  servers.push(server);
  return server;
}

/** Every place the key could have travelled in a request. */
function sentKey(server: ScriptedServer, key: string): boolean {
  return server.requests.some((request) => JSON.stringify(request).includes(key));
}

async function app(options: Parameters<typeof startInProcessApp>[0] = {}): Promise<{
  app: InProcessApp;
  asked: OriginQuestion[];
  answerWith: (yes: boolean) => void;
}> {
  const asked: OriginQuestion[] = [];
  let yes = false;
  const started = await startInProcessApp({
    ...options,
    confirmKeyForOrigin: async (question) => {
      asked.push(question);
      return yes;
    },
  });
  apps.push(started);
  return { app: started, asked, answerWith: (value) => (yes = value) };
}

const hostOf = (url: string): string => new URL(url).host;

describe('a saved key and a changed address', () => {
  it('never sends the key to a new origin until the clerk confirms in main’s dialog', async () => {
    const { app: a, asked, answerWith } = await app();
    const elsewhere = await recorder();
    await a.api.environments.setBaseUrl('staging', a.sandbox.baseUrl);
    await a.api.keys.set('staging', SANDBOX_DEMO_KEY);
    expect(await a.invoke('connection:test', 'staging')).toMatchObject({ ok: true });

    // Two IPC calls, as a compromised renderer would make them.
    expect(await a.invoke('environments:set-base-url', 'staging', elsewhere.baseUrl)).toMatchObject(
      { ok: true },
    );
    const test = await a.invoke('connection:test', 'staging');
    expect(sentKey(elsewhere, SANDBOX_DEMO_KEY)).toBe(false);
    expect(elsewhere.requests.filter((r) => r.headers.authorization)).toEqual([]);
    expect(test).toMatchObject({ ok: false, error: { kind: 'no-key', delivery: 'not-sent' } });
    const message = (test as { error: { message: string } }).error.message;
    expect(message).toContain(hostOf(a.sandbox.baseUrl));
    expect(message).toContain(hostOf(elsewhere.baseUrl));

    // Nor do the other calls that use the key.
    await a.invoke('orders:list', 'staging');
    await a.invoke('orders:cancel', 'staging', '1');
    await a.invoke('bulk-cancel:start', 'staging', ['1', '2']);
    await a.services.bulkCancelOf('staging').then((queue) => queue?.idle());
    expect(sentKey(elsewhere, SANDBOX_DEMO_KEY)).toBe(false);

    // The renderer learns a status, never the decision.
    const state = await a.api.app.getState();
    const staging = state.ok ? state.value.environments.find((e) => e.id === 'staging') : undefined;
    expect(staging?.key).toMatchObject({
      set: true,
      problem: 'other-address',
      origin: new URL(a.sandbox.baseUrl).origin,
    });
    expect(staging?.key?.notice).toContain(hostOf(a.sandbox.baseUrl));
    expect(staging?.key?.notice).toContain(hostOf(elsewhere.baseUrl));

    // Declined: still nothing.
    const declined = await a.api.keys.confirmOrigin('staging');
    expect(declined).toMatchObject({ ok: true, value: { problem: 'other-address' } });
    expect(asked).toEqual([
      {
        environment: 'staging',
        from: new URL(a.sandbox.baseUrl).origin,
        to: new URL(elsewhere.baseUrl).origin,
      },
    ]);
    await a.invoke('connection:test', 'staging');
    expect(sentKey(elsewhere, SANDBOX_DEMO_KEY)).toBe(false);

    // Confirmed in main: now, and only now, the key goes there.
    answerWith(true);
    const confirmed = await a.api.keys.confirmOrigin('staging');
    expect(confirmed.ok && confirmed.value.problem).toBeUndefined();
    expect(confirmed.ok && confirmed.value.origin).toBe(new URL(elsewhere.baseUrl).origin);
    expect(await a.invoke('connection:test', 'staging')).toMatchObject({ ok: true });
    expect(elsewhere.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SANDBOX_DEMO_KEY}`);
    expect(a.received.some((r) => JSON.stringify(r).includes(SANDBOX_DEMO_KEY))).toBe(false);
  });

  it('uses the key again without a prompt when the address moves back', async () => {
    const { app: a, asked } = await app();
    const elsewhere = await recorder();
    await a.api.environments.setBaseUrl('production', a.sandbox.baseUrl);
    await a.api.keys.set('production', SANDBOX_DEMO_KEY);
    await a.api.environments.setBaseUrl('production', elsewhere.baseUrl);
    expect(await a.invoke('connection:test', 'production')).toMatchObject({ ok: false });

    const back = await a.api.environments.setBaseUrl('production', `${a.sandbox.baseUrl}/`);
    expect(back.ok && back.value.key?.problem).toBeUndefined();
    expect(await a.invoke('connection:test', 'production')).toMatchObject({ ok: true });
    expect(asked).toEqual([]);
    expect(elsewhere.requests).toEqual([]);
  });

  it('keeps the key for the same origin when only the path changes', async () => {
    const { app: a } = await app();
    await a.api.environments.setBaseUrl('staging', a.sandbox.baseUrl);
    await a.api.keys.set('staging', SANDBOX_DEMO_KEY);
    const moved = await a.api.environments.setBaseUrl(
      'staging',
      `${new URL(a.sandbox.baseUrl).origin}/other/v1`,
    );
    expect(moved.ok && moved.value.key?.problem).toBeUndefined();
  });

  it('binds a key entered before any address to the first address set', async () => {
    const { app: a } = await app();
    const elsewhere = await recorder();
    await a.api.keys.set('production', SANDBOX_DEMO_KEY);
    await a.api.environments.setBaseUrl('production', a.sandbox.baseUrl);
    expect(await a.invoke('connection:test', 'production')).toMatchObject({ ok: true });
    await a.api.environments.setBaseUrl('production', elsewhere.baseUrl);
    await a.invoke('connection:test', 'production');
    expect(sentKey(elsewhere, SANDBOX_DEMO_KEY)).toBe(false);
  });

  it('binds a key entered again to the new address, and forgets the old binding', async () => {
    const { app: a, asked } = await app();
    const elsewhere = await recorder();
    await a.api.environments.setBaseUrl('staging', a.sandbox.baseUrl);
    await a.api.keys.set('staging', SANDBOX_DEMO_KEY);
    await a.api.environments.setBaseUrl('staging', elsewhere.baseUrl);
    const entered = await a.api.keys.set('staging', 'stg-new-key');
    expect(entered).toMatchObject({ ok: true, value: { origin: elsewhere.origin } });
    expect(await a.invoke('connection:test', 'staging')).toMatchObject({ ok: true });
    expect(elsewhere.requests.at(-1)?.headers.authorization).toBe('Bearer stg-new-key');

    // Now bound to the new address: the old one is the "other" address.
    await a.api.environments.setBaseUrl('staging', a.sandbox.baseUrl);
    expect(await a.invoke('connection:test', 'staging')).toMatchObject({
      ok: false,
      error: { kind: 'no-key' },
    });
    expect(asked).toEqual([]);
  });

  it('binds a key saved before this change to the address it has at the first start', async () => {
    // The saved record of an earlier version: ciphertext only, no origin.
    const safeStorage = new FakeSafeStorage('keychain');
    const ciphertexts = new MemoryCiphertextStore();
    await new KeyStore({ safeStorage, store: ciphertexts, platform: 'darwin' }).setKey(
      'production',
      SANDBOX_DEMO_KEY,
    );
    expect(ciphertexts.snapshot().origins).toEqual({});
    const saved = await recorder();
    const elsewhere = await recorder();

    const { app: a } = await app({
      ciphertexts,
      safeStorage,
      settings: { activeEnvironment: 'sandbox', baseUrls: { production: saved.baseUrl } },
    });
    expect(ciphertexts.snapshot().origins).toEqual({ production: saved.origin });
    // A compromised renderer moves the address before anything used the key: still refused.
    await a.invoke('environments:set-base-url', 'production', elsewhere.baseUrl);
    await a.invoke('connection:test', 'production');
    expect(sentKey(elsewhere, SANDBOX_DEMO_KEY)).toBe(false);
    await a.invoke('environments:set-base-url', 'production', saved.baseUrl);
    expect(await a.invoke('connection:test', 'production')).toMatchObject({ ok: true });
    expect(saved.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SANDBOX_DEMO_KEY}`);
  });

  it('asks once at a time, and a yes to a question whose address moved meanwhile lets nothing through', async () => {
    const elsewhere = await recorder();
    const third = await recorder();
    const questions: OriginQuestion[] = [];
    let answer: (yes: boolean) => void = () => undefined;
    const a = await startInProcessApp({
      confirmKeyForOrigin: (question) => {
        questions.push(question);
        return new Promise<boolean>((resolve) => (answer = resolve));
      },
    });
    apps.push(a);
    await a.api.environments.setBaseUrl('staging', a.sandbox.baseUrl);
    await a.api.keys.set('staging', SANDBOX_DEMO_KEY);
    await a.api.environments.setBaseUrl('staging', elsewhere.baseUrl);

    const first = a.api.keys.confirmOrigin('staging');
    const second = a.api.keys.confirmOrigin('staging');
    await expect.poll(() => questions.length).toBe(1);
    // While main's dialog is open, the address moves on to a third host.
    await a.invoke('environments:set-base-url', 'staging', third.baseUrl);
    answer(true);
    expect(await first).toMatchObject({ ok: true, value: { problem: 'other-address' } });
    expect(await second).toEqual(await first);
    expect(questions).toHaveLength(1);
    await a.invoke('connection:test', 'staging');
    await a.invoke('environments:set-base-url', 'staging', elsewhere.baseUrl);
    await a.invoke('connection:test', 'staging');
    expect(sentKey(third, SANDBOX_DEMO_KEY) || sentKey(elsewhere, SANDBOX_DEMO_KEY)).toBe(false);
  });

  it('takes nothing from the renderer but the environment', async () => {
    const { app: a, asked } = await app();
    for (const args of [['sandbox'], ['staging', 'https://evil.example'], ['staging', true], []]) {
      expect(await a.invoke('keys:confirm-origin', ...args)).toMatchObject({
        ok: false,
        error: { kind: 'invalid-input' },
      });
    }
    // No key to move: nothing is asked.
    expect(await a.invoke('keys:confirm-origin', 'staging')).toMatchObject({
      ok: true,
      value: { set: false },
    });
    expect(asked).toEqual([]);
  });

  it('still refuses redirects to another origin once the key is confirmed there', async () => {
    const { app: a, answerWith } = await app();
    const target = await recorder();
    const redirecting = await scriptedServer((_req, res) =>
      answer(res, 307, '', { location: `${target.baseUrl}/store/orders` }),
    );
    servers.push(redirecting);
    await a.api.environments.setBaseUrl('staging', a.sandbox.baseUrl);
    await a.api.keys.set('staging', SANDBOX_DEMO_KEY);
    await a.api.environments.setBaseUrl('staging', redirecting.baseUrl);
    answerWith(true);
    await a.api.keys.confirmOrigin('staging');
    expect(await a.invoke('connection:test', 'staging')).toMatchObject({
      ok: false,
      error: { kind: 'redirect' },
    });
    expect(target.requests).toEqual([]);
  });
});
