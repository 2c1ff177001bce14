// store-admin domain check | domain cert | domain watch: the custom-domain
// assistant's checks from the command line, and the re-checks the app runs by
// itself (domain watch: on the app's schedule, until the domain is ready).
// Human-readable by default, --json for scripts.
// Exit codes: 0 ready / valid; 1 the check could not be completed (resolver
// errors; no TLS connection); 2 bad usage; 5 pending (not found or missing:
// DNS may still be spreading; certificate not shown yet); 6 misconfigured
// (DNS must be changed; certificate invalid). 3 and 4 belong to `orders`.

import { parseCommandLine, UsageError } from './args.ts';
import { readFile } from 'node:fs/promises';
import type {
  CertificateReport,
  CertificateStatus,
  DomainCheckReport,
  DomainStatus,
  Finding,
} from '../shared/domains.ts';
import {
  checkCertificate,
  DEFAULT_TLS_PORT,
  DEFAULT_TLS_TIMEOUT_MS,
} from '../main/domains/certificate-check.ts';
import {
  checkDomainDns,
  DEFAULT_CA_DOMAIN,
  DEFAULT_DNS_TIMEOUT_MS,
} from '../main/domains/dns-check.ts';
import { DomainInputError } from '../main/domains/domain-name.ts';
import type { CliIo } from './run.ts';
import { realTiming } from '../main/store-api/clock.ts';
import { nextCheckAt } from '../main/domains/recheck-schedule.ts';

export const DOMAIN_EXIT = { ok: 0, failed: 1, usage: 2, pending: 5, misconfigured: 6 } as const;

const EXIT_BY_STATUS: Readonly<Record<DomainStatus, number>> = {
  ready: DOMAIN_EXIT.ok,
  error: DOMAIN_EXIT.failed,
  pending: DOMAIN_EXIT.pending,
  misconfigured: DOMAIN_EXIT.misconfigured,
};

const EXIT_BY_CERTIFICATE: Readonly<Record<CertificateStatus, number>> = {
  valid: DOMAIN_EXIT.ok,
  unreachable: DOMAIN_EXIT.failed,
  missing: DOMAIN_EXIT.pending,
  invalid: DOMAIN_EXIT.misconfigured,
};

export const DOMAIN_USAGE = `Custom domains:
  domain check <domain> --target <cname-target>
                         Check the domain's DNS as Verify will see it
      --resolver HOST:PORT  Ask this DNS server (default: the system's)
      --ca DOMAIN           Certificate authority for the CAA check
                            (default: ${DEFAULT_CA_DOMAIN})
      --timeout MS          Deadline for each lookup (default: ${DEFAULT_DNS_TIMEOUT_MS})
  domain cert <domain>   Show the certificate the live domain serves
      --host H              Connect to H instead of the domain
      --port N              Port (default: ${DEFAULT_TLS_PORT})
      --timeout MS          Deadline for the connection (default: ${DEFAULT_TLS_TIMEOUT_MS})
      --ca-file FILE        Trust only the CA certificate(s) in this PEM file
  domain watch <domain> --target <cname-target>
                         Check the DNS again by itself until it is ready, as the
                         app does: at once, every 30 seconds at first, slowing
                         to every 10 minutes, for up to 48 hours. Prints each
                         change of status (--json: one line per change).
                         Takes --resolver, --ca and --timeout as check does.
  All take --json. Exit codes: 0 ready/valid, 1 could not check,
  2 bad usage, 5 pending (not there yet), 6 misconfigured/invalid.`;

type Parsed =
  | { readonly command: 'help' }
  | {
      readonly command: 'check' | 'watch';
      readonly domain: string;
      readonly target: string;
      readonly resolver?: string;
      readonly caDomain?: string;
      readonly timeoutMs?: number;
      readonly json: boolean;
    }
  | {
      readonly command: 'cert';
      readonly domain: string;
      readonly host?: string;
      readonly port?: number;
      readonly timeoutMs?: number;
      readonly caFile?: string;
      readonly json: boolean;
    };

export { isDomainCommand } from './args.ts';

function positiveInteger(
  value: string | undefined,
  option: string,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max)
    throw new UsageError(`${option} must be a whole number from 1 to ${max}`);
  return n;
}

