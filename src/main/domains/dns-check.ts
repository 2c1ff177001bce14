// The local DNS check of the custom-domain assistant: what the platform's
// Verify will see, diagnosed in advance with stable codes and plain advice.
//
// How a leftover A/AAAA record is told from addresses reached through the
// CNAME: a resolver asked for A at a name with a CNAME answers with the
// CNAME chain's addresses, and when the zone also (wrongly) holds an A at
// that name, Node's resolver returns that address too, whatever order the
// records arrive in, or only that address when the server answers per type.
// So the check asks for the CNAME, and for the addresses at the name and at
// the CNAME's value; addresses at the name that the CNAME's value does not
// have are records at the name itself. Without a CNAME every address at a
// subdomain is such a record. A leftover that equals one of the target's own
// addresses cannot be seen from outside (and sends visitors to the right
// place). An apex has no CNAME: its ALIAS/ANAME is seen flattened into A/AAAA,
// so its addresses must meet the target's, and the rest are leftovers.
//
// Lookups run in rounds, each lookup with its own deadline: round 1 holds all
// the independent ones in parallel; round 2, only when needed, the CNAME
// value's addresses or the NXDOMAIN's SOA. A silent server costs one deadline
// (up to three on the not-found path).

import type { CaaRecord } from 'node:dns';
import {
  domainStatus,
  type DnsFinding,
  type DomainCheckReport,
  type DomainCheckRequest,
  type FindingDetails,
  type ResolverFailureReason,
} from '../../shared/domains.ts';
import { caaSearchNames, evaluateCaa } from './caa.ts';
import {
  createDnsLookups,
  parseDnsServer,
  type DnsLookups,
  type LookupOutcome,
} from './dns-lookup.ts';
import {
  normaliseHostName,
  placeDomain,
  sameHostName,
  validTimeout,
  type PlacedDomain,
} from './domain-name.ts';
import { queryAuthoritySoa, RCODE_NXDOMAIN } from './negative-ttl.ts';

export const DEFAULT_CA_DOMAIN = 'letsencrypt.org';
export const DEFAULT_DNS_TIMEOUT_MS = 5000;
const PROPAGATION = 'DNS changes can take up to 48 hours to spread; most take a few minutes.';
const ALIAS_SUPPORT =
  'Not every DNS provider supports ALIAS or ANAME records; if yours does not, move the domain’s DNS to a provider that does, or use a subdomain such as www instead.';

export interface DomainCheckOptions extends DomainCheckRequest {
  readonly now?: () => number;
}

interface Failure {
  readonly lookup: string;
  readonly reason: ResolverFailureReason;
  readonly code: string;
}

/** Plain duration for a clerk: "45 seconds", "5 minutes", "2 hours". */
export function describeDuration(seconds: number): string {
  const unit = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds < 120) return unit(seconds, 'second');
  if (seconds < 7200) return unit(Math.round(seconds / 60), 'minute');
  return unit(Math.round(seconds / 3600), 'hour');
}

const list = (values: readonly string[]): string => values.join(', ');

function records<T>(outcome: LookupOutcome<T>): readonly T[] {
  return outcome.kind === 'records' ? outcome.records : [];
}

/**
 * Runs every lookup the diagnosis needs (independent ones in parallel, each
 * with its own deadline) and returns the findings and overall status.
 * Throws DomainInputError, before any lookup, when the domain, target,
 * resolver or CA domain is not valid.
 */
