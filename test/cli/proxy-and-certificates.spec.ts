// The command line on a company's network: the sandbox over TLS with a CA of
// its own, reached through a real CONNECT proxy on loopback for one host name
// (localhost) and directly for another that NO_PROXY names (127.0.0.1). The
// proxy records each tunnel, so what went through it and what went direct is
// seen, not assumed.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliNetwork, proxyEnvironment, ProxySettingError } from '../../src/cli/network.ts';
import { EXIT, runCli } from '../../src/cli/run.ts';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import { makeSandboxTls, type SandboxTls } from '../../src/main/sandbox/tls.ts';
import { runCliProcess } from '../support/cli-process.ts';
import { startConnectProxy, type ConnectProxy } from '../support/connect-proxy.ts';
import { virtualTiming } from '../support/virtual-timing.ts';

let tls: SandboxTls;
let sandbox: Sandbox;
let plainSandbox: Sandbox;
let proxy: ConnectProxy;
let folder: string;
let caFile: string;
/** The same sandbox by two names: one proxied, one in NO_PROXY. */
let viaProxy: string;
let direct: string;

beforeAll(async () => {
  tls = await makeSandboxTls();
  sandbox = await startSandbox({ port: 0, orders: 5, tls: { key: tls.key, cert: tls.cert } });
  plainSandbox = await startSandbox({ port: 0, orders: 5 });
  proxy = await startConnectProxy();
  folder = mkdtempSync(join(tmpdir(), 'store-admin-proxy-'));
  caFile = join(folder, 'sandbox-ca.pem');
  writeFileSync(caFile, tls.ca);
  viaProxy = `https://localhost:${sandbox.port}/v1`;
  direct = `https://127.0.0.1:${sandbox.port}/v1`;
});
afterAll(async () => {
  await Promise.all([sandbox.close(), plainSandbox.close(), proxy.close()]);
  rmSync(folder, { recursive: true, force: true });
});
beforeEach(() => {
  proxy.clear();
  sandbox.clearRequestLog();
  plainSandbox.clearRequestLog();
});

const folders = () => ({
  STORE_ADMIN_API_KEY: 'demo-pro',
  STORE_ADMIN_DATA_DIR: join(folder, 'data'),
  STORE_ADMIN_CACHE_DIR: join(folder, 'cache'),
});

async function cli(
  args: string[],
  env: Record<string, string>,
  extra: Partial<Parameters<typeof runCli>[1]> = {},
) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: { ...folders(), ...env },
    // No system store unless a test gives one: the machine's must not decide a test.
    systemCertificates: () => [],
    ...extra,
  });
  return { code, stdout, stderr };
}

describe('the store-admin command through a proxy, with the company CA in NODE_EXTRA_CA_CERTS', () => {
  it('tunnels to a proxied host and goes direct to a NO_PROXY host (the real bin)', async () => {
    const env = {
      ...folders(),
      HTTPS_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1',
      NODE_EXTRA_CA_CERTS: caFile,
    };

    const proxied = await runCliProcess(['quota', '--json', '--base-url', viaProxy], env);
    expect(proxied.stderr).toBe('');
    expect(proxied.code).toBe(EXIT.ok);
    expect(JSON.parse(proxied.stdout)).toMatchObject({ ok: true, quota: { limit: 300 } });
    expect(proxy.tunnels()).toEqual([`localhost:${sandbox.port}`]);
    expect(sandbox.requestLog).toHaveLength(1);

    const straight = await runCliProcess(['orders', 'list', '--json', '--base-url', direct], env);
    expect(straight.stderr).toBe('');
    expect(straight.code).toBe(EXIT.ok);
    expect(JSON.parse(straight.stdout)).toMatchObject({ ok: true, count: 5 });
    // The second run reached the sandbox without a tunnel.
    expect(proxy.tunnels()).toEqual([`localhost:${sandbox.port}`]);
    expect(sandbox.requestLog.map((r) => r.path)).toEqual(['/v1/store/orders', '/v1/store/orders']);
  });

  it('says in one sentence naming the host that the certificate is not trusted, and sends nothing', async () => {
    const run = await runCliProcess(['orders', 'cancel', '3', '--base-url', viaProxy], {
      ...folders(),
      HTTPS_PROXY: proxy.url,
      // The machine's own store does not know the sandbox's CA made a moment ago.
      NODE_EXTRA_CA_CERTS: '',
    });
    expect(run.code).toBe(EXIT.failed);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `The store service at localhost:${sandbox.port} showed a certificate this computer does not trust, so nothing was sent.\n`,
    );
    expect(sandbox.requestLog).toEqual([]);
    // Once with Node's authorities, once more with the system's store added; never retried beyond.
    expect(proxy.tunnels()).toEqual([`localhost:${sandbox.port}`, `localhost:${sandbox.port}`]);
  });
});

