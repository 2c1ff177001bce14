// What the custom-domain checks report, as plain data shared by the main
// process (which runs them), the CLI and the renderer (which shows them).
// Codes are stable: tests, scripts (--json) and the UI key on them.

export type FindingSeverity = 'ok' | 'warning' | 'error' | 'pending';

export type DnsFindingCode =
  | 'cname-ok' // the subdomain's CNAME names the platform target
  | 'cname-missing' // the subdomain has no CNAME (yet)
  | 'cname-mismatch' // the CNAME names something else
  | 'conflicting-a-record' // an A record at the name itself, which blocks the CNAME
  | 'conflicting-aaaa-record' // the same for AAAA
  | 'apex-alias-ok' // the apex's addresses include the target's (ALIAS/ANAME flattened)
  | 'apex-alias-mismatch' // the apex's addresses are none of the target's
  | 'apex-alias-missing' // the apex has no addresses at all (yet)
  | 'target-not-found' // the platform target entered does not exist in DNS
  | 'caa-ok' // no CAA records restrict the certificate authority
  | 'caa-blocks-ca' // CAA records keep the certificate authority from issuing
  | 'not-found' // NXDOMAIN: the name does not exist (yet)
  | 'resolver-error'; // timeout, SERVFAIL, REFUSED or another resolver failure

/** Why a DNS lookup gave no answer (as opposed to an answer saying "no records"). */
export type ResolverFailureReason =
  'timeout' | 'servfail' | 'refused' | 'unreachable' | 'bad-response' | 'other';

export interface FindingDetails {
  /** What DNS holds now (a CNAME value, addresses, CAA issuers). */
  readonly found?: readonly string[];
  /** What it should hold. */
  readonly expected?: readonly string[];
  /** For resolver-error. */
  readonly reason?: ResolverFailureReason;
  /** For resolver-error: the lookups that failed, e.g. "CNAME shop.example.com". */
  readonly lookups?: readonly string[];
  /** The name the finding is about, when it is not the domain itself (CAA found at a parent). */
  readonly name?: string;
  /** For caa-*: the certificate authority's domain checked against `issue` tags. */
  readonly caDomain?: string;
  /** For not-found: how long resolvers may keep answering "does not exist" (RFC 2308). */
  readonly negativeTtlSeconds?: number;
  /**
   * Where negativeTtlSeconds came from: the SOA in the NXDOMAIN answer's
   * authority section, min(SOA TTL, MINIMUM) (exact); or only the MINIMUM of
   * the registrable domain's SOA (an upper bound).
   */
  readonly negativeTtlSource?: 'authority-soa' | 'zone-soa-minimum';
  /** The zone whose SOA gave the negative TTL. */
  readonly soaZone?: string;
}

export interface Finding<Code extends string = DnsFindingCode> {
  readonly code: Code;
  readonly severity: FindingSeverity;
  /** Plain words for a store clerk, saying what to do. */
  readonly message: string;
  readonly details?: FindingDetails;
}

export type DnsFinding = Finding<DnsFindingCode>;

/**
 * The overall verdict. Precedence, highest first (see domainStatus):
 * misconfigured (something definite must be changed) > error (some lookups
 * failed, so nothing better can be said) > pending (missing or not found:
 * propagation may still be under way) > ready.
 */
export type DomainStatus = 'ready' | 'pending' | 'misconfigured' | 'error';

export type DomainKind = 'apex' | 'subdomain';

export interface DomainCheckRequest {
  /** The domain as typed: any case, a trailing dot, Unicode (IDN) are all fine. */
  readonly domain: string;
  /** The platform's CNAME target, as shown in the dashboard. */
  readonly target: string;
  /** A DNS server as HOST:PORT ([v6]:PORT); the system's resolvers when absent. */
  readonly resolver?: string | undefined;
  /** The certificate authority's CAA issuer domain; default letsencrypt.org. */
  readonly caDomain?: string | undefined;
  /** The deadline for each DNS lookup, in milliseconds; default 5000. */
  readonly timeoutMs?: number | undefined;
}

export interface DomainCheckReport {
  /** The domain in ASCII (punycode), lower-case, without a trailing dot. */
  readonly domain: string;
  /** The domain as it was typed. */
  readonly input: string;
  readonly kind: DomainKind;
  readonly registrableDomain: string;
  readonly target: string;
  /** HOST:PORT, or "system". */
  readonly resolver: string;
  readonly caDomain: string;
  readonly status: DomainStatus;
  readonly findings: readonly DnsFinding[];
  /** ISO 8601. */
  readonly checkedAt: string;
}

const MISCONFIGURED: ReadonlySet<DnsFindingCode> = new Set([
  'cname-mismatch',
  'conflicting-a-record',
  'conflicting-aaaa-record',
  'apex-alias-mismatch',
  'target-not-found',
  'caa-blocks-ca',
]);
const PENDING: ReadonlySet<DnsFindingCode> = new Set([
  'cname-missing',
  'apex-alias-missing',
  'not-found',
]);

/** The overall status from the findings, by the precedence documented on DomainStatus. */
export function domainStatus(findings: readonly DnsFinding[]): DomainStatus {
  if (findings.some((f) => MISCONFIGURED.has(f.code))) return 'misconfigured';
  if (findings.some((f) => f.code === 'resolver-error')) return 'error';
  if (findings.some((f) => PENDING.has(f.code))) return 'pending';
  return 'ready';
}

// ---- The certificate check ----

export type CertificateFindingCode =
  | 'certificate-ok'
  | 'certificate-missing' // the server completed no TLS handshake showing a certificate
  | 'certificate-unreachable' // no connection: timeout, refused, name not found
  | 'certificate-name-mismatch' // the certificate does not cover the domain
  | 'certificate-untrusted' // the chain does not lead to a trusted authority
  | 'certificate-expired'
  | 'certificate-not-yet-valid'
  | 'certificate-expiring-soon';

export type CertificateFinding = Finding<CertificateFindingCode>;

/**
 * valid: present, trusted, covering the domain and in date. invalid: present
 * but with a problem. missing: the server answered without a certificate.
 * unreachable: no TLS connection could be made.
 */
export type CertificateStatus = 'valid' | 'invalid' | 'missing' | 'unreachable';

export interface CertificateName {
  readonly commonName?: string;
  readonly organization?: string;
  /** One line, e.g. "CN=R11, O=Let's Encrypt, C=US". */
  readonly text: string;
}

export interface CertificateDetails {
  readonly subject: CertificateName;
  readonly issuer: CertificateName;
  /** The DNS names in subjectAltName, as the certificate spells them. */
  readonly dnsNames: readonly string[];
  /** ISO 8601. */
  readonly validFrom: string;
  readonly validTo: string;
  /** Whole days left until validTo; negative once expired. */
  readonly daysToExpiry: number;
  readonly expired: boolean;
  readonly notYetValid: boolean;
  /** Whether a dNSName covers the domain (RFC 6125: a wildcard stands for exactly one left-most label). */
  readonly coversDomain: boolean;
  /** Whether Node's TLS verification (chain and name) accepted it. */
  readonly trusted: boolean;
  /** OpenSSL's or Node's reason when not trusted, e.g. DEPTH_ZERO_SELF_SIGNED_CERT. */
  readonly trustError?: string;
  readonly fingerprint256: string;
  readonly serialNumber: string;
}

export interface CertificateReport {
  readonly domain: string;
  readonly host: string;
  readonly port: number;
  readonly status: CertificateStatus;
  readonly certificate?: CertificateDetails;
  readonly findings: readonly CertificateFinding[];
  /** ISO 8601. */
  readonly checkedAt: string;
}