export async function checkDomainDns(options: DomainCheckOptions): Promise<DomainCheckReport> {
  const place = placeDomain(options.domain);
  const target = normaliseHostName(options.target, 'The target');
  const caDomain = normaliseHostName(
    options.caDomain ?? DEFAULT_CA_DOMAIN,
    'The certificate authority domain',
  );
  const server =
    options.resolver === undefined || options.resolver.trim() === ''
      ? undefined
      : parseDnsServer(options.resolver);
  const timeoutMs = validTimeout(options.timeoutMs ?? DEFAULT_DNS_TIMEOUT_MS);
  const now = options.now ?? Date.now;
  const dns = createDnsLookups({ server, timeoutMs });
  const { domain } = place;

  const failures: Failure[] = [];
  const usable = <T>(outcome: LookupOutcome<T>, lookup: string): boolean => {
    if (outcome.kind !== 'failed') return true;
    failures.push({ lookup, reason: outcome.reason, code: outcome.code });
    return false;
  };

  // Round 1: everything that does not depend on another answer.
  const caaNames = caaSearchNames(domain);
  const [cname, nameA, nameAaaa, targetA, targetAaaa, caa] = await Promise.all([
    dns.cname(domain),
    dns.addresses(domain, 4),
    dns.addresses(domain, 6),
    dns.addresses(target, 4),
    dns.addresses(target, 6),
    Promise.all(caaNames.map((name) => dns.caa(name))),
  ]);

  const findings: DnsFinding[] = [];
  const cnameUsable = usable(cname, `CNAME ${domain}`);
  const nameAUsable = usable(nameA, `A ${domain}`);
  const nameAaaaUsable = usable(nameAaaa, `AAAA ${domain}`);
  const targetAUsable = usable(targetA, `A ${target}`);
  const targetAaaaUsable = usable(targetAaaa, `AAAA ${target}`);

  const notFound =
    cname.kind === 'nxdomain' && nameA.kind !== 'records' && nameAaaa.kind !== 'records';
  const targetMissing = targetA.kind === 'nxdomain' && targetAaaa.kind === 'nxdomain';
  if (targetMissing) {
    findings.push({
      code: 'target-not-found',
      severity: 'error',
      message: `The platform target ${target} does not exist in DNS, so nothing can point to it. Copy the target again from the dashboard (project settings, Domains): it may have been mistyped.`,
      details: { found: [], expected: [target] },
    });
  }

  if (notFound) {
    findings.push(await notFoundFinding(dns, place, target, timeoutMs));
  } else if (place.kind === 'subdomain') {
    if (cnameUsable) {
      const value = cname.kind === 'records' ? cname.records[0] : undefined;
      findings.push(cnameFinding(place, target, value));
      // Round 2: the addresses the CNAME's value leads to, to tell them from records at the name.
      let chain: readonly [LookupOutcome<string>, LookupOutcome<string>] | undefined;
      if (value !== undefined) {
        chain = sameHostName(value, target)
          ? [targetA, targetAaaa]
          : await Promise.all([dns.addresses(value, 4), dns.addresses(value, 6)]);
        if (!sameHostName(value, target)) {
          usable(chain[0], `A ${value}`);
          usable(chain[1], `AAAA ${value}`);
        }
      }
      const families = [
        { family: 4 as const, name: nameA, ok: nameAUsable, via: chain?.[0] },
        { family: 6 as const, name: nameAaaa, ok: nameAaaaUsable, via: chain?.[1] },
      ];
      for (const { family, name, ok, via } of families) {
        if (!ok || (via !== undefined && via.kind === 'failed')) continue;
        const reached = new Set(via ? records(via) : []);
        const own = records(name).filter((address) => !reached.has(address));
        if (own.length > 0)
          findings.push(conflictFinding(place, target, family, own, value !== undefined));
      }
    }
  } else if (nameAUsable && nameAaaaUsable && targetAUsable && targetAaaaUsable && !targetMissing) {
    findings.push(
      ...apexFindings(
        place,
        target,
        records(nameA),
        records(nameAaaa),
        records(targetA),
        records(targetAaaa),
      ),
    );
  }

  findings.push(...caaFindings(place, caDomain, caaNames, caa, usable));
  findings.push(...resolverErrorFindings(failures, server?.text));

  return {
    domain,
    input: options.domain,
    kind: place.kind,
    registrableDomain: place.registrableDomain,
    target,
    resolver: server?.text ?? 'system',
    caDomain,
    status: domainStatus(findings),
    findings,
    checkedAt: new Date(now()).toISOString(),
  };
}