function parse(argv: readonly string[]): Parsed {
  const { values, positionals } = parseCommandLine(argv, {
    target: { type: 'string' },
    resolver: { type: 'string' },
    ca: { type: 'string' },
    timeout: { type: 'string' },
    host: { type: 'string' },
    port: { type: 'string' },
    'ca-file': { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const [group, action, ...rest] = positionals;
  if (group !== 'domain') throw new UsageError(`not a domain command: ${positionals.join(' ')}`);
  if (values.help || action === undefined) return { command: 'help' };
  if (action !== 'check' && action !== 'cert' && action !== 'watch')
    throw new UsageError(`unknown command: domain ${action}`);
  if (rest.length !== 1) throw new UsageError(`domain ${action} needs exactly one domain`);
  const domain = rest[0]!;
  const json = values.json ?? false;
  const timeoutMs = positiveInteger(values.timeout, '--timeout', 600_000);
  const only = (options: readonly (keyof typeof values)[], command: string): void => {
    const wrong = options.find((option) => values[option] !== undefined);
    if (wrong !== undefined)
      throw new UsageError(`--${wrong} is not an option of domain ${command}`);
  };
  if (action === 'check' || action === 'watch') {
    only(['host', 'port', 'ca-file'], action);
    if (values.target === undefined)
      throw new UsageError(
        `domain ${action} needs --target <cname-target>, the value shown in the dashboard`,
      );
    return {
      command: action,
      domain,
      target: values.target,
      json,
      ...(values.resolver !== undefined ? { resolver: values.resolver } : {}),
      ...(values.ca !== undefined ? { caDomain: values.ca } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    };
  }
  only(['target', 'resolver', 'ca'], 'cert');
  const port = positiveInteger(values.port, '--port', 65_535);
  return {
    command: 'cert',
    domain,
    json,
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(values['ca-file'] !== undefined ? { caFile: values['ca-file'] } : {}),
  };
}

const MARK: Readonly<Record<Finding['severity'], string>> = {
  ok: 'ok',
  warning: 'warning',
  error: 'error',
  pending: 'pending',
};

function findingLines(findings: readonly Finding<string>[]): string {
  return findings.map((f) => `  ${MARK[f.severity].padEnd(8)} ${f.code}: ${f.message}`).join('\n');
}

function checkText(report: DomainCheckReport): string {
  const resolver = report.resolver === 'system' ? 'the system DNS servers' : report.resolver;
  const head = `${report.domain} (${report.kind}) → ${report.target}, asked ${resolver}`;
  return `Status: ${report.status}\n${head}\n\n${findingLines(report.findings)}\n`;
}

function certText(report: CertificateReport): string {
  const lines = [`Status: ${report.status}`, `${report.domain} at ${report.host}:${report.port}`];
  const c = report.certificate;
  if (c) {
    lines.push(
      `  Issuer:     ${c.issuer.text}`,
      `  Subject:    ${c.subject.text}`,
      `  Names:      ${c.dnsNames.join(', ') || '(none)'} (${c.coversDomain ? 'covers' : 'does not cover'} ${report.domain})`,
      `  Valid:      ${c.validFrom} to ${c.validTo} (${c.expired ? `expired ${-c.daysToExpiry} days ago` : c.notYetValid ? 'not valid yet' : `${c.daysToExpiry} days left`})`,
      `  Trusted:    ${c.trusted ? 'yes' : `no (${c.trustError ?? 'unknown reason'})`}`,
    );
  }
  return `${lines.join('\n')}\n\n${findingLines(report.findings)}\n`;
}

/** HH:MM:SS in local time. */
function clock(epochMs: number): string {
  const d = new Date(epochMs);
  return [d.getHours(), d.getMinutes(), d.getSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
}

const WATCH_WORDS: Readonly<Record<DomainStatus, string>> = {
  ready: 'ready: DNS is set up as the platform expects. Next: press Verify in the dashboard.',
  pending: 'waiting for DNS: the record cannot be seen yet.',
  misconfigured: 'misconfigured: DNS must be changed (see below).',
  error: 'could not check: some lookups got no answer.',
};

/**
 * `domain watch`: the DNS check again and again on the app's schedule
 * (src/main/domains/recheck-schedule.ts), printing each change of status,
 * until the domain is ready or 48 hours have passed.
 */
async function watchDomain(
  parsed: Extract<Parsed, { command: 'check' | 'watch' }>,
  io: CliIo,
): Promise<number> {
  const timing = io.timing ?? realTiming;
  const since = timing.now();
  let checkedAt: number | undefined;
  let last: DomainCheckReport | undefined;
  if (!parsed.json) {
    io.stdout(
      `Watching ${parsed.domain}: checking now, then every 30 seconds at first, slowing to every 10 minutes, for up to 48 hours. Ctrl+C stops.\n`,
    );
  }
  for (;;) {
    const at = nextCheckAt({ since, ...(checkedAt !== undefined ? { checkedAt } : {}) });
    if (at === undefined) {
      const status = last?.status ?? 'pending';
      if (parsed.json) {
        io.stdout(
          `${JSON.stringify({ ok: false, event: 'gave-up', at: new Date(timing.now()).toISOString(), status })}\n`,
        );
      } else {
        io.stdout(
          `${clock(timing.now())}  stopped after 48 hours (DNS changes take at most that long): still ${WATCH_WORDS[status]}\n`,
        );
      }
      return EXIT_BY_STATUS[status];
    }
    const wait = at - timing.now();
    if (wait > 0) await timing.sleep(wait);
    const report = await checkDomainDns({
      domain: parsed.domain,
      target: parsed.target,
      resolver: parsed.resolver,
      caDomain: parsed.caDomain,
      timeoutMs: parsed.timeoutMs,
      now: timing.now,
    });
    checkedAt = timing.now();
    if (report.status !== last?.status) {
      if (parsed.json) {
        io.stdout(
          `${JSON.stringify({ ok: report.status === 'ready', event: 'status', ...report })}\n`,
        );
      } else {
        const problems = report.findings.filter((f) => f.severity !== 'ok');
        io.stdout(
          `${clock(checkedAt)}  ${WATCH_WORDS[report.status]}\n${problems.length > 0 ? `${findingLines(problems)}\n` : ''}`,
        );
      }
    }
    last = report;
    if (report.status === 'ready') return DOMAIN_EXIT.ok;
  }
}

/** Runs `domain check` / `domain cert` / `domain watch` (argv includes the leading "domain"); returns the exit code. */
export async function runDomainCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`store-admin: ${error.message}. Try store-admin domain --help.\n`);
    return DOMAIN_EXIT.usage;
  }
  if (parsed.command === 'help') {
    io.stdout(`${DOMAIN_USAGE}\n`);
    return DOMAIN_EXIT.ok;
  }
  const now = io.timing?.now ?? Date.now;
  try {
    if (parsed.command === 'watch') return await watchDomain(parsed, io);
    if (parsed.command !== 'cert') {
      const report = await checkDomainDns({
        domain: parsed.domain,
        target: parsed.target,
        resolver: parsed.resolver,
        caDomain: parsed.caDomain,
        timeoutMs: parsed.timeoutMs,
        now,
      });
      io.stdout(
        parsed.json
          ? `${JSON.stringify({ ok: report.status === 'ready', ...report })}\n`
          : checkText(report),
      );
      return EXIT_BY_STATUS[report.status];
    }
    let ca: string | undefined;
    if (parsed.caFile !== undefined) {
      try {
        ca = await readFile(parsed.caFile, 'utf8');
      } catch (error) {
        io.stderr(
          `store-admin: --ca-file: cannot read ${parsed.caFile} (${(error as NodeJS.ErrnoException).code ?? 'error'}).\n`,
        );
        return DOMAIN_EXIT.usage;
      }
    }
    const report = await checkCertificate({
      domain: parsed.domain,
      host: parsed.host,
      port: parsed.port,
      timeoutMs: parsed.timeoutMs,
      ca,
      now,
    });
    io.stdout(
      parsed.json
        ? `${JSON.stringify({ ok: report.status === 'valid', ...report })}\n`
        : certText(report),
    );
    return EXIT_BY_CERTIFICATE[report.status];
  } catch (error) {
    if (!(error instanceof DomainInputError)) throw error;
    if (parsed.json)
      io.stdout(
        `${JSON.stringify({ ok: false, error: { kind: 'invalid-input', message: error.message } })}\n`,
      );
    else io.stderr(`store-admin: ${error.message}\n`);
    return DOMAIN_EXIT.usage;
  }
}
