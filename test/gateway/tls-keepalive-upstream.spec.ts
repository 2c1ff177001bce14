// store-admin behind nginx as a company runs it: TLS with a CA of the
// company's own, keep-alives cut short (a connection reused as nginx closes
// it must not turn a DELETE into an unknown), and an upstream that is down
// (nginx's 502 page is named as the address's, or something in between,
// never the store service's problem).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/run.ts';
import { makeSandboxTls } from '../../src/main/sandbox/tls.ts';
import { freePort } from '../../tools/nginx/nginx.ts';
import {
  cli,
  proxyTo,
  sandboxBehindNginx,
  type Stack,
  describeBehindNginx,
} from './gateway-support.ts';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function stack(...args: Parameters<typeof sandboxBehindNginx>): Promise<Stack> {
  const started = await sandboxBehindNginx(...args);
  return started;
}

describeBehindNginx('store-admin behind nginx', () => {
  it('over TLS with the company’s own CA: trusted through NODE_EXTRA_CA_CERTS, refused without it', async () => {
    const tls = await makeSandboxTls();
    const folder = mkdtempSync(join(tmpdir(), 'store-admin-tls-'));
    folders.push(folder);
    const [certFile, keyFile, caFile] = ['cert.pem', 'key.pem', 'ca.pem'].map((name) =>
      join(folder, name),
    ) as [string, string, string];
    writeFileSync(certFile, tls.cert);
    writeFileSync(keyFile, tls.key);
    writeFileSync(caFile, tls.ca);
    const secure = await stack(
      (upstream, port) => `server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${certFile};
    ssl_certificate_key ${keyFile};
    ${proxyTo(`127.0.0.1:${upstream}`)}
  }`,
      { orders: 20 },
    );
    const https = { ...secure, baseUrl: `https://127.0.0.1:${secure.nginx.port}/v1` };
    const trusted = await cli(https, ['orders', 'list', '--json'], { NODE_EXTRA_CA_CERTS: caFile });
    expect(trusted.code).toBe(EXIT.ok);
    expect((JSON.parse(trusted.stdout) as { count: number }).count).toBe(20);
    const untrusted = await cli(https, ['orders', 'list']);
    expect(untrusted.code).toBe(EXIT.failed);
    expect(untrusted.stderr).toContain('a certificate this computer does not trust');
    expect(untrusted.stderr).toContain('nothing was sent');
    // The refused handshake reached nginx's TLS, never its access log.
    expect((await secure.nginx.accessLog()).map((e) => e.status)).toEqual([200]);
  });

  it('short keep-alives: a bulk cancel of 30 reuses and reopens connections, every answer known', async () => {
    const behind = await stack(
      (upstream, port) => `server {
    listen 127.0.0.1:${port};
    keepalive_timeout 1s;
    keepalive_requests 2;
    ${proxyTo(`127.0.0.1:${upstream}`)}
  }`,
      { faults: 'latency=30@0.5' },
    );
    const ids = behind.sandbox.orderIds({ status: 'pending' }).slice(0, 30);
    const file = join(behind.dataDir, 'ids.txt');
    writeFileSync(file, `${ids.join('\n')}\n`);
    const run = await cli(behind, ['orders', 'cancel', '--from', file, '--json']);
    expect(run.code).toBe(EXIT.ok);
    const out = JSON.parse(run.stdout) as { results: { outcome: string; delivery: string }[] };
    expect(out.results).toHaveLength(30);
    expect(out.results.every((r) => r.outcome === 'cancelled' && r.delivery === 'answered')).toBe(
      true,
    );
    const log = await behind.nginx.accessLog();
    expect(log.filter((e) => e.method === 'DELETE').map((e) => e.status)).toEqual(
      ids.map(() => 204),
    );
  });

  it('upstream down: nginx’s 502 page is the address’s (or something in between), not the service’s problem', async () => {
    const nowhere = await freePort();
    const behind = await stack(
      (_upstream, port) => `server {
    listen 127.0.0.1:${port};
    ${proxyTo(`127.0.0.1:${nowhere}`)}
  }`,
    );
    const host = `127.0.0.1:${behind.nginx.port}`;
    const list = await cli(behind, ['orders', 'list']);
    expect(list.code).toBe(EXIT.failed);
    expect(list.stderr).toMatch(
      new RegExp(
        `^The address ${host.replaceAll('.', '\\.')} \\(or something between it and this computer\\) answered 502 Bad Gateway in place of the store service, though Store Admin tried \\d times\\. Try again in a few minutes\\.`,
      ),
    );
    expect(list.stderr).not.toContain('The store service had a problem');
    const cancel = await cli(behind, ['orders', 'cancel', '7']);
    expect(cancel.code).toBe(EXIT.failed);
    expect(cancel.stderr).toContain(
      `Order 7 may or may not have been cancelled: the address ${host} (or something between it and this computer) answered the request with 502 Bad Gateway, which does not say whether it was done.`,
    );
    console.log(`upstream down: ${list.stderr.trim()} | ${cancel.stderr.trim()}`);
  });
});