function recordAdvice(place: PlacedDomain, target: string): string {
  return place.kind === 'apex'
    ? `create an ALIAS or ANAME record for ${place.domain} with the value ${target}. ${ALIAS_SUPPORT}`
    : `create a CNAME record for "${place.subdomain}" with the value ${target} (TTL 3600).`;
}

function cnameFinding(place: PlacedDomain, target: string, value: string | undefined): DnsFinding {
  if (value === undefined) {
    return {
      code: 'cname-missing',
      severity: 'pending',
      message: `${place.domain} has no CNAME record yet. At your DNS provider, ${recordAdvice(place, target)} If you have just created it, wait and check again: ${PROPAGATION}`,
      details: { found: [], expected: [target] },
    };
  }
  const found = value.replace(/\.$/, '');
  if (sameHostName(found, target)) {
    return {
      code: 'cname-ok',
      severity: 'ok',
      message: `${place.domain} points to ${target}, as it should.`,
      details: { found: [found], expected: [target] },
    };
  }
  return {
    code: 'cname-mismatch',
    severity: 'error',
    message: `${place.domain} points to ${found}, but it must point to ${target}. At your DNS provider, change the CNAME record for "${place.subdomain}" to ${target}.`,
    details: { found: [found], expected: [target] },
  };
}

function conflictFinding(
  place: PlacedDomain,
  target: string,
  family: 4 | 6,
  own: readonly string[],
  hasCname: boolean,
): DnsFinding {
  const type = family === 4 ? 'A' : 'AAAA';
  const code = family === 4 ? 'conflicting-a-record' : 'conflicting-aaaa-record';
  const plural = own.length === 1 ? `an ${type} record` : `${type} records`;
  const message =
    place.kind === 'apex'
      ? `${place.domain} also has ${plural} (${list(own)}) that are not the platform’s addresses, so some visitors and the certificate authority may reach the wrong server. At your DNS provider, delete ${own.length === 1 ? 'that record' : 'those records'} and keep only the ALIAS/ANAME record to ${target}.`
      : `${place.domain} has ${plural} (${list(own)}) at the same name. Such a record blocks the CNAME, so verification fails. At your DNS provider, delete the ${type} record${own.length === 1 ? '' : 's'} for "${place.subdomain}"${hasCname ? '' : `, then create a CNAME record for "${place.subdomain}" with the value ${target}`}.`;
  return { code, severity: 'error', message, details: { found: own } };
}

function apexFindings(
  place: PlacedDomain,
  target: string,
  a: readonly string[],
  aaaa: readonly string[],
  targetA: readonly string[],
  targetAaaa: readonly string[],
): DnsFinding[] {
  const found = [...a, ...aaaa];
  const expected = [...targetA, ...targetAaaa];
  if (found.length === 0) {
    return [
      {
        code: 'apex-alias-missing',
        severity: 'pending',
        message: `${place.domain} has no address yet. A root domain cannot have a CNAME record: at your DNS provider, ${recordAdvice(place, target)} If you have just created it, wait and check again: ${PROPAGATION}`,
        details: { found, expected },
      },
    ];
  }
  const foreignA = a.filter((address) => !targetA.includes(address));
  const foreignAaaa = aaaa.filter((address) => !targetAaaa.includes(address));
  if (foreignA.length === a.length && foreignAaaa.length === aaaa.length) {
    return [
      {
        code: 'apex-alias-mismatch',
        severity: 'error',
        message: `${place.domain} points to ${list(found)}, which ${found.length === 1 ? 'is not one' : 'are none'} of the platform’s addresses (${list(expected)}). A root domain cannot have a CNAME record: at your DNS provider, replace its A/AAAA records with an ALIAS or ANAME record to ${target}. ${ALIAS_SUPPORT}`,
        details: { found, expected },
      },
    ];
  }
  const result: DnsFinding[] = [
    {
      code: 'apex-alias-ok',
      severity: 'ok',
      message: `${place.domain} reaches the platform: its addresses match those of ${target}, as an ALIAS or ANAME record gives.`,
      details: { found, expected },
    },
  ];
  if (foreignA.length > 0) result.push(conflictFinding(place, target, 4, foreignA, true));
  if (foreignAaaa.length > 0) result.push(conflictFinding(place, target, 6, foreignAaaa, true));
  return result;
}

