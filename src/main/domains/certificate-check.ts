// The certificate check: connects to the live domain over TLS (with SNI) and
// reports what certificate it shows, whether it covers the domain, whether
// it is trusted and in date. Verification is not enforced on the connection
// (rejectUnauthorized: false) so that a bad certificate can be described;
// Node's verdict is read from `authorized` / `authorizationError`.

import type { X509Certificate } from 'node:crypto';
import { connect, type PeerCertificate } from 'node:tls';
import type {
  CertificateDetails,
  CertificateFinding,
  CertificateName,
  CertificateReport,
  CertificateStatus,
} from '../../shared/domains.ts';
import { DomainInputError, normaliseHostName, validTimeout } from './domain-name.ts';

export const DEFAULT_TLS_PORT = 443;
export const DEFAULT_TLS_TIMEOUT_MS = 10_000;
export const DEFAULT_EXPIRING_SOON_DAYS = 14;
const DAY_MS = 86_400_000;
const REVERIFY =
  'If the domain was verified less than 30 minutes ago, the platform may still be issuing the certificate: wait a little. Otherwise confirm the domain still verifies (run the DNS check), check that CAA records do not block the certificate authority, and press Re-verify in the dashboard.';

export interface CertificateCheckOptions {
  /** The domain the certificate must cover; sent as SNI. */
  readonly domain: string;
  /** Where to connect; the domain itself by default. */
  readonly host?: string | undefined;
  readonly port?: number | undefined;
  readonly timeoutMs?: number | undefined;
  /** Trust anchors (PEM) replacing Node's bundled roots; for tests and private CAs. */
  readonly ca?: string | readonly string[] | undefined;
  /** Warn when fewer days than this are left. */
  readonly expiringSoonDays?: number | undefined;
  readonly now?: () => number;
}

/**
 * Whether the certificate's DNS names cover `domain` (ASCII), matched by
 * OpenSSL as browsers match (RFC 6125 section 6.4.3), without regard to case:
 * a wildcard is allowed only as the whole left-most label and stands for
 * exactly one label, so *.example.com covers shop.example.com but neither
 * example.com nor a.shop.example.com; a wildcard directly over a top-level
 * name (*.com) covers nothing. The subject's common name is not a DNS name.
 */
export function certificateCovers(certificate: X509Certificate, domain: string): boolean {
  const match = certificate.checkHost(domain, {
    subject: 'never',
    wildcards: true,
    partialWildcards: false,
    multiLabelWildcards: false,
  });
  return match !== undefined;
}

/** The DNS names in Node's subjectaltname text ("DNS:a.com, DNS:\"b,c\", IP Address:1.2.3.4"). */
export function dnsNamesOf(subjectAltName: string | undefined): string[] {
  if (!subjectAltName) return [];
  const names: string[] = [];
  for (const match of subjectAltName.matchAll(
    /([A-Za-z][A-Za-z ]*):("(?:[^"\\]|\\.)*"|[^,]*)(?:,\s*|$)/g,
  )) {
    const [, kind, raw = ''] = match;
    if (kind !== 'DNS') continue;
    names.push(raw.startsWith('"') ? (JSON.parse(raw) as string) : raw.trim());
  }
  return names;
}

type NameParts = Partial<Record<string, string | string[]>>;

function describeName(parts: NameParts | undefined): CertificateName {
  const first = (key: string): string | undefined => {
    const value = parts?.[key];
    return Array.isArray(value) ? value[0] : value;
  };
  const text = ['CN', 'O', 'OU', 'C']
    .flatMap((key) => {
      const value = parts?.[key];
      return value === undefined
        ? []
        : (Array.isArray(value) ? value : [value]).map((v) => `${key}=${v}`);
    })
    .join(', ');
  const commonName = first('CN');
  const organization = first('O');
  return {
    ...(commonName !== undefined ? { commonName } : {}),
    ...(organization !== undefined ? { organization } : {}),
    text,
  };
}

type Handshake =
  | {
      readonly kind: 'secure';
      readonly x509: X509Certificate | undefined;
      readonly peer: PeerCertificate;
      readonly authorized: boolean;
      readonly trustError: string | undefined;
    }
  | { readonly kind: 'failed'; readonly stage: 'connect' | 'handshake'; readonly code: string };

