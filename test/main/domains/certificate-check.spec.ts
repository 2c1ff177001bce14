import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { X509Certificate } from 'node:crypto';
import {
  certificateCovers,
  checkCertificate,
  dnsNamesOf,
} from '../../../src/main/domains/certificate-check.ts';
import { DomainInputError } from '../../../src/main/domains/domain-name.ts';
import type { CertificateReport } from '../../../src/shared/domains.ts';
import {
  closedPort,
  makeCa,
  makeLeaf,
  startStallingServer,
  startTlsTestServer,
  type Pem,
  type TlsTestServer,
} from './tls-test-server.ts';

const DAY_MS = 86_400_000;
// Certificates are made around the real time (OpenSSL checks dates against it);
// the check's own clock is pinned to the same instant so day counts are exact.
const NOW = Math.floor(Date.now() / 1000) * 1000;
const now = (): number => NOW;

let ca: Pem;
let server: TlsTestServer;

beforeAll(async () => {
  ca = await makeCa();
  const [shop, selfSigned, expired, soon, future, platform] = await Promise.all([
    makeLeaf({
      names: ['shop.example.com', '*.example.com'],
      ca,
      notBefore: new Date(NOW - DAY_MS),
      notAfter: new Date(NOW + 89 * DAY_MS + 3_600_000),
    }),
    makeLeaf({ names: ['self.example.com'] }),
    makeLeaf({
      names: ['old.example.com'],
      ca,
      notBefore: new Date(NOW - 100 * DAY_MS),
      notAfter: new Date(NOW - 3 * DAY_MS + 3_600_000),
    }),
    makeLeaf({
      names: ['soon.example.com'],
      ca,
      notBefore: new Date(NOW - 80 * DAY_MS),
      notAfter: new Date(NOW + 5 * DAY_MS + 3_600_000),
    }),
    makeLeaf({
      names: ['future.example.com'],
      ca,
      notBefore: new Date(NOW + 2 * DAY_MS),
      notAfter: new Date(NOW + 92 * DAY_MS),
    }),
    makeLeaf({ names: ['*.petstore-platform.net'], ca }),
  ]);
  server = await startTlsTestServer({
    fallback: platform,
    bySni: {
      'shop.example.com': shop,
      'www.example.com': shop,
      'example.com': shop,
      'deep.shop.example.com': shop,
      'self.example.com': selfSigned,
      'old.example.com': expired,
      'soon.example.com': soon,
      'future.example.com': future,
    },
    refuse: ['refused.example.com'],
  });
});
afterAll(() => server.close());

const check = (
  domain: string,
  trust: 'test-ca' | 'system' = 'test-ca',
): Promise<CertificateReport> =>
  checkCertificate({
    domain,
    host: '127.0.0.1',
    port: server.port,
    timeoutMs: 2000,
    now,
    ...(trust === 'test-ca' ? { ca: ca.cert } : {}),
  });

const codes = (report: CertificateReport): string[] => report.findings.map((f) => f.code);

