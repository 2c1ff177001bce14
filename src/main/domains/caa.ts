// CAA (RFC 8659): which certificate authorities a domain's owner allows.
// The relevant record set for a name is the first non-empty CAA answer met
// while climbing from the name towards the root (the TLD included, the root
// not); each answer already follows CNAMEs, because the resolver chases them.

import type { CaaRecord } from 'node:dns';

/** The names to query, nearest first: shop.example.com, example.com, com. */
export function caaSearchNames(domain: string): string[] {
  const labels = domain.split('.');
  return labels.map((_, i) => labels.slice(i).join('.'));
}

/** The issuer-domain-name of an issue/issuewild value ("letsencrypt.org; validationmethods=dns-01"). */
export function issuerDomain(value: string): string {
  return (value.split(';')[0] ?? '').trim().toLowerCase().replace(/\.$/, '');
}

// Tags a CA acts on (RFC 8659 section 4, RFC 8657) or may safely ignore; an
// unknown tag flagged critical forbids issuance (RFC 8659 section 4.1).
const KNOWN_TAGS = new Set([
  'issue',
  'issuewild',
  'iodef',
  'contactemail',
  'contactphone',
  'issuemail',
  'issuevmc',
]);

export type CaaVerdict =
  /** No issue tag, so certificates for the (non-wildcard) name are not restricted. */
  | { readonly kind: 'unrestricted'; readonly wildcardIssuers: readonly string[] }
  | { readonly kind: 'allowed'; readonly issuers: readonly string[] }
  | { readonly kind: 'not-listed'; readonly issuers: readonly string[] }
  | { readonly kind: 'critical-unknown'; readonly tags: readonly string[] };

/**
 * Whether `caDomain` may issue a certificate for the exact (non-wildcard)
 * name, given its relevant CAA set. Only `issue` tags count: RFC 8659 says
 * `issuewild` is ignored for a name that is not a wildcard, so a set holding
 * only `issuewild` restricts wildcard certificates and nothing else.
 */
export function evaluateCaa(records: readonly CaaRecord[], caDomain: string): CaaVerdict {
  const ca = issuerDomain(caDomain);
  const issuers: string[] = [];
  const wildcardIssuers: string[] = [];
  const criticalUnknown: string[] = [];
  for (const record of records) {
    for (const [key, value] of Object.entries(record)) {
      const tag = key.toLowerCase();
      if (tag === 'critical' || tag === 'type' || typeof value !== 'string') continue;
      if (tag === 'issue') issuers.push(issuerDomain(value));
      else if (tag === 'issuewild') wildcardIssuers.push(issuerDomain(value));
      else if (!KNOWN_TAGS.has(tag) && (record.critical & 0x80) !== 0) criticalUnknown.push(tag);
    }
  }
  if (criticalUnknown.length > 0) return { kind: 'critical-unknown', tags: criticalUnknown };
  if (issuers.length === 0) return { kind: 'unrestricted', wildcardIssuers };
  return issuers.includes(ca) ? { kind: 'allowed', issuers } : { kind: 'not-listed', issuers };
}
