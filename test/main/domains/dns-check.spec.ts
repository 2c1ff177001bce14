import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  domainStatus,
  type DnsFinding,
  type DomainCheckReport,
} from '../../../src/shared/domains.ts';
import { checkDomainDns, describeDuration } from '../../../src/main/domains/dns-check.ts';
import { DomainInputError } from '../../../src/main/domains/domain-name.ts';
import {
  startDnsTestServer,
  type DnsTestServer,
  type TestRecord,
} from '../../../tools/loopback/dns-test-server.ts';

const TARGET = 'edge.petstore-platform.net';
const PLATFORM_A = ['203.0.113.10', '203.0.113.11'];
const PLATFORM_AAAA = ['2001:db8::10'];

const cname = (name: string, data: string): TestRecord => ({ name, type: 'CNAME', data });
const a = (name: string, data: string): TestRecord => ({ name, type: 'A', data });
const aaaa = (name: string, data: string): TestRecord => ({ name, type: 'AAAA', data });
const caa = (name: string, tag: string, value: string, flags = 0): TestRecord => ({
  name,
  type: 'CAA',
  data: { tag, value, flags },
});

const records: TestRecord[] = [
  ...PLATFORM_A.map((ip) => a(TARGET, ip)),
  ...PLATFORM_AAAA.map((ip) => aaaa(TARGET, ip)),
  a('old-host.example.net', '198.51.100.7'),
  // subdomains of example.com
  cname('shop.example.com', TARGET),
  a('api.missing.example.com', '192.0.2.5'), // makes missing.example.com exist with no records
  cname('leftover.example.com', TARGET),
  a('leftover.example.com', '192.0.2.99'),
  cname('leftover6.example.com', TARGET),
  aaaa('leftover6.example.com', '2001:db8::99'),
  a('instead.example.com', '192.0.2.50'),
  cname('wrong.example.com', 'old-host.example.net'),
  cname('cased.example.com', 'Edge.PetStore-Platform.NET.'),
  cname('xn--bcher-kva.example.com', TARGET),
  // apexes (ALIAS/ANAME, seen flattened)
  ...PLATFORM_A.map((ip) => a('flat-ok.com', ip)),
  a('flat-wrong.com', '192.0.2.1'),
  aaaa('flat-wrong.com', '2001:db8::1'),
  a('flat-mixed.com', PLATFORM_A[0]!),
  aaaa('flat-mixed.com', '2001:db8::dead'),
  // CAA
  caa('caa-block.com', 'issue', 'digicert.com'),
  caa('caa-block.com', 'iodef', 'mailto:security@caa-block.com'),
  cname('shop.caa-block.com', TARGET),
  caa('caa-allow.com', 'issue', 'digicert.com'),
  caa('caa-allow.com', 'issue', 'LetsEncrypt.org; validationmethods=http-01'),
  cname('shop.caa-allow.com', TARGET),
  caa('caa-wild.com', 'issuewild', 'digicert.com'),
  cname('shop.caa-wild.com', TARGET),
  caa('caa-nowild.com', 'issue', ';'),
  caa('caa-nowild.com', 'issuewild', 'letsencrypt.org'),
  cname('shop.caa-nowild.com', TARGET),
  caa('caa-nearer.com', 'issue', 'digicert.com'),
  caa('shop.caa-nearer.com', 'issue', 'letsencrypt.org'),
  cname('www.caa-nearer.com', TARGET),
  caa('caa-critical.com', 'tbs', 'unknown', 128),
  cname('shop.caa-critical.com', TARGET),
  cname('shop.caa-via-alias.com', 'edge-caa.petstore-platform.net'),
  a('edge-caa.petstore-platform.net', PLATFORM_A[0]!),
  caa('edge-caa.petstore-platform.net', 'issue', 'digicert.com'),
];

let server: DnsTestServer;

