// The certificate check as the assistant runs it: the site's address comes
// from the DNS server chosen for the DNS check, so both checks look at the
// same site (this computer's usual resolvers may still hold an old answer,
// or none). Without a chosen server, the system's resolvers are used.

import type { CertificateReport } from '../../shared/domains.ts';
import { checkCertificate, DEFAULT_TLS_PORT } from './certificate-check.ts';
import { DEFAULT_DNS_TIMEOUT_MS } from './dns-check.ts';
import { createDnsLookups, parseDnsServer, type DnsLookups } from './dns-lookup.ts';
import { normaliseHostName } from './domain-name.ts';

export interface CertificateViaDnsRequest {
  readonly domain: string;
  readonly port?: number | undefined;
  /** HOST:PORT of the DNS server the DNS check asks; the system's resolvers when absent. */
  readonly resolver?: string | undefined;
  readonly dnsTimeoutMs?: number | undefined;
  readonly now?: () => number;
}

/** The first address the server gives (IPv4, then IPv6), or why there is none. */
async function addressOf(
  dns: DnsLookups,
  domain: string,
): Promise<{ readonly address: string } | { readonly why: string }> {
  const where = dns.server?.text ?? 'the DNS server';
  for (const family of [4, 6] as const) {
    const outcome = await dns.addresses(domain, family);
    if (outcome.kind === 'records' && outcome.records[0] !== undefined) {
      return { address: outcome.records[0] };
    }
    if (outcome.kind === 'failed') {
      return { why: `${where} gave no answer for ${domain} (${outcome.reason})` };
    }
    if (outcome.kind === 'nxdomain') return { why: `${where} says ${domain} does not exist` };
  }
  return { why: `${where} has no address for ${domain}` };
}

export async function checkCertificateViaDns(
  request: CertificateViaDnsRequest,
): Promise<CertificateReport> {
  const { resolver, dnsTimeoutMs, ...certificate } = request;
  if (resolver === undefined || resolver.trim() === '') return checkCertificate(certificate);
  const domain = normaliseHostName(request.domain);
  const dns = createDnsLookups({
    server: parseDnsServer(resolver),
    timeoutMs: dnsTimeoutMs ?? DEFAULT_DNS_TIMEOUT_MS,
  });
  const found = await addressOf(dns, domain);
  if ('address' in found) return checkCertificate({ ...certificate, host: found.address });
  return {
    domain,
    host: domain,
    port: request.port ?? DEFAULT_TLS_PORT,
    status: 'unreachable',
    findings: [
      {
        code: 'certificate-unreachable',
        severity: 'error',
        message: `The site could not be reached: ${found.why}. Run the DNS check to see what is missing.`,
        details: { reason: 'unreachable' },
      },
    ],
    checkedAt: new Date((request.now ?? Date.now)()).toISOString(),
  };
}