async function notFoundFinding(
  dns: DnsLookups,
  place: PlacedDomain,
  target: string,
  timeoutMs: number,
): Promise<DnsFinding> {
  const negative = await negativeTtl(dns, place, timeoutMs);
  const wait =
    negative === undefined
      ? ''
      : ` This DNS server may keep answering “does not exist” for up to ${describeDuration(negative.negativeTtlSeconds)}, so check again after that.`;
  // An SOA from above the registrable domain (the TLD's) means the domain itself is unknown to DNS.
  const zone = negative?.soaZone;
  const domainUnknown =
    zone !== undefined &&
    zone !== place.registrableDomain &&
    !zone.endsWith(`.${place.registrableDomain}`);
  const advice = domainUnknown
    ? `${place.registrableDomain} itself is unknown to DNS: check that it is registered, spelled correctly, and that its nameservers are set at the registrar.`
    : place.kind === 'apex'
      ? `If the record is not there yet, ${recordAdvice(place, target)} If it is, check that ${place.domain} is registered and spelled correctly.`
      : `If the record is not there yet, ${recordAdvice(place, target)}`;
  return {
    code: 'not-found',
    severity: 'pending',
    message: `${place.domain} does not exist in DNS yet. If you have just added the record, wait: ${PROPAGATION}${wait} ${advice}`,
    details: { expected: [target], ...negative },
  };
}

type NegativeTtl = Required<
  Pick<FindingDetails, 'negativeTtlSeconds' | 'negativeTtlSource' | 'soaZone'>
>;

/**
 * The negative-caching time for the NXDOMAIN: exactly, from the SOA in the
 * authority section of a raw query's answer (min of its TTL and MINIMUM, RFC
 * 2308); failing that, the MINIMUM of the registrable domain's SOA, an upper
 * bound (Node's resolveSoa does not give the SOA record's own TTL).
 */
async function negativeTtl(
  dns: DnsLookups,
  place: PlacedDomain,
  timeoutMs: number,
): Promise<NegativeTtl | undefined> {
  const server = dns.rawServer();
  if (server) {
    try {
      const answer = await queryAuthoritySoa(server, place.domain, timeoutMs);
      if (answer.rcode === RCODE_NXDOMAIN && answer.soa) {
        return {
          negativeTtlSeconds: Math.min(answer.soa.ttl, answer.soa.minimum),
          negativeTtlSource: 'authority-soa',
          soaZone: answer.soa.zone.toLowerCase(),
        };
      }
    } catch {
      // fall through to the zone's SOA
    }
  }
  const soa = await dns.soa(place.registrableDomain);
  const record = soa.kind === 'records' ? soa.records[0] : undefined;
  return record
    ? {
        negativeTtlSeconds: record.minttl,
        negativeTtlSource: 'zone-soa-minimum',
        soaZone: place.registrableDomain,
      }
    : undefined;
}