beforeAll(async () => {
  server = await startDnsTestServer({
    records,
    zones: [
      { name: 'example.com', soaTtl: 900, minimum: 300 },
      { name: 'short-soa.com', soaTtl: 60, minimum: 3600 },
      { name: 'flat-none.com', soaTtl: 3600, minimum: 3600 },
      { name: 'petstore-platform.net', soaTtl: 3600, minimum: 600 },
      { name: 'com', soaTtl: 900, minimum: 86400 },
    ],
    answers: {
      // A misconfigured zone answered as CNAME chain plus the leftover A, in either order.
      'leftover-last.example.com A': [
        cname('leftover-last.example.com', TARGET),
        a(TARGET, PLATFORM_A[0]!),
        a('leftover-last.example.com', '192.0.2.77'),
      ],
      'leftover-first.example.com A': [
        a('leftover-first.example.com', '192.0.2.78'),
        cname('leftover-first.example.com', TARGET),
        a(TARGET, PLATFORM_A[0]!),
      ],
      'leftover-last.example.com CNAME': [cname('leftover-last.example.com', TARGET)],
      'leftover-first.example.com CNAME': [cname('leftover-first.example.com', TARGET)],
    },
  });
});
afterAll(() => server.close());

const check = (
  domain: string,
  extra: { target?: string; caDomain?: string; timeoutMs?: number } = {},
): Promise<DomainCheckReport> =>
  checkDomainDns({
    domain,
    target: extra.target ?? TARGET,
    resolver: server.address,
    timeoutMs: extra.timeoutMs ?? 2000,
    caDomain: extra.caDomain,
    now: () => Date.UTC(2025, 0, 2, 3, 4, 5),
  });

const codes = (report: DomainCheckReport): string[] => report.findings.map((f) => f.code);
const finding = (report: DomainCheckReport, code: string): DnsFinding => {
  const found = report.findings.find((f) => f.code === code);
  if (!found) throw new Error(`no ${code} in ${codes(report).join(', ')}`);
  return found;
};

describe('CNAME of a subdomain', () => {
  it('is ready when the CNAME names the target and nothing blocks it', async () => {
    const report = await check('shop.example.com');
    expect(report).toMatchObject({
      domain: 'shop.example.com',
      kind: 'subdomain',
      registrableDomain: 'example.com',
      target: TARGET,
      resolver: server.address,
      caDomain: 'letsencrypt.org',
      status: 'ready',
      checkedAt: '2025-01-02T03:04:05.000Z',
    });
    expect(codes(report)).toEqual(['cname-ok', 'caa-ok']);
    expect(finding(report, 'cname-ok')).toMatchObject({
      severity: 'ok',
      details: { found: [TARGET], expected: [TARGET] },
    });
  });

  it('is pending when the name exists without a CNAME', async () => {
    const report = await check('missing.example.com');
    expect(report.status).toBe('pending');
    expect(codes(report)).toEqual(['cname-missing', 'caa-ok']);
    const missing = finding(report, 'cname-missing');
    expect(missing.severity).toBe('pending');
    expect(missing.message).toContain(`CNAME record for "missing" with the value ${TARGET}`);
    expect(missing.message).toContain('48 hours');
  });

  it('reports a wrong target with what was found and what is expected', async () => {
    const report = await check('wrong.example.com');
    expect(report.status).toBe('misconfigured');
    expect(codes(report)).toEqual(['cname-mismatch', 'caa-ok']);
    const mismatch = finding(report, 'cname-mismatch');
    expect(mismatch.details).toEqual({ found: ['old-host.example.net'], expected: [TARGET] });
    expect(mismatch.message).toContain(
      'points to old-host.example.net, but it must point to edge.petstore-platform.net',
    );
  });

  it('compares without regard to case or a trailing dot, on either side', async () => {
    expect(codes(await check('cased.example.com'))).toEqual(['cname-ok', 'caa-ok']);
    const report = await check('shop.example.com', { target: 'EDGE.PetStore-Platform.net.' });
    expect(report.target).toBe(TARGET);
    expect(report.status).toBe('ready');
    expect(codes(await check('Cased.Example.COM.', { target: `${TARGET}.` }))).toEqual([
      'cname-ok',
      'caa-ok',
    ]);
  });

  it('says when the target itself does not exist (a mistyped target)', async () => {
    const report = await check('shop.example.com', { target: 'edeg.petstore-platform.net' });
    expect(report.status).toBe('misconfigured');
    expect(codes(report)).toEqual(['target-not-found', 'cname-mismatch', 'caa-ok']);
  });
});

