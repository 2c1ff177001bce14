// The development harness's server (tools/harness/server.ts): how it answers
// what a page would never send, and what another site's page might. Raw HTTP,
// so paths and headers are exactly as written here. A renderer folder of its
// own, with a sibling folder whose name starts the same.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import { startHarness, type Harness } from '../../tools/harness/server.ts';

let root: string;
let sandbox: Sandbox;
let harness: Harness;
let token: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'harness-server-'));
  mkdirSync(join(root, 'renderer'));
  writeFileSync(join(root, 'renderer', 'index.html'), '<html><head></head><body></body></html>');
  writeFileSync(join(root, 'renderer', 'app.js'), 'console.log(1)');
  mkdirSync(join(root, 'renderer-private'));
  writeFileSync(join(root, 'renderer-private', 'secret.txt'), 'not for the page');
  sandbox = await startSandbox({ port: 0, orders: 5 });
  harness = await startHarness({
    dataDir: join(root, 'data'),
    rendererDir: join(root, 'renderer'),
    sandbox: { baseUrl: sandbox.baseUrl, key: 'demo-pro' },
  });
  token = new URLSearchParams(new URL(harness.url).hash.slice(1)).get('token')!;
});
afterAll(async () => {
  await harness?.close();
  await sandbox?.close();
  rmSync(root, { recursive: true, force: true });
});

interface Reply {
  readonly status: number;
  readonly type: string | undefined;
  readonly body: string;
}

/** One request with the path exactly as given (no URL normalisation) and optional headers. */
function send(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  const { port } = new URL(harness.origin);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        // The event stream stays open: its first bytes are enough.
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (res.headers['content-type'] === 'text/event-stream') res.destroy();
        });
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers['content-type'],
            body: Buffer.concat(chunks).toString('utf8'),
          });
        res.on('end', done);
        res.on('close', done);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const invoke = (body: string, origin = harness.origin) =>
  send('/harness/invoke', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, 'x-harness-token': token },
    body,
  });

describe('the harness server', () => {
  it('answers 400 to a JSON body that is not a call (null, an array, a number)', async () => {
    for (const body of ['null', '[]', '42', '"x"', '{']) {
      expect((await invoke(body)).status, body).toBe(400);
    }
    const good = await invoke(JSON.stringify({ channel: 'app:get-state', args: [] }));
    expect(good.status).toBe(200);
    expect(JSON.parse(good.body)).toMatchObject({ ok: true });
  });

  it('answers 400 to a malformed percent-escape in a path', async () => {
    for (const path of ['/%E0%A4%A', '/%', '/app%zz.js']) {
      expect((await send(path)).status, path).toBe(400);
    }
  });

  it('serves only its own folder, compared by whole path segments', async () => {
    expect((await send('/app.js')).status).toBe(200);
    for (const path of [
      '/..%2Frenderer-private%2Fsecret.txt',
      '/%2E%2E%2Frenderer-private%2Fsecret.txt',
      '/..%5Crenderer-private%5Csecret.txt',
      '/%2e%2e/renderer-private/secret.txt',
    ]) {
      const reply = await send(path);
      expect(reply.body, path).not.toContain('not for the page');
      expect(reply.status, path).toBe(404);
    }
  });

  it('checks the Origin on every harness endpoint', async () => {
    const elsewhere = 'http://evil.example';
    expect(
      (await invoke(JSON.stringify({ channel: 'app:get-state', args: [] }), elsewhere)).status,
    ).toBe(403);
    expect(
      (await send(`/harness/events?token=${token}`, { headers: { origin: elsewhere } })).status,
    ).toBe(403);
    expect(
      (
        await send(`/harness/events?token=${token}`, {
          headers: { 'sec-fetch-site': 'cross-site' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await send('/harness/blob/abc', {
          headers: { origin: elsewhere, 'x-harness-token': token },
        })
      ).status,
    ).toBe(403);
    // The page's own requests still work: same-origin GETs carry no foreign Origin.
    const events = await send(`/harness/events?token=${token}`, {
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(events).toMatchObject({ status: 200, type: 'text/event-stream' });
    expect(
      (await send('/harness/blob/abc', { headers: { 'x-harness-token': token } })).status,
    ).toBe(404);
  });

  it('serves the app icon, and names it in the page', async () => {
    for (const path of ['/favicon.ico', '/harness/icon']) {
      const icon = await send(path);
      expect(icon.status).toBe(200);
      expect(icon.type).toMatch(/^image\//);
    }
    const page = await send('/');
    expect(page.body).toContain('<link rel="icon" href="/harness/icon" />');
  });
});