function caaFindings(
  place: PlacedDomain,
  caDomain: string,
  names: readonly string[],
  outcomes: readonly LookupOutcome<CaaRecord>[],
  usable: (outcome: LookupOutcome<CaaRecord>, lookup: string) => boolean,
): DnsFinding[] {
  for (const [i, outcome] of outcomes.entries()) {
    const name = names[i]!;
    // A failed lookup nearer the name hides whether a CAA set exists there: no verdict.
    if (!usable(outcome, `CAA ${name}`)) return [];
    if (outcome.kind !== 'records') continue;
    const verdict = evaluateCaa(outcome.records, caDomain);
    const where = name === place.domain ? name : `${name} (which applies to ${place.domain})`;
    const details = { name, caDomain };
    switch (verdict.kind) {
      case 'allowed':
        return [
          {
            code: 'caa-ok',
            severity: 'ok',
            message: `The CAA records at ${where} allow ${caDomain} to issue the certificate.`,
            details: { ...details, found: verdict.issuers },
          },
        ];
      case 'unrestricted':
        return [
          {
            code: 'caa-ok',
            severity: 'ok',
            message: `The CAA records at ${where} do not limit certificates for ${place.domain}${verdict.wildcardIssuers.length > 0 ? ' (their issuewild entries apply only to wildcard certificates)' : ''}, so ${caDomain} can issue the certificate.`,
            details: { ...details, found: [] },
          },
        ];
      case 'not-listed': {
        const allowed = verdict.issuers.filter((issuer) => issuer !== '');
        const who =
          allowed.length > 0 ? `only ${list(allowed)}` : 'no certificate authority at all';
        return [
          {
            code: 'caa-blocks-ca',
            severity: 'error',
            message: `The CAA records at ${where} allow ${who} to issue certificates, so ${caDomain}, which issues the platform’s certificates, cannot. At your DNS provider, add a CAA record at ${name}: 0 issue "${caDomain}" (or remove the CAA records), then press Re-verify.`,
            // An empty issuer (issue ";") allows no CA; shown as written.
            details: {
              ...details,
              found: verdict.issuers.map((issuer) => issuer || ';'),
              expected: [caDomain],
            },
          },
        ];
      }
      case 'critical-unknown':
        return [
          {
            code: 'caa-blocks-ca',
            severity: 'error',
            message: `The CAA records at ${where} include a critical “${list(verdict.tags)}” entry that certificate authorities do not understand, so none will issue a certificate. At your DNS provider, remove that CAA record or clear its critical flag.`,
            details: { ...details, found: verdict.tags, expected: [caDomain] },
          },
        ];
    }
  }
  return [
    {
      code: 'caa-ok',
      severity: 'ok',
      message: `No CAA records limit which certificate authority may issue for ${place.domain}, so ${caDomain} can issue the certificate.`,
      details: { caDomain, found: [] },
    },
  ];
}

const REASON_WORDS: Readonly<Record<ResolverFailureReason, (server: string) => string>> = {
  timeout: (server) => `${server} did not answer in time (timeout)`,
  servfail: (server) => `${server} reported a server failure (SERVFAIL)`,
  refused: (server) => `${server} refused to answer (REFUSED)`,
  unreachable: (server) => `${server} could not be reached (connection refused)`,
  'bad-response': (server) => `${server} sent an answer that could not be read`,
  other: (server) => `${server} failed`,
};

const REASON_ADVICE: Readonly<Record<ResolverFailureReason, string>> = {
  timeout: 'Check the internet connection and try again, or choose another DNS server.',
  servfail:
    'This often means the domain’s DNS provider is not answering properly (or its DNSSEC is broken). Try again later; if it lasts, contact the DNS provider.',
  refused: 'It may not serve this computer. Choose another DNS server.',
  unreachable: 'Check the DNS server address, or choose another DNS server.',
  'bad-response': 'Try again, or choose another DNS server.',
  other: 'Try again, or choose another DNS server.',
};

/** One finding per kind of failure, listing the lookups it hit. */
function resolverErrorFindings(
  failures: readonly Failure[],
  server: string | undefined,
): DnsFinding[] {
  const byReason = Map.groupBy(failures, (f) => f.reason);
  return [...byReason].map(([reason, group]) => {
    const codes = [...new Set(group.map((f) => f.code))];
    const who = server === undefined ? 'Your DNS server' : `The DNS server ${server}`;
    return {
      code: 'resolver-error' as const,
      severity: 'error' as const,
      message: `${REASON_WORDS[reason](who)} for: ${list(group.map((f) => f.lookup))}. ${reason === 'other' ? `(${list(codes)}) ` : ''}${REASON_ADVICE[reason]} Nothing can be concluded about these lookups.`,
      details: { reason, lookups: group.map((f) => f.lookup) },
    };
  });
}