describe('A/AAAA records that block the CNAME', () => {
  it('finds a leftover A next to the CNAME when the server answers per type', async () => {
    const report = await check('leftover.example.com');
    expect(report.status).toBe('misconfigured');
    expect(codes(report)).toEqual(['cname-ok', 'conflicting-a-record', 'caa-ok']);
    const conflict = finding(report, 'conflicting-a-record');
    expect(conflict).toMatchObject({ severity: 'error', details: { found: ['192.0.2.99'] } });
    expect(conflict.message).toContain('delete the A record for "leftover"');
  });

  it('finds a leftover A that arrives with the CNAME chain, after it or before it', async () => {
    for (const [name, leftover] of [
      ['leftover-last.example.com', '192.0.2.77'],
      ['leftover-first.example.com', '192.0.2.78'],
    ] as const) {
      const report = await check(name);
      expect(codes(report)).toEqual(['cname-ok', 'conflicting-a-record', 'caa-ok']);
      expect(finding(report, 'conflicting-a-record').details?.found).toEqual([leftover]);
    }
  });

  it('does not count the addresses reached through the CNAME as conflicts', async () => {
    // shop.example.com resolves to the platform's A and AAAA through its CNAME.
    const report = await check('shop.example.com');
    expect(codes(report)).not.toContain('conflicting-a-record');
    expect(codes(report)).not.toContain('conflicting-aaaa-record');
  });

  it('finds a leftover AAAA next to the CNAME', async () => {
    const report = await check('leftover6.example.com');
    expect(codes(report)).toEqual(['cname-ok', 'conflicting-aaaa-record', 'caa-ok']);
    expect(finding(report, 'conflicting-aaaa-record').details?.found).toEqual(['2001:db8::99']);
  });

  it('finds an A record in place of the CNAME: missing and blocking, so misconfigured', async () => {
    const report = await check('instead.example.com');
    expect(report.status).toBe('misconfigured');
    expect(codes(report)).toEqual(['cname-missing', 'conflicting-a-record', 'caa-ok']);
    const conflict = finding(report, 'conflicting-a-record');
    expect(conflict.details?.found).toEqual(['192.0.2.50']);
    expect(conflict.message).toContain(
      `then create a CNAME record for "instead" with the value ${TARGET}`,
    );
  });
});

describe('apex domain (ALIAS/ANAME, seen flattened)', () => {
  it('is ready when the apex addresses are the target’s', async () => {
    const report = await check('flat-ok.com');
    expect(report).toMatchObject({
      kind: 'apex',
      registrableDomain: 'flat-ok.com',
      status: 'ready',
    });
    expect(codes(report)).toEqual(['apex-alias-ok', 'caa-ok']);
    expect(finding(report, 'apex-alias-ok').details).toEqual({
      found: PLATFORM_A,
      expected: [...PLATFORM_A, ...PLATFORM_AAAA],
    });
  });

  it('is misconfigured when no address is the target’s, and says ALIAS/ANAME is not everywhere', async () => {
    const report = await check('flat-wrong.com');
    expect(report.status).toBe('misconfigured');
    expect(codes(report)).toEqual(['apex-alias-mismatch', 'caa-ok']);
    const mismatch = finding(report, 'apex-alias-mismatch');
    expect(mismatch.details).toEqual({
      found: ['192.0.2.1', '2001:db8::1'],
      expected: [...PLATFORM_A, ...PLATFORM_AAAA],
    });
    expect(mismatch.message).toContain('ALIAS or ANAME record to edge.petstore-platform.net');
    expect(mismatch.message).toContain('Not every DNS provider supports ALIAS or ANAME');
  });

  it('flags an old address left next to the flattened alias', async () => {
    const report = await check('flat-mixed.com');
    expect(report.status).toBe('misconfigured');
    expect(codes(report)).toEqual(['apex-alias-ok', 'conflicting-aaaa-record', 'caa-ok']);
    expect(finding(report, 'conflicting-aaaa-record').details?.found).toEqual(['2001:db8::dead']);
  });

  it('is pending when the apex has no address yet', async () => {
    const report = await check('flat-none.com');
    expect(report.status).toBe('pending');
    expect(codes(report)).toEqual(['apex-alias-missing', 'caa-ok']);
    expect(finding(report, 'apex-alias-missing').message).toContain(
      'Not every DNS provider supports',
    );
  });
});

