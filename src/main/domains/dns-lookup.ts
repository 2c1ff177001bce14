// DNS lookups through node:dns with a hard deadline each. Node's resolver
// (c-ares) stretches its own timeout across retries and servers, so every
// query gets its own Resolver (cancelling one cancels only that query) and a
// timer that gives up on it. An answer of "no such records" is data, not an
// error; only a failure to get an answer is a failure.

import type { CaaRecord, SoaRecord } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { ResolverFailureReason } from '../../shared/domains.ts';
import { DomainInputError } from './domain-name.ts';

export type LookupOutcome<T> =
  | { readonly kind: 'records'; readonly records: readonly T[] }
  /** The name exists but holds no records of this type (NOERROR, empty answer). */
  | { readonly kind: 'nodata' }
  /** NXDOMAIN: the name does not exist. */
  | { readonly kind: 'nxdomain' }
  | { readonly kind: 'failed'; readonly reason: ResolverFailureReason; readonly code: string };

export interface DnsServer {
  readonly host: string;
  readonly port: number;
  /** As setServers takes it: 127.0.0.1:5353 or [::1]:5353. */
  readonly text: string;
}

/** Parses HOST:PORT, [v6]:PORT, or a bare IP (port 53). Node's resolver takes IP addresses only. */
export function parseDnsServer(input: string): DnsServer {
  const text = input.trim();
  let host: string;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1]!;
    portText = bracketed[2];
  } else if (isIP(text) !== 0) {
    host = text;
  } else {
    const colon = text.lastIndexOf(':');
    host = colon === -1 ? text : text.slice(0, colon);
    portText = colon === -1 ? undefined : text.slice(colon + 1);
  }
  const family = isIP(host);
  if (family === 0)
    throw new DomainInputError(
      `The DNS server "${input}" must be an IP address with an optional port, e.g. 1.1.1.1 or 127.0.0.1:5353.`,
    );
  const port = portText === undefined ? 53 : Number(portText);
  if (!/^\d+$/.test(portText ?? '53') || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new DomainInputError(
      `The DNS server "${input}" has an invalid port; use a number from 1 to 65535.`,
    );
  }
  return { host, port, text: family === 6 ? `[${host}]:${port}` : `${host}:${port}` };
}

const FAILURE_BY_CODE: Readonly<Record<string, ResolverFailureReason>> = {
  ETIMEOUT: 'timeout',
  ECANCELLED: 'timeout', // only our deadline cancels
  ESERVFAIL: 'servfail',
  EREFUSED: 'refused',
  ECONNREFUSED: 'unreachable',
  EBADRESP: 'bad-response',
  EFORMERR: 'bad-response',
  EBADNAME: 'bad-response',
};

function classify<T>(error: unknown): LookupOutcome<T> {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENODATA') return { kind: 'nodata' };
  if (code === 'ENOTFOUND') return { kind: 'nxdomain' };
  const text = typeof code === 'string' ? code : 'EUNKNOWN';
  return { kind: 'failed', reason: FAILURE_BY_CODE[text] ?? 'other', code: text };
}

export interface DnsLookups {
  /** The configured server, or undefined for the system's resolvers. */
  readonly server: DnsServer | undefined;
  addresses(name: string, family: 4 | 6): Promise<LookupOutcome<string>>;
  cname(name: string): Promise<LookupOutcome<string>>;
  caa(name: string): Promise<LookupOutcome<CaaRecord>>;
  soa(name: string): Promise<LookupOutcome<SoaRecord>>;
  /** The server to send raw queries to: the configured one, else the system's first. */
  rawServer(): DnsServer | undefined;
}

export function createDnsLookups(options: {
  readonly server?: DnsServer | undefined;
  readonly timeoutMs: number;
}): DnsLookups {
  const { server, timeoutMs } = options;

  async function lookup<T>(query: (resolver: Resolver) => Promise<T[]>): Promise<LookupOutcome<T>> {
    const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    if (server) resolver.setServers([server.text]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<LookupOutcome<T>>((resolve) => {
      timer = setTimeout(() => {
        resolver.cancel();
        resolve({ kind: 'failed', reason: 'timeout', code: 'ETIMEOUT' });
      }, timeoutMs);
    });
    const answer = query(resolver).then(
      (records): LookupOutcome<T> =>
        records.length > 0 ? { kind: 'records', records } : { kind: 'nodata' },
      (error: unknown) => classify<T>(error),
    );
    try {
      return await Promise.race([answer, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    server,
    addresses: (name, family) =>
      lookup((r) => (family === 4 ? r.resolve4(name) : r.resolve6(name))),
    cname: (name) => lookup((r) => r.resolveCname(name)),
    caa: (name) => lookup((r) => r.resolveCaa(name)),
    soa: (name) => lookup(async (r) => [await r.resolveSoa(name)]),
    rawServer: () => {
      if (server) return server;
      const first = new Resolver().getServers()[0];
      if (first === undefined) return undefined;
      try {
        return parseDnsServer(first);
      } catch {
        return undefined;
      }
    },
  };
}