describe('the proxy variables, as curl, npm and gh read them', () => {
  it('reads upper or lower case, the lower winning, and adds http:// to a bare host:port', () => {
    expect(proxyEnvironment({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'lower:2' })).toEqual({
      httpsProxy: { url: 'http://lower:2/', host: 'lower:2', variable: 'https_proxy' },
    });
    expect(
      proxyEnvironment({ HTTP_PROXY: 'http://u:p@proxy.corp:3128', NO_PROXY: '.corp' }),
    ).toEqual({
      httpProxy: {
        url: 'http://u:p@proxy.corp:3128/',
        host: 'proxy.corp:3128',
        variable: 'HTTP_PROXY',
      },
      noProxy: '.corp',
    });
    expect(proxyEnvironment({ https_proxy: '  ', no_proxy: '' })).toEqual({});
    expect(() => proxyEnvironment({ HTTPS_PROXY: 'socks5://proxy:1080' })).toThrow(
      ProxySettingError,
    );
    expect(() => proxyEnvironment({ http_proxy: 'http://' })).toThrow(
      'http_proxy is not a proxy address: it should read http://host:port (or https://host:port).',
    );
  });

  it('refuses a proxy variable that is no address before sending anything (exit 2)', async () => {
    const run = await cli(['quota', '--base-url', viaProxy], { https_proxy: 'ftp://proxy:21' });
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toBe(
      'store-admin: https_proxy is not a proxy address: it should read http://host:port (or https://host:port).\n',
    );
    expect(sandbox.requestLog).toEqual([]);
  });

  it('uses lower-case https_proxy over HTTPS_PROXY, and no_proxy', async () => {
    const closed = await closedPort();
    const env = {
      https_proxy: proxy.url,
      HTTPS_PROXY: `http://127.0.0.1:${closed}`,
      no_proxy: 'example.invalid, 127.0.0.1',
    };
    const trusted = { systemCertificates: () => [tls.ca] };
    expect((await cli(['quota', '--base-url', viaProxy], env, trusted)).code).toBe(EXIT.ok);
    expect((await cli(['quota', '--base-url', direct], env, trusted)).code).toBe(EXIT.ok);
    expect(proxy.tunnels()).toEqual([`localhost:${sandbox.port}`, `localhost:${sandbox.port}`]);
    expect(sandbox.requestLog).toHaveLength(2);
  });

  it('sends an http:// address through HTTP_PROXY as a forwarded request', async () => {
    const run = await cli(['quota', '--base-url', `http://localhost:${plainSandbox.port}/v1`], {
      HTTP_PROXY: proxy.url,
    });
    expect(run.code).toBe(EXIT.ok);
    expect(proxy.calls).toEqual([
      { method: 'GET', target: `http://localhost:${plainSandbox.port}/v1/store/orders` },
    ]);
    expect(plainSandbox.requestLog).toHaveLength(1);
  });

  it('uses HTTP_PROXY for https:// too when HTTPS_PROXY is not set', async () => {
    const run = await cli(
      ['quota', '--base-url', viaProxy],
      { HTTP_PROXY: proxy.url },
      { systemCertificates: () => [tls.ca] },
    );
    expect(run.code).toBe(EXIT.ok);
    expect(proxy.tunnels()).not.toEqual([]);
  });
});

describe('certificates', () => {
  it('adds the system store when Node alone does not trust the certificate, and keeps it for the run', async () => {
    const run = await cli(
      ['orders', 'list', '--json', '--base-url', viaProxy],
      { HTTPS_PROXY: proxy.url },
      // Plays a company CA installed in the system's store.
      { systemCertificates: () => [tls.ca] },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.ok);
    // The refused handshake, then the list through a second tunnel.
    expect(proxy.tunnels()).toEqual([`localhost:${sandbox.port}`, `localhost:${sandbox.port}`]);
    expect(sandbox.requestLog).toHaveLength(1);
  });

  it('tries the system store once per run, then says the same sentence', async () => {
    const network = cliNetwork({}, { systemCertificates: () => [] });
    await expect(network.fetch(`${direct}/store/orders`)).rejects.toThrow();
    expect(network.triedSystemStore()).toBe(true);
    await network.close();

    const run = await cli(['quota', '--base-url', direct], {});
    expect(run.code).toBe(EXIT.failed);
    expect(run.stderr).toBe(
      `The store service at 127.0.0.1:${sandbox.port} showed a certificate this computer does not trust, so nothing was sent.\n`,
    );
  });
});

describe('a proxy that will not carry the request', () => {
  it('names the proxy that cannot be reached (tried again, as any refused connection)', async () => {
    const closed = await closedPort();
    const timing = virtualTiming();
    const run = await cli(
      ['quota', '--base-url', viaProxy],
      { HTTPS_PROXY: `http://user:secret@localhost:${closed}` },
      { timing },
    );
    expect(run.code).toBe(EXIT.failed);
    expect(run.stderr).toBe(
      `Could not reach the store service at localhost:${sandbox.port}: the proxy at localhost:${closed} could not be reached.\n`,
    );
    expect(run.stderr).not.toContain('secret');
    expect(timing.sleeps).toHaveLength(3);
  });

  it('says when the proxy wants a user name and password, without trying again', async () => {
    const refusing = await refusingProxy(407);
    const timing = virtualTiming();
    try {
      const run = await cli(
        ['orders', 'cancel', '3', '--json', '--base-url', viaProxy],
        { HTTPS_PROXY: refusing.url },
        { timing },
      );
      expect(run.code).toBe(EXIT.failed);
      expect(JSON.parse(run.stdout)).toEqual({
        ok: false,
        error: {
          kind: 'network',
          delivery: 'not-sent',
          message: `Could not reach the store service at localhost:${sandbox.port}: the proxy at ${new URL(refusing.url).host} asked for a user name and password (407).`,
        },
      });
      expect(refusing.connects).toBe(1);
      expect(timing.sleeps).toEqual([]);
    } finally {
      await refusing.close();
    }
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A proxy that answers every CONNECT with `status`. */
async function refusingProxy(status: number): Promise<{
  url: string;
  readonly connects: number;
  close(): Promise<void>;
}> {
  let connects = 0;
  const server: Server = createServer();
  server.on('connect', (_req, socket) => {
    connects += 1;
    socket.end(`HTTP/1.1 ${status} No\r\nContent-Length: 0\r\n\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get connects() {
      return connects;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