describe('CAA', () => {
  it('blocks when the relevant set (at the parent) names another CA only', async () => {
    const report = await check('shop.caa-block.com');
    expect(report.status).toBe('misconfigured');
    expect(codes(report)).toEqual(['cname-ok', 'caa-blocks-ca']);
    const block = finding(report, 'caa-blocks-ca');
    expect(block.details).toEqual({
      name: 'caa-block.com',
      caDomain: 'letsencrypt.org',
      found: ['digicert.com'],
      expected: ['letsencrypt.org'],
    });
    expect(block.message).toContain('0 issue "letsencrypt.org"');
    expect(block.message).toContain('caa-block.com (which applies to shop.caa-block.com)');
  });

  it('allows the CA named in the setting', async () => {
    const report = await check('shop.caa-block.com', { caDomain: 'DigiCert.com' });
    expect(report.status).toBe('ready');
    expect(finding(report, 'caa-ok').details).toMatchObject({
      name: 'caa-block.com',
      caDomain: 'digicert.com',
      found: ['digicert.com'],
    });
  });

  it('allows when one issue tag names the CA (case and parameters ignored)', async () => {
    const report = await check('shop.caa-allow.com');
    expect(report.status).toBe('ready');
    expect(finding(report, 'caa-ok').details).toMatchObject({
      name: 'caa-allow.com',
      found: ['digicert.com', 'letsencrypt.org'],
    });
  });

  it('ignores issuewild for the exact name: issuewild alone does not block it', async () => {
    const report = await check('shop.caa-wild.com');
    expect(report.status).toBe('ready');
    expect(finding(report, 'caa-ok').message).toContain(
      'issuewild entries apply only to wildcard certificates',
    );
  });

  it('ignores issuewild for the exact name: issuewild naming the CA does not lift issue ";"', async () => {
    const report = await check('shop.caa-nowild.com');
    expect(codes(report)).toEqual(['cname-ok', 'caa-blocks-ca']);
    expect(finding(report, 'caa-blocks-ca').message).toContain(
      'allow no certificate authority at all',
    );
    expect(finding(report, 'caa-blocks-ca').details?.found).toEqual([';']);
  });

  it('uses the nearest set: CAA at the name wins over its parent', async () => {
    expect(
      finding(await check('shop.caa-nearer.com', { target: 'shop.caa-nearer.com' }), 'caa-ok')
        .details?.name,
    ).toBe('shop.caa-nearer.com');
    expect(finding(await check('www.caa-nearer.com'), 'caa-blocks-ca').details?.name).toBe(
      'caa-nearer.com',
    );
  });

  it('follows the CNAME of the name to the CAA at its target', async () => {
    const report = await check('shop.caa-via-alias.com', {
      target: 'edge-caa.petstore-platform.net',
    });
    expect(codes(report)).toEqual(['cname-ok', 'caa-blocks-ca']);
    expect(finding(report, 'caa-blocks-ca').details).toMatchObject({
      name: 'shop.caa-via-alias.com',
      found: ['digicert.com'],
    });
  });

  it('blocks on an unknown tag flagged critical', async () => {
    const report = await check('shop.caa-critical.com');
    expect(finding(report, 'caa-blocks-ca')).toMatchObject({ details: { found: ['tbs'] } });
  });
});

