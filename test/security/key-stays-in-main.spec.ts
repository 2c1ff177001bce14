// A canary key driven through every failure path of the real main-process
// services (the in-process app: real handlers, dispatch, client, gate, key
// store, sandbox and scripted servers on loopback). It must never reach the
// renderer side (any IPC result or event), the log file, or any file the app
// writes in plain text. Each path checks all three itself, so it proves as
// much alone as in any order. (That the renderer's bundle builds no
// Authorization header is checked on the build: test/packaging/renderer-bundle.spec.ts.)

import { readdirSync, readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppLog, type AppLog } from '../../src/main/desktop/log.ts';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import { containsPlaintext } from '../support/electron-mock.ts';
import { startInProcessApp, type InProcessApp } from '../support/in-process-app.ts';
import { answer, scriptedServer, type ScriptedServer } from '../support/scripted-server.ts';

const CANARY = 'canary-Stg-5d2e8f01b7c4a9';
const logsDir = mkdtempSync(join(tmpdir(), 'store-admin-canary-logs-'));

let app: InProcessApp;
let log: AppLog;
let sandbox: Sandbox;
const servers: ScriptedServer[] = [];
const originalConsoleError = console.error;

/**
 * Points staging at a server, with the canary key, and lists and cancels
 * there; then checks that the key reached none of the places it must not.
 */
async function exercise(baseUrl: string): Promise<void> {
  const receivedBefore = app.received.length;
  await app.api.environments.setBaseUrl('staging', baseUrl);
  await app.api.keys.set('staging', CANARY);
  await app.api.connection.test('staging');
  await app.api.orders.list('staging');
  await app.api.orders.cancel('staging', '42');
  await app.api.quota.get('staging');
  await app.api.app.getState();
  expect(app.received.length - receivedBefore, 'results the renderer received').toBeGreaterThan(5);
  expectKeyStayedInMain();
}

/** The key is in nothing the renderer received, no file the app wrote, no log line. */
function expectKeyStayedInMain(): void {
  const everything = JSON.stringify(app.received);
  expect(everything).toContain('staging');
  expect(containsPlaintext(everything, CANARY), 'IPC results and events').toBe(false);

  const files = filesUnder(app.dataDir);
  expect(files.length).toBeGreaterThan(0);
  for (const file of files)
    expect(containsPlaintext(readFileSync(file, 'latin1'), CANARY), file).toBe(false);

  // Even when every result and event is logged, and a careless line names the key.
  for (const item of app.received) log.error('IPC traffic', item);
  log.error(`a careless line with Authorization: Bearer ${CANARY}`);
  const text = filesUnder(logsDir)
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  expect(text).toContain('IPC traffic');
  expect(containsPlaintext(text, CANARY), 'the log').toBe(false);
}

async function scripted(script: Parameters<typeof scriptedServer>[0]): Promise<ScriptedServer> {
  const server = await scriptedServer(script);
  servers.push(server);
  return server;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

beforeAll(async () => {
  app = await startInProcessApp();
  log = createAppLog({
    dir: logsDir,
    secrets: () => app.keys.keysToScrub(),
  });
  // As in the app (src/main/index.ts): main's console lines go to the log file.
  console.error = log.error;
  sandbox = await startSandbox({ port: 0, keys: [{ plan: 'free', key: CANARY }], minuteMs: 2_000 });
}, 30_000);

afterAll(async () => {
  console.error = originalConsoleError;
  await Promise.all(servers.map((server) => server.close()));
  await sandbox.close();
  await app.close();
  rmSync(logsDir, { recursive: true, force: true });
});

describe('the API key stays in main', () => {
  it('through the sandbox: the list, cancels that land and cancels of unknown orders', async () => {
    await exercise(sandbox.baseUrl);
    const [pending] = sandbox.orderIds({ status: 'pending', limit: 1 });
    if (pending) await app.api.orders.cancel('staging', pending);
    for (let i = 0; i < 5; i += 1) await app.api.orders.cancel('staging', String(900_000_000 + i));
    expect(sandbox.requestLog.some((entry) => entry.status === 204)).toBe(true);
    expect(sandbox.requestLog.some((entry) => entry.status === 404)).toBe(true);
    expectKeyStayedInMain();
  });

  it('through 401, 429 and a ban from a scripted service', async () => {
    for (const [status, code, headers] of [
      [401, 'unauthorized', {}],
      [429, 'rate_limited', { 'retry-after': '1' }],
      [429, 'api_key_banned', { 'retry-after': '900' }],
    ] as const) {
      const server = await scripted((_req, res) =>
        answer(res, status, { code, message: `refused (${code})`, status }, headers),
      );
      await exercise(server.baseUrl);
      expect(server.requests.length).toBeGreaterThan(0);
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${CANARY}`);
    }
  });

  it('through a service that echoes the Authorization header back, in its body and headers', async () => {
    const server = await scripted((req, res) =>
      answer(
        res,
        req.method === 'DELETE' ? 400 : 500,
        { code: 'echo', message: `You sent ${req.headers.authorization}`, status: 500 },
        { 'x-echo': String(req.headers.authorization), 'www-authenticate': `Bearer ${CANARY}` },
      ),
    );
    await exercise(server.baseUrl);
    expect(server.requests.length).toBeGreaterThan(0);
  });

  it('through network failures: a refused connection and a cut connection', async () => {
    const cut = await scripted((req) => {
      req.socket.destroy();
    });
    await exercise(cut.baseUrl);
    const gone = await scripted((_req, res) => answer(res, 200, []));
    const goneUrl = gone.baseUrl;
    await gone.close();
    await exercise(goneUrl);
  });

  it('through a redirect to another origin, which never receives the key', async () => {
    const elsewhere = await scripted((_req, res) => answer(res, 200, []));
    const redirecting = await scripted((req, res) =>
      answer(res, 307, undefined, { location: `${elsewhere.origin}${req.url ?? '/'}` }),
    );
    await exercise(redirecting.baseUrl);
    expect(redirecting.requests.length).toBeGreaterThan(0);
    expect(elsewhere.requests.every((request) => request.headers.authorization === undefined)).toBe(
      true,
    );
  });
});