function handshake(options: {
  host: string;
  port: number;
  servername: string;
  timeoutMs: number;
  ca?: string | readonly string[] | undefined;
}): Promise<Handshake> {
  return new Promise((resolve) => {
    let connected = false;
    const socket = connect({
      host: options.host,
      port: options.port,
      servername: options.servername,
      rejectUnauthorized: false,
      ...(options.ca !== undefined
        ? { ca: typeof options.ca === 'string' ? options.ca : [...options.ca] }
        : {}),
    });
    const settle = (result: Handshake): void => {
      clearTimeout(timer);
      socket.removeAllListeners('secureConnect');
      resolve(result);
    };
    const timer = setTimeout(() => {
      socket.destroy();
      settle({ kind: 'failed', stage: connected ? 'handshake' : 'connect', code: 'ETIMEDOUT' });
    }, options.timeoutMs);
    socket.once('connect', () => (connected = true));
    // Read everything now: once the server closes the connection the peer certificate is gone.
    socket.once('secureConnect', () => {
      const error = socket.authorizationError as unknown as
        { code?: string } | string | null | undefined;
      // getPeerCertificate first: after getPeerX509Certificate, Node 24 returns it without subject and issuer.
      const peer = socket.getPeerCertificate();
      settle({
        kind: 'secure',
        x509: socket.getPeerX509Certificate(),
        peer,
        authorized: socket.authorized,
        trustError: socket.authorized
          ? undefined
          : String((typeof error === 'object' ? error?.code : error) ?? 'unknown'),
      });
      socket.destroy();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      socket.destroy();
      settle({
        kind: 'failed',
        stage: connected ? 'handshake' : 'connect',
        code: error.code ?? error.message,
      });
    });
  });
}

const CONNECT_WORDS: Readonly<Record<string, string>> = {
  ETIMEDOUT: 'no answer in time (timeout)',
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: 'the name was not found in DNS',
  EAI_AGAIN: 'the name could not be looked up',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
};

export async function checkCertificate(
  options: CertificateCheckOptions,
): Promise<CertificateReport> {
  const domain = normaliseHostName(options.domain);
  const host = options.host?.trim() || domain;
  const port = options.port ?? DEFAULT_TLS_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new DomainInputError(`The port "${port}" must be a number from 1 to 65535.`);
  const now = options.now ?? Date.now;
  const timeoutMs = validTimeout(options.timeoutMs ?? DEFAULT_TLS_TIMEOUT_MS);
  const where = port === DEFAULT_TLS_PORT && host === domain ? domain : `${host}:${port}`;
  const report = (
    status: CertificateStatus,
    findings: CertificateFinding[],
    certificate?: CertificateDetails,
  ): CertificateReport => ({
    domain,
    host,
    port,
    status,
    ...(certificate ? { certificate } : {}),
    findings,
    checkedAt: new Date(now()).toISOString(),
  });

  const result = await handshake({ host, port, servername: domain, timeoutMs, ca: options.ca });
  if (result.kind === 'failed' && result.stage === 'connect') {
    const words = CONNECT_WORDS[result.code] ?? `the connection failed (${result.code})`;
    return report('unreachable', [
      {
        code: 'certificate-unreachable',
        severity: 'error',
        message: `Could not connect to ${where}: ${words}. Check that ${domain} points to the platform (run the DNS check) and that this computer is online, then try again.`,
        details: { reason: result.code === 'ETIMEDOUT' ? 'timeout' : 'unreachable' },
      },
    ]);
  }
  if (result.kind === 'failed') {
    return report('missing', [
      {
        code: 'certificate-missing',
        severity: 'pending',
        message: `${where} answered but showed no certificate for ${domain} (${result.code === 'ETIMEDOUT' ? 'the secure connection was not completed in time' : `the secure connection failed: ${result.code}`}). ${REVERIFY}`,
      },
    ]);
  }

  const { x509, peer, authorized, trustError } = result;
  if (!x509) {
    return report('missing', [
      {
        code: 'certificate-missing',
        severity: 'pending',
        message: `${where} completed a secure connection without showing a certificate for ${domain}. ${REVERIFY}`,
      },
    ]);
  }

  const validFrom = x509.validFromDate;
  const validTo = x509.validToDate;
  const at = now();
  const dnsNames = dnsNamesOf(x509.subjectAltName);
  const certificate: CertificateDetails = {
    subject: describeName(peer.subject),
    issuer: describeName(peer.issuer),
    dnsNames,
    validFrom: validFrom.toISOString(),
    validTo: validTo.toISOString(),
    daysToExpiry: Math.floor((validTo.getTime() - at) / DAY_MS),
    expired: at > validTo.getTime(),
    notYetValid: at < validFrom.getTime(),
    coversDomain: certificateCovers(x509, domain),
    trusted: authorized,
    ...(trustError !== undefined ? { trustError } : {}),
    fingerprint256: x509.fingerprint256,
    serialNumber: x509.serialNumber,
  };
  const findings = certificateFindings(
    domain,
    certificate,
    options.expiringSoonDays ?? DEFAULT_EXPIRING_SOON_DAYS,
  );
  return report(
    findings.some((f) => f.severity === 'error') ? 'invalid' : 'valid',
    findings,
    certificate,
  );
}

