// The stand-in's net (net.fetch and net.request) against real servers on
// loopback: routed as Chromium routes from the environment on Linux (the
// implicit loopback bypass, https_proxy never taken from http_proxy),
// failures as Chromium's net errors, redirects as Electron handles them.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import { makeSandboxTls } from '../../../src/main/sandbox/tls.ts';
import {
  net,
  parseNoProxy,
  proxyFor,
  type StandinClientRequest,
} from '../../../tools/electron-standin/electron/net.ts';
import { startConnectProxy, type ConnectProxy } from '../../support/connect-proxy.ts';

let plain: Sandbox;
let tls: Sandbox;
let proxy: ConnectProxy;
let redirecting: Server;
let redirectingPort: number;

beforeAll(async () => {
  const made = await makeSandboxTls();
  plain = await startSandbox({ port: 0, orders: 3 });
  tls = await startSandbox({ port: 0, orders: 3, tls: { key: made.key, cert: made.cert } });
  proxy = await startConnectProxy();
  redirecting = createServer((req, res) => {
    if (req.url === '/to-sandbox') {
      res.writeHead(302, { location: `${plain.baseUrl}/store/orders` }).end();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
  redirectingPort = (redirecting.address() as AddressInfo).port;
});
afterAll(async () => {
  await Promise.all([plain.close(), tls.close(), proxy.close()]);
  await new Promise<void>((resolve) => redirecting.close(() => resolve()));
});
afterEach(() => {
  vi.unstubAllEnvs();
  proxy.clear();
});

const url = (text: string) => new URL(text);
const auth = { headers: { authorization: 'Bearer demo-pro' } };

describe('where a request goes, as Chromium reads the environment on Linux', () => {
  it('sends loopback direct whatever the proxy, unless no_proxy holds <-loopback>', () => {
    const env = { https_proxy: 'http://proxy.corp:3128' };
    expect(proxyFor(url('https://localhost:8443/v1'), env)).toBeUndefined();
    expect(proxyFor(url('https://127.0.0.1:8443/v1'), env)).toBeUndefined();
    expect(proxyFor(url('https://[::1]:8443/v1'), env)).toBeUndefined();
    expect(proxyFor(url('https://shop.localhost/v1'), env)).toBeUndefined();
    expect(proxyFor(url('https://store.example.com/v1'), env)?.href).toBe(
      'http://proxy.corp:3128/',
    );
    const subtracted = { ...env, no_proxy: '<-loopback>, 127.0.0.1' };
    expect(proxyFor(url('https://localhost:8443/v1'), subtracted)?.host).toBe('proxy.corp:3128');
    expect(proxyFor(url('https://127.0.0.1:8443/v1'), subtracted)).toBeUndefined();
  });

  it('takes https_proxy for https:// and http_proxy for http:// only, all_proxy for both, either case', () => {
    expect(proxyFor(url('https://store.example.com/'), { http_proxy: 'h:1' })).toBeUndefined();
    expect(proxyFor(url('http://store.example.com/'), { HTTP_PROXY: 'h:1' })?.href).toBe(
      'http://h:1/',
    );
    expect(proxyFor(url('https://store.example.com/'), { HTTPS_PROXY: 'https://s:2' })?.href).toBe(
      'https://s:2/',
    );
    expect(
      proxyFor(url('https://store.example.com/'), { all_proxy: 'a:3', https_proxy: 's:2' })?.host,
    ).toBe('a:3');
  });

  it('matches no_proxy by domain suffix, with an optional port, * for all and <local> for plain names', () => {
    const rules = parseNoProxy('.corp.example, intranet:8443, <local>');
    expect(rules.matches(url('https://store.corp.example/'))).toBe(true);
    expect(rules.matches(url('https://corp.example/'))).toBe(true);
    expect(rules.matches(url('https://intranet:8443/'))).toBe(true);
    expect(rules.matches(url('https://intranet.example:443/'))).toBe(false);
    expect(rules.matches(url('https://printer/'))).toBe(true);
    expect(rules.matches(url('https://store.example.com/'))).toBe(false);
    expect(parseNoProxy('*').matches(url('https://anything.example/'))).toBe(true);
  });
});

describe('net.fetch', () => {
  it('goes through the proxy from the environment, and direct for a no_proxy host', async () => {
    vi.stubEnv('http_proxy', proxy.url);
    vi.stubEnv('no_proxy', '<-loopback>, 127.0.0.1');
    const viaProxy = `http://localhost:${plain.port}/v1/store/orders`;
    plain.clearRequestLog();
    expect((await net.fetch(viaProxy, auth)).status).toBe(200);
    expect((await net.fetch(`${plain.baseUrl}/store/orders`, auth)).status).toBe(200);
    // One forwarded by the proxy, one straight to the sandbox: both arrived.
    expect(proxy.calls).toEqual([{ method: 'GET', target: viaProxy }]);
    expect(plain.requestLog.map((r) => r.status)).toEqual([200, 200]);
  });

  it('tunnels https:// with CONNECT, and fails an untrusted certificate as Chromium does', async () => {
    vi.stubEnv('https_proxy', proxy.url);
    vi.stubEnv('no_proxy', '<-loopback>');
    // The test's own Node does not trust the sandbox's CA made a moment ago.
    await expect(net.fetch(`https://localhost:${tls.port}/v1/store/orders`, auth)).rejects.toThrow(
      /^net::ERR_CERT_AUTHORITY_INVALID$/,
    );
    expect(proxy.tunnels()).toEqual([`localhost:${tls.port}`]);
  });

  it('names a refused connection and a proxy that cannot be reached', async () => {
    const closed = await closedPort();
    await expect(net.fetch(`http://127.0.0.1:${closed}/`)).rejects.toThrow(
      /^net::ERR_CONNECTION_REFUSED$/,
    );
    vi.stubEnv('https_proxy', `http://127.0.0.1:${closed}`);
    await expect(net.fetch('https://store.example.com/v1/store/orders')).rejects.toThrow(
      /^net::ERR_PROXY_CONNECTION_FAILED$/,
    );
  });

  it("fails a redirect under redirect: 'manual' (Electron hands none back), follows it under 'follow'", async () => {
    const start = `http://127.0.0.1:${redirectingPort}/to-sandbox`;
    await expect(net.fetch(start, { redirect: 'manual' })).rejects.toThrow(
      /^Redirect was cancelled$/,
    );
    await expect(net.fetch(start, { redirect: 'error' })).rejects.toThrow(/redirect policy/);
    // Followed: the sandbox answers without the key (nothing was sent along).
    expect((await net.fetch(start)).status).toBe(401);
  });

  it('passes an abort through as the abort it is', async () => {
    const controller = new AbortController();
    controller.abort(new DOMException('stopped', 'AbortError'));
    await expect(
      net.fetch(`${plain.baseUrl}/store/orders`, { signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('net.request (the ClientRequest electron-updater downloads with)', () => {
  const finish = (request: StandinClientRequest) =>
    new Promise<{ status?: number; body?: string; error?: string; redirects: string[] }>(
      (resolve) => {
        const redirects: string[] = [];
        request.on('redirect', (status: number, _method: string, to: string) => {
          redirects.push(`${status} ${to}`);
        });
        request.on('response', (message: NodeJS.ReadableStream & { statusCode: number }) => {
          let body = '';
          message.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
          message.on('end', () => resolve({ status: message.statusCode, body, redirects }));
        });
        request.on('error', (error: Error) => resolve({ error: error.message, redirects }));
        request.on('abort', () => resolve({ error: 'aborted', redirects }));
        request.end();
      },
    );

  it('answers with status, headers and the body as a stream', async () => {
    const request = net.request({
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: plain.port,
      path: '/v1/store/orders',
      headers: { authorization: 'Bearer demo-pro' },
    });
    const result = await finish(request);
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body!)).toHaveLength(3);
  });

  it("under redirect: 'manual', is cancelled unless the listener follows, and an abort ends it quietly", async () => {
    const start = `http://127.0.0.1:${redirectingPort}/to-sandbox`;
    const notFollowed = net.request({ url: start, redirect: 'manual' });
    expect(await finish(notFollowed)).toMatchObject({ error: 'Redirect was cancelled' });

    const followed = net.request({ url: start, redirect: 'manual' });
    followed.on('redirect', () => followed.followRedirect());
    expect(await finish(followed)).toMatchObject({
      status: 401,
      redirects: [`302 ${plain.baseUrl}/store/orders`],
    });

    // electron-updater's way: abort, then start a new request of its own.
    const aborted = net.request({ url: start, redirect: 'manual' });
    aborted.on('redirect', () => aborted.abort());
    expect(await finish(aborted)).toMatchObject({ error: 'aborted' });
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
