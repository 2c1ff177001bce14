import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOMAIN_EXIT,
  DOMAIN_USAGE,
  isDomainCommand,
  runDomainCommand,
} from '../../src/cli/domain-commands.ts';
import { startDnsTestServer, type DnsTestServer } from '../../tools/loopback/dns-test-server.ts';
import {
  closedPort,
  makeCa,
  makeLeaf,
  startTlsTestServer,
  type TlsTestServer,
} from '../main/domains/tls-test-server.ts';

const TARGET = 'edge.petstore-platform.net';
// The clock the commands see; near the real time, which OpenSSL checks certificate dates against.
const NOW = Math.floor(Date.now() / 1000) * 1000;

let dns: DnsTestServer;
let tls: TlsTestServer;
let dir: string;
let caFile: string;

beforeAll(async () => {
  dns = await startDnsTestServer({
    zones: [{ name: 'example.com', soaTtl: 7200, minimum: 1800 }],
    records: [
      { name: TARGET, type: 'A', data: '203.0.113.10' },
      { name: 'shop.example.com', type: 'CNAME', data: TARGET },
      { name: 'leftover.example.com', type: 'CNAME', data: TARGET },
      { name: 'leftover.example.com', type: 'A', data: '192.0.2.99' },
      { name: 'xn--bcher-kva.example.com', type: 'CNAME', data: TARGET },
      { name: 'shop.caa-block.com', type: 'CNAME', data: TARGET },
      { name: 'caa-block.com', type: 'CAA', data: { tag: 'issue', value: 'digicert.com' } },
    ],
  });
  const ca = await makeCa();
  const [shop, platform] = await Promise.all([
    makeLeaf({
      names: ['shop.example.com'],
      ca,
      notBefore: new Date(NOW - 86_400_000),
      notAfter: new Date(NOW + 60 * 86_400_000),
    }),
    makeLeaf({ names: ['*.petstore-platform.net'] }),
  ]);
  tls = await startTlsTestServer({
    fallback: platform,
    bySni: { 'shop.example.com': shop },
    refuse: ['refused.example.com'],
  });
  dir = await mkdtemp(join(tmpdir(), 'store-admin-domains-'));
  caFile = join(dir, 'ca.pem');
  await writeFile(caFile, ca.cert);
});
afterAll(async () => {
  await Promise.all([dns.close(), tls.close(), rm(dir, { recursive: true, force: true })]);
});

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runDomainCommand(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: {},
    timing: { now: () => NOW, random: () => 0.5, sleep: async () => {} },
  });
  return { code, stdout, stderr };
}

const check = (domain: string, ...more: string[]) =>
  cli(['domain', 'check', domain, '--target', TARGET, '--resolver', dns.address, ...more]);

describe('store-admin domain check', () => {
  it('prints ready and the findings with their codes, exit 0', async () => {
    const { code, stdout, stderr } = await check('shop.example.com');
    expect(code).toBe(DOMAIN_EXIT.ok);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^Status: ready\n/);
    expect(stdout).toContain(`shop.example.com (subdomain) → ${TARGET}, asked ${dns.address}`);
    expect(stdout).toMatch(
      / {2}ok {7}cname-ok: shop\.example\.com points to edge\.petstore-platform\.net/,
    );
    expect(stdout).toMatch(/ {2}ok {7}caa-ok: /);
  });

  it('reports misconfigured as JSON with exit 6', async () => {
    const { code, stdout } = await check('leftover.example.com', '--json');
    expect(code).toBe(DOMAIN_EXIT.misconfigured);
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({
      ok: false,
      status: 'misconfigured',
      domain: 'leftover.example.com',
      resolver: dns.address,
      checkedAt: new Date(NOW).toISOString(),
    });
    expect(out.findings.map((f: { code: string }) => f.code)).toEqual([
      'cname-ok',
      'conflicting-a-record',
      'caa-ok',
    ]);
    expect(out.findings[1]).toMatchObject({
      severity: 'error',
      details: { found: ['192.0.2.99'] },
    });
  });

  it('reports pending with exit 5, with the negative-caching time', async () => {
    const { code, stdout } = await check('nothere.example.com', '--json');
    expect(code).toBe(DOMAIN_EXIT.pending);
    const out = JSON.parse(stdout);
    expect(out.status).toBe('pending');
    expect(out.findings[0]).toMatchObject({
      code: 'not-found',
      details: { negativeTtlSeconds: 1800, negativeTtlSource: 'authority-soa' },
    });
    const text = await check('nothere.example.com');
    expect(text.stdout).toContain(
      'pending  not-found: nothere.example.com does not exist in DNS yet',
    );
    expect(text.stdout).toContain('for up to 30 minutes');
  });

  it('reports a silent resolver as error with exit 1, within --timeout', async () => {
    const silent = await startDnsTestServer({ silent: true });
    try {
      const started = performance.now();
      const { code, stdout } = await cli([
        'domain',
        'check',
        'shop.example.com',
        '--target',
        TARGET,
        '--resolver',
        silent.address,
        '--timeout',
        '300',
      ]);
      // Within --timeout, not Node's 5 s a try (4 tries): seconds of slack for a slow machine.
      expect(performance.now() - started).toBeLessThan(4000);
      expect(code).toBe(DOMAIN_EXIT.failed);
      expect(stdout).toMatch(/^Status: error\n/);
      expect(stdout).toContain('resolver-error: The DNS server');
      expect(stdout).toContain('(timeout)');
    } finally {
      await silent.close();
    }
  });

  it('checks CAA against the CA given with --ca', async () => {
    expect((await check('shop.caa-block.com')).code).toBe(DOMAIN_EXIT.misconfigured);
    const { code, stdout } = await check('shop.caa-block.com', '--ca', 'digicert.com', '--json');
    expect(code).toBe(DOMAIN_EXIT.ok);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, caDomain: 'digicert.com' });
  });

  it('takes an IDN domain', async () => {
    const { code, stdout } = await check('bücher.example.com', '--json');
    expect(code).toBe(DOMAIN_EXIT.ok);
    expect(JSON.parse(stdout)).toMatchObject({
      domain: 'xn--bcher-kva.example.com',
      input: 'bücher.example.com',
    });
  });
});