function certificateFindings(
  domain: string,
  cert: CertificateDetails,
  expiringSoonDays: number,
): CertificateFinding[] {
  const findings: CertificateFinding[] = [];
  const date = (iso: string): string => iso.slice(0, 10);
  const issuer = cert.issuer.organization ?? cert.issuer.commonName ?? cert.issuer.text;
  if (!cert.coversDomain) {
    findings.push({
      code: 'certificate-name-mismatch',
      severity: 'error',
      message: `The certificate shown covers ${cert.dnsNames.length > 0 ? list(cert.dnsNames) : 'no domain names'}, not ${domain}, so browsers will warn visitors. ${REVERIFY}`,
      details: { found: cert.dnsNames, expected: [domain] },
    });
  }
  if (cert.expired) {
    findings.push({
      code: 'certificate-expired',
      severity: 'error',
      message: `The certificate expired on ${date(cert.validTo)} (${-cert.daysToExpiry} day${cert.daysToExpiry === -1 ? '' : 's'} ago), so browsers will warn visitors. The platform renews certificates by itself: press Re-verify in the dashboard, and check that CAA records do not block the certificate authority.`,
    });
  } else if (cert.notYetValid) {
    findings.push({
      code: 'certificate-not-yet-valid',
      severity: 'error',
      message: `The certificate is valid only from ${date(cert.validFrom)}. Check that this computer’s date and time are right; if they are, press Re-verify in the dashboard.`,
    });
  }
  // Node's trust error when another finding above already explains it.
  const explained =
    (cert.trustError === 'ERR_TLS_CERT_ALTNAME_INVALID' && !cert.coversDomain) ||
    (cert.trustError === 'CERT_HAS_EXPIRED' && cert.expired) ||
    (cert.trustError === 'CERT_NOT_YET_VALID' && cert.notYetValid);
  if (!cert.trusted && !explained) {
    findings.push({
      code: 'certificate-untrusted',
      severity: 'error',
      message: `Browsers will not trust this certificate (issued by ${issuer}; ${cert.trustError ?? 'unknown reason'}). The platform’s own certificates come from a public authority; this one may come from another server or a network device in between. ${REVERIFY}`,
    });
  }
  if (findings.length === 0 && cert.daysToExpiry < expiringSoonDays) {
    findings.push({
      code: 'certificate-expiring-soon',
      severity: 'warning',
      message: `The certificate expires in ${cert.daysToExpiry} day${cert.daysToExpiry === 1 ? '' : 's'} (${date(cert.validTo)}). The platform normally renews well before this, so renewal may be failing: check that the domain still verifies and that CAA records do not block the certificate authority, then press Re-verify.`,
    });
  }
  if (findings.every((f) => f.severity !== 'error')) {
    findings.unshift({
      code: 'certificate-ok',
      severity: 'ok',
      message: `${domain} has a trusted certificate from ${issuer}, valid until ${date(cert.validTo)} (${cert.daysToExpiry} days left).`,
    });
  }
  return findings;
}

const list = (values: readonly string[]): string => values.join(', ');