describe('NXDOMAIN', () => {
  it('is pending, with the negative-caching time from the SOA in the authority section', async () => {
    const report = await check('nothere.example.com');
    expect(report.status).toBe('pending');
    expect(codes(report)).toEqual(['not-found', 'caa-ok']);
    const notFound = finding(report, 'not-found');
    // min(SOA TTL 900, MINIMUM 300)
    expect(notFound.details).toEqual({
      expected: [TARGET],
      negativeTtlSeconds: 300,
      negativeTtlSource: 'authority-soa',
      soaZone: 'example.com',
    });
    expect(notFound.message).toContain('for up to 5 minutes');
    expect(notFound.message).toContain('48 hours');
  });

  it('takes the SOA record’s TTL when it is the smaller', async () => {
    const report = await check('shop.short-soa.com');
    expect(finding(report, 'not-found').details).toMatchObject({
      negativeTtlSeconds: 60,
      negativeTtlSource: 'authority-soa',
      soaZone: 'short-soa.com',
    });
  });

  it('says when the registrable domain itself is unknown (the SOA comes from the TLD)', async () => {
    const report = await check('shop.unregistered-shop.com');
    const notFound = finding(report, 'not-found');
    expect(notFound.details).toMatchObject({ negativeTtlSeconds: 900, soaZone: 'com' });
    expect(notFound.message).toContain('unregistered-shop.com itself is unknown to DNS');
    expect(notFound.message).toContain('for up to 15 minutes');
    expect(finding(await check('nothere.example.com'), 'not-found').message).not.toContain(
      'unknown to DNS',
    );
  });

  it('falls back to the registrable domain’s SOA MINIMUM when the answer carries no SOA', async () => {
    const bare = await startDnsTestServer({
      records,
      zones: [{ name: 'example.com', soaTtl: 900, minimum: 300 }],
      omitNegativeSoa: true,
    });
    try {
      const report = await checkDomainDns({
        domain: 'nothere.example.com',
        target: TARGET,
        resolver: bare.address,
        timeoutMs: 2000,
      });
      expect(finding(report, 'not-found').details).toMatchObject({
        negativeTtlSeconds: 300,
        negativeTtlSource: 'zone-soa-minimum',
        soaZone: 'example.com',
      });
      expect(bare.asked).toContainEqual({ name: 'example.com', type: 'SOA' });
    } finally {
      await bare.close();
    }
  });
});

describe('resolver failures', () => {
  it('gives up on a silent server within its deadline, with the queries run in parallel', async () => {
    const TIMEOUT_MS = 1000;
    const silent = await startDnsTestServer({ records, silent: true });
    try {
      const started = performance.now();
      const report = await checkDomainDns({
        domain: 'shop.example.com',
        target: TARGET,
        resolver: silent.address,
        timeoutMs: TIMEOUT_MS,
      });
      const elapsed = performance.now() - started;
      // Node's default is 5 s per try, 4 tries; run one after another the 8 queries would
      // take 8 timeouts. Half of that leaves a slow machine 3 s of slack.
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
      expect(elapsed).toBeLessThan(4 * TIMEOUT_MS);
      expect(report.status).toBe('error');
      expect(codes(report)).toEqual(['resolver-error']);
      const error = finding(report, 'resolver-error');
      expect(error.details?.reason).toBe('timeout');
      expect(error.details?.lookups).toEqual(
        expect.arrayContaining([
          'CNAME shop.example.com',
          'A shop.example.com',
          `A ${TARGET}`,
          'CAA shop.example.com',
        ]),
      );
      expect(error.message).toContain(
        `The DNS server ${silent.address} did not answer in time (timeout)`,
      );
      expect(silent.asked.length).toBeGreaterThanOrEqual(6);
    } finally {
      await silent.close();
    }
  });

  it('names a SERVFAIL as such', async () => {
    const failing = await startDnsTestServer({ records, servfail: ['shop.example.com'] });
    try {
      const report = await checkDomainDns({
        domain: 'shop.example.com',
        target: TARGET,
        resolver: failing.address,
        timeoutMs: 2000,
      });
      expect(report.status).toBe('error');
      expect(codes(report)).toEqual(['resolver-error']);
      const error = finding(report, 'resolver-error');
      expect(error.details).toEqual({
        reason: 'servfail',
        lookups: [
          'CNAME shop.example.com',
          'A shop.example.com',
          'AAAA shop.example.com',
          'CAA shop.example.com',
        ],
      });
      expect(error.message).toContain('SERVFAIL');
    } finally {
      await failing.close();
    }
  });

  it('names a REFUSED as such, and a definite fault still outranks it', async () => {
    const refusing = await startDnsTestServer({ records, refused: ['com'] });
    try {
      const ok = await checkDomainDns({
        domain: 'shop.example.com',
        target: TARGET,
        resolver: refusing.address,
        timeoutMs: 2000,
      });
      expect(ok.status).toBe('error');
      expect(codes(ok)).toEqual(['cname-ok', 'resolver-error']);
      expect(finding(ok, 'resolver-error').details).toEqual({
        reason: 'refused',
        lookups: ['CAA com'],
      });
      expect(finding(ok, 'resolver-error').message).toContain('REFUSED');
      const wrong = await checkDomainDns({
        domain: 'wrong.example.com',
        target: TARGET,
        resolver: refusing.address,
        timeoutMs: 2000,
      });
      expect(wrong.status).toBe('misconfigured');
      expect(codes(wrong)).toEqual(['cname-mismatch', 'resolver-error']);
    } finally {
      await refusing.close();
    }
  });
});