describe('store-admin domain cert', () => {
  it('prints a valid certificate, exit 0', async () => {
    const { code, stdout } = await cli([
      'domain',
      'cert',
      'shop.example.com',
      '--host',
      '127.0.0.1',
      '--port',
      String(tls.port),
      '--ca-file',
      caFile,
    ]);
    expect(code).toBe(DOMAIN_EXIT.ok);
    expect(stdout).toMatch(/^Status: valid\n/);
    expect(stdout).toContain('Issuer:     CN=Pet Store Test CA, O=Pet Store Test');
    expect(stdout).toContain('Names:      shop.example.com (covers shop.example.com)');
    expect(stdout).toContain('Trusted:    yes');
    expect(stdout).toContain('(60 days left)');
    expect(stdout).toContain('ok       certificate-ok');
  });

  it('reports an uncovered, untrusted certificate as JSON with exit 6', async () => {
    const { code, stdout } = await cli([
      'domain',
      'cert',
      'new.customer-shop.com',
      '--host',
      '127.0.0.1',
      '--port',
      String(tls.port),
      '--json',
    ]);
    expect(code).toBe(DOMAIN_EXIT.misconfigured);
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({
      ok: false,
      status: 'invalid',
      certificate: { coversDomain: false, trusted: false, dnsNames: ['*.petstore-platform.net'] },
    });
    expect(out.findings.map((f: { code: string }) => f.code)).toContain(
      'certificate-name-mismatch',
    );
  });

  it('exits 5 when no certificate is shown and 1 when nothing answers', async () => {
    expect(
      await cli([
        'domain',
        'cert',
        'refused.example.com',
        '--host',
        '127.0.0.1',
        '--port',
        String(tls.port),
      ]),
    ).toMatchObject({
      code: DOMAIN_EXIT.pending,
      stdout: expect.stringContaining('certificate-missing'),
    });
    const port = await closedPort();
    expect(
      await cli([
        'domain',
        'cert',
        'shop.example.com',
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
      ]),
    ).toMatchObject({
      code: DOMAIN_EXIT.failed,
      stdout: expect.stringContaining('certificate-unreachable'),
    });
  });
});

describe('usage', () => {
  it('shows help with exit 0', async () => {
    for (const args of [['domain'], ['domain', '--help'], ['domain', 'check', '-h']]) {
      expect(await cli(args)).toEqual({
        code: DOMAIN_EXIT.ok,
        stdout: `${DOMAIN_USAGE}\n`,
        stderr: '',
      });
    }
  });

  it('explains bad usage with exit 2', async () => {
    const cases: [string[], string][] = [
      [['domain', 'check', 'shop.example.com'], 'needs --target'],
      [['domain', 'frobnicate', 'x.com'], 'unknown command: domain frobnicate'],
      [['domain', 'check', '--target', TARGET], 'exactly one domain'],
      [
        ['domain', 'check', 'shop.example.com', '--target', TARGET, '--timeout', 'soon'],
        '--timeout must be a whole number',
      ],
      [
        ['domain', 'check', 'shop.example.com', '--target', TARGET, '--port', '443'],
        '--port is not an option of domain check',
      ],
      [
        ['domain', 'cert', 'shop.example.com', '--target', TARGET],
        '--target is not an option of domain cert',
      ],
      [
        ['domain', 'cert', 'shop.example.com', '--port', '0'],
        '--port must be a whole number from 1 to 65535',
      ],
      [
        ['domain', 'check', 'shop.example.com', '--target', TARGET, '--bogus'],
        'unknown option --bogus',
      ],
      [['domain', 'check', 'https://shop.example.com/', '--target', TARGET], 'without https://'],
      [
        ['domain', 'check', 'shop.example.com', '--target', TARGET, '--resolver', 'dns.google'],
        'must be an IP address',
      ],
      [
        ['domain', 'cert', 'shop.example.com', '--ca-file', '/nonexistent/ca.pem'],
        'cannot read /nonexistent/ca.pem (ENOENT)',
      ],
    ];
    for (const [args, words] of cases) {
      const { code, stdout, stderr } = await cli(args);
      expect({ args, code, stdout }).toEqual({ args, code: DOMAIN_EXIT.usage, stdout: '' });
      expect(stderr).toContain(words);
    }
  });

  it('reports invalid input as JSON when asked', async () => {
    const { code, stdout } = await cli(['domain', 'check', 'co.uk', '--target', TARGET, '--json']);
    expect(code).toBe(DOMAIN_EXIT.usage);
    expect(JSON.parse(stdout)).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', message: expect.stringContaining('public suffix') },
    });
  });

  it('recognises domain commands for run.ts to hand over', () => {
    expect(isDomainCommand(['domain', 'check', 'x.com'])).toBe(true);
    expect(isDomainCommand(['orders', 'list'])).toBe(false);
    expect(isDomainCommand([])).toBe(false);
  });
});