describe('certificate check over TLS', () => {
  it('reports a trusted certificate that covers the domain, with issuer, names and dates', async () => {
    const report = await check('Shop.Example.com');
    expect(server.servernames.at(-1)).toBe('shop.example.com');
    expect(report).toMatchObject({
      domain: 'shop.example.com',
      host: '127.0.0.1',
      port: server.port,
      status: 'valid',
      checkedAt: new Date(NOW).toISOString(),
    });
    expect(report.certificate).toMatchObject({
      subject: { commonName: 'shop.example.com' },
      issuer: {
        commonName: 'Pet Store Test CA',
        organization: 'Pet Store Test',
        text: 'CN=Pet Store Test CA, O=Pet Store Test',
      },
      dnsNames: ['shop.example.com', '*.example.com'],
      validTo: new Date(NOW + 89 * DAY_MS + 3_600_000).toISOString(),
      daysToExpiry: 89,
      expired: false,
      notYetValid: false,
      coversDomain: true,
      trusted: true,
    });
    expect(report.certificate?.trustError).toBeUndefined();
    expect(report.certificate?.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(codes(report)).toEqual(['certificate-ok']);
    expect(report.findings[0]?.message).toContain('trusted certificate from Pet Store Test');
  });

  it('covers one label through a wildcard, but not the apex nor two labels', async () => {
    expect((await check('www.example.com')).certificate?.coversDomain).toBe(true);
    for (const domain of ['example.com', 'deep.shop.example.com']) {
      const report = await check(domain);
      expect(report.status).toBe('invalid');
      expect(report.certificate?.coversDomain).toBe(false);
      expect(report.certificate?.trustError).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
      expect(codes(report)).toEqual(['certificate-name-mismatch']);
    }
  });

  it('reports the platform’s default certificate as not covering the domain, with what to do', async () => {
    const report = await check('new.customer-shop.com');
    expect(report.status).toBe('invalid');
    expect(report.certificate?.dnsNames).toEqual(['*.petstore-platform.net']);
    const mismatch = report.findings[0]!;
    expect(mismatch).toMatchObject({
      code: 'certificate-name-mismatch',
      severity: 'error',
      details: { found: ['*.petstore-platform.net'], expected: ['new.customer-shop.com'] },
    });
    expect(mismatch.message).toContain('30 minutes');
    expect(mismatch.message).toContain('Re-verify');
  });

  it('reports a self-signed certificate as untrusted', async () => {
    const report = await check('self.example.com');
    expect(report.status).toBe('invalid');
    expect(report.certificate).toMatchObject({
      coversDomain: true,
      trusted: false,
      trustError: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      issuer: { commonName: 'self.example.com' },
    });
    expect(codes(report)).toEqual(['certificate-untrusted']);
  });

  it('reports a certificate from an authority it does not know as untrusted', async () => {
    const report = await check('shop.example.com', 'system');
    expect(report.certificate).toMatchObject({
      trusted: false,
      trustError: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      coversDomain: true,
    });
    expect(codes(report)).toEqual(['certificate-untrusted']);
  });

  it('reports an expired certificate with the days since', async () => {
    const report = await check('old.example.com');
    expect(report.status).toBe('invalid');
    expect(report.certificate).toMatchObject({
      expired: true,
      daysToExpiry: -3,
      trusted: false,
      trustError: 'CERT_HAS_EXPIRED',
    });
    expect(codes(report)).toEqual(['certificate-expired']);
    expect(report.findings[0]?.message).toContain('3 days ago');
  });

  it('warns when a valid certificate is about to expire', async () => {
    const report = await check('soon.example.com');
    expect(report.status).toBe('valid');
    expect(report.certificate?.daysToExpiry).toBe(5);
    expect(codes(report)).toEqual(['certificate-ok', 'certificate-expiring-soon']);
    expect(report.findings[1]).toMatchObject({ severity: 'warning' });
  });

  it('reports a certificate that is not valid yet', async () => {
    const report = await check('future.example.com');
    expect(report.status).toBe('invalid');
    expect(report.certificate).toMatchObject({
      notYetValid: true,
      expired: false,
      trustError: 'CERT_NOT_YET_VALID',
    });
    expect(codes(report)).toEqual(['certificate-not-yet-valid']);
  });

  it('reports a missing certificate when the server aborts the handshake', async () => {
    const report = await check('refused.example.com');
    expect(report.status).toBe('missing');
    expect(report.certificate).toBeUndefined();
    expect(report.findings).toMatchObject([{ code: 'certificate-missing', severity: 'pending' }]);
    expect(report.findings[0]?.message).toContain('Re-verify');
  });

  it('gives up on a handshake that never comes, within its own deadline', async () => {
    const stalling = await startStallingServer();
    try {
      const started = performance.now();
      const report = await checkCertificate({
        domain: 'shop.example.com',
        host: '127.0.0.1',
        port: stalling.port,
        timeoutMs: 300,
      });
      const elapsed = performance.now() - started;
      // At its deadline, not Node's (none: a stalled handshake waits for ever); the
      // upper bound leaves a slow machine seconds of slack.
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(5000);
      expect(report.status).toBe('missing');
      expect(report.findings[0]?.message).toContain('not completed in time');
    } finally {
      await stalling.close();
    }
  });

  it('reports a refused connection as unreachable', async () => {
    const port = await closedPort();
    const report = await checkCertificate({
      domain: 'shop.example.com',
      host: '127.0.0.1',
      port,
      timeoutMs: 2000,
    });
    expect(report.status).toBe('unreachable');
    expect(report.findings).toMatchObject([
      { code: 'certificate-unreachable', severity: 'error', details: { reason: 'unreachable' } },
    ]);
    expect(report.findings[0]?.message).toContain('the connection was refused');
  });

  it('rejects a bad domain or port before connecting', async () => {
    await expect(
      checkCertificate({
        domain: 'https://shop.example.com',
        host: '127.0.0.1',
        port: server.port,
      }),
    ).rejects.toThrow(DomainInputError);
    await expect(
      checkCertificate({ domain: 'shop.example.com', host: '127.0.0.1', port: 70000 }),
    ).rejects.toThrow('from 1 to 65535');
  });
});

describe('name matching (RFC 6125)', () => {
  /** Whether a certificate naming only `name` covers `domain`. */
  const covers = async (name: string, domain: string, commonName = 'other.example.org') => {
    const leaf = await makeLeaf({ names: name ? [name] : [], commonName });
    return certificateCovers(new X509Certificate(leaf.cert), domain);
  };

  it('matches exact names without regard to case', async () => {
    expect(await covers('Shop.Example.com', 'shop.example.com')).toBe(true);
    expect(await covers('shop.example.com', 'shop.example.net')).toBe(false);
  });

  it('lets a wildcard stand for exactly one whole left-most label', async () => {
    expect(await covers('*.example.com', 'shop.example.com')).toBe(true);
    expect(await covers('*.example.com', 'xn--bcher-kva.example.com')).toBe(true);
    expect(await covers('*.example.com', 'example.com')).toBe(false);
    expect(await covers('*.example.com', 'a.shop.example.com')).toBe(false);
    expect(await covers('*.*.example.com', 'a.shop.example.com')).toBe(false);
    expect(await covers('s*.example.com', 'shop.example.com')).toBe(false);
    expect(await covers('shop.*.com', 'shop.example.com')).toBe(false);
    expect(await covers('*.com', 'example.com')).toBe(false);
  });

  it('does not take the subject’s common name for a DNS name', async () => {
    expect(await covers('', 'shop.example.com', 'shop.example.com')).toBe(false);
    expect(await covers('other.example.com', 'shop.example.com', 'shop.example.com')).toBe(false);
  });

  it('reads DNS names from Node’s subjectaltname text, quoted ones included', () => {
    expect(
      dnsNamesOf(
        'DNS:shop.example.com, IP Address:127.0.0.1, DNS:"odd,name.example.com", DNS:*.example.com',
      ),
    ).toEqual(['shop.example.com', 'odd,name.example.com', '*.example.com']);
    expect(dnsNamesOf(undefined)).toEqual([]);
  });
});