describe('input', () => {
  it('turns an IDN into punycode and checks that name', async () => {
    const report = await check('Bücher.Example.com.');
    expect(report).toMatchObject({
      domain: 'xn--bcher-kva.example.com',
      input: 'Bücher.Example.com.',
      status: 'ready',
    });
    expect(server.asked).toContainEqual({ name: 'xn--bcher-kva.example.com', type: 'CNAME' });
    expect((await check('bücher.example.com')).domain).toBe('xn--bcher-kva.example.com');
  });

  it('rejects what is not a host name before asking anything', async () => {
    const before = server.asked.length;
    for (const [domain, words] of [
      ['https://shop.example.com/', 'without https://'],
      ['shop..example.com', 'empty part'],
      ['*.example.com', 'signs a domain cannot have'],
      ['192.0.2.1', 'IP address'],
      ['co.uk', 'public suffix'],
      ['', 'empty'],
    ] as const) {
      await expect(check(domain)).rejects.toThrow(DomainInputError);
      await expect(check(domain)).rejects.toThrow(words);
    }
    await expect(
      checkDomainDns({
        domain: 'shop.example.com',
        target: 'not a name',
        resolver: server.address,
      }),
    ).rejects.toThrow('The target');
    await expect(
      checkDomainDns({ domain: 'shop.example.com', target: TARGET, resolver: 'dns.example:53' }),
    ).rejects.toThrow('must be an IP address');
    await expect(
      checkDomainDns({ domain: 'shop.example.com', target: TARGET, resolver: '127.0.0.1:99999' }),
    ).rejects.toThrow('invalid port');
    for (const timeoutMs of [0, -5, 1.5, 700_000]) {
      await expect(check('shop.example.com', { timeoutMs })).rejects.toThrow(
        'The timeout must be a whole number',
      );
    }
    expect(server.asked.length).toBe(before);
  });
});

describe('status precedence', () => {
  const f = (code: DnsFinding['code']): DnsFinding => ({ code, severity: 'ok', message: '' });
  it('puts misconfigured over error over pending over ready', () => {
    expect(domainStatus([f('cname-ok'), f('caa-ok')])).toBe('ready');
    expect(domainStatus([f('not-found'), f('caa-ok')])).toBe('pending');
    expect(domainStatus([f('cname-missing'), f('resolver-error')])).toBe('error');
    expect(domainStatus([f('apex-alias-missing'), f('resolver-error'), f('caa-blocks-ca')])).toBe(
      'misconfigured',
    );
    expect(domainStatus([f('cname-ok'), f('conflicting-aaaa-record')])).toBe('misconfigured');
  });

  it('describes durations in plain words', () => {
    expect([
      describeDuration(1),
      describeDuration(45),
      describeDuration(300),
      describeDuration(7200),
      describeDuration(86400),
    ]).toEqual(['1 second', '45 seconds', '5 minutes', '2 hours', '24 hours']);
  });
});
