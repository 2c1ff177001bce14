// The assistant's certificate check looks the site up through the DNS server
// chosen for the DNS check, then connects there with the domain as SNI.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCertificateViaDns } from '../../../src/main/domains/certificate-via-dns.ts';
import { startDnsTestServer, type DnsTestServer } from '../../../tools/loopback/dns-test-server.ts';
import { makeLeaf, startTlsTestServer, type TlsTestServer } from './tls-test-server.ts';

const ZONE = 'pets-example.invalid';

let dns: DnsTestServer;
let tls: TlsTestServer;

beforeAll(async () => {
  const leaf = await makeLeaf({ names: [`shop.${ZONE}`] });
  tls = await startTlsTestServer({ fallback: leaf });
  dns = await startDnsTestServer({
    records: [
      { name: `shop.${ZONE}`, type: 'CNAME', data: `edge.${ZONE}` },
      { name: `edge.${ZONE}`, type: 'A', data: '127.0.0.1' },
      { name: `v6.${ZONE}`, type: 'AAAA', data: '::1' },
    ],
    zones: [{ name: ZONE, soaTtl: 300, minimum: 300 }],
  });
});
afterAll(async () => {
  await tls.close();
  await dns.close();
});

describe('checkCertificateViaDns', () => {
  it('connects to the address the chosen DNS server gives, naming the domain', async () => {
    const report = await checkCertificateViaDns({
      domain: `Shop.${ZONE}.`,
      port: tls.port,
      resolver: dns.address,
    });
    expect(report.host).toBe('127.0.0.1');
    expect(report.domain).toBe(`shop.${ZONE}`);
    expect(report.certificate?.dnsNames).toEqual([`shop.${ZONE}`]);
    expect(tls.servernames).toContain(`shop.${ZONE}`);
    expect(dns.asked).toContainEqual({ name: `shop.${ZONE}`, type: 'A' });
  });

  it('says which DNS server has no address for the site, without connecting anywhere', async () => {
    const before = tls.servernames.length;
    const report = await checkCertificateViaDns({
      domain: `gone.${ZONE}`,
      port: tls.port,
      resolver: dns.address,
    });
    expect(report.status).toBe('unreachable');
    expect(report.findings.map((f) => f.code)).toEqual(['certificate-unreachable']);
    expect(report.findings[0]?.message).toBe(
      `The site could not be reached: ${dns.address} says gone.${ZONE} does not exist. Run the DNS check to see what is missing.`,
    );
    expect(tls.servernames.length).toBe(before);
  });

  it('falls back to IPv6 when the name has no IPv4 address', async () => {
    const report = await checkCertificateViaDns({
      domain: `v6.${ZONE}`,
      port: tls.port,
      resolver: dns.address,
    });
    expect(report.host).toBe('::1');
  });

  it('without a chosen server, leaves the lookup to the system', async () => {
    const report = await checkCertificateViaDns({ domain: `shop.${ZONE}`, port: tls.port });
    expect(report.host).toBe(`shop.${ZONE}`);
    expect(report.status).toBe('unreachable');
  });
});
