// The scripted loopback DNS server of the main-process tests
// (tools/loopback/dns-test-server.ts), for the assistant's renderer
// tests, and the zone they share. That module needs Node's types, which the
// web tsconfig does not load, so it is imported at run time by path (as
// test-app.tsx does) and typed here with the parts these tests use.

export type DnsRecord =
  | { readonly name: string; readonly type: 'A' | 'AAAA' | 'CNAME'; readonly data: string }
  | {
      readonly name: string;
      readonly type: 'CAA';
      readonly data: { readonly tag: string; readonly value: string; readonly flags?: number };
    };

export interface DnsZone {
  readonly name: string;
  readonly soaTtl: number;
  readonly minimum: number;
}

export interface DnsServer {
  /** HOST:PORT, for the assistant's DNS server setting. */
  readonly address: string;
  readonly asked: readonly { readonly name: string; readonly type: string }[];
  close(): Promise<void>;
}

interface DnsServerModule {
  startDnsTestServer(options: {
    readonly records?: readonly DnsRecord[];
    readonly zones?: readonly DnsZone[];
  }): Promise<DnsServer>;
}

// Relative to this file; held in a variable so the web tsconfig does not follow it.
const DNS_TEST_SERVER = '../../../../tools/loopback/dns-test-server.ts';

// Every name is under .invalid (RFC 6761), so nothing here can reach a real
// DNS server, not even the certificate check, which uses the system's.
export const TARGET = 'edge.petstore-platform.invalid';
export const PLATFORM_A = ['203.0.113.10', '203.0.113.11'];
export const ZONE = 'pets-example.invalid';
/** Where local.${ZONE} points: loopback, so a certificate check there fails at once. */
export const LOCAL_SITE = '127.0.0.1';
/** The zone's negative-caching time: min(SOA TTL 900, MINIMUM 300) = 300 s. */
export const NEGATIVE_TTL_WORDS = '5 minutes';

const cname = (name: string, data: string): DnsRecord => ({ name, type: 'CNAME', data });
const a = (name: string, data: string): DnsRecord => ({ name, type: 'A', data });

export const RECORDS: readonly DnsRecord[] = [
  ...PLATFORM_A.map((ip) => a(TARGET, ip)),
  cname(`shop.${ZONE}`, TARGET),
  cname(`xn--bcher-kva.${ZONE}`, TARGET),
  // A leftover A record next to the CNAME: blocks it.
  cname(`leftover.${ZONE}`, TARGET),
  a(`leftover.${ZONE}`, '192.0.2.99'),
  // An apex whose ALIAS is seen flattened into the target's addresses.
  ...PLATFORM_A.map((ip) => a('flat-pets.invalid', ip)),
  // CAA at the registrable domain allowing another authority only.
  { name: 'caa-pets.invalid', type: 'CAA', data: { tag: 'issue', value: 'digicert.com' } },
  cname('shop.caa-pets.invalid', TARGET),
  // A site this computer can connect to only through this DNS server's answer (nothing listens on its 443).
  a(`local.${ZONE}`, LOCAL_SITE),
];

export const ZONES: readonly DnsZone[] = [
  { name: ZONE, soaTtl: 900, minimum: 300 },
  { name: 'petstore-platform.invalid', soaTtl: 3600, minimum: 600 },
  { name: 'flat-pets.invalid', soaTtl: 3600, minimum: 3600 },
  { name: 'caa-pets.invalid', soaTtl: 3600, minimum: 3600 },
];

/** The server answers from `records` as they are when asked: a test can add one later. */
export async function startDnsServer(records: readonly DnsRecord[] = RECORDS): Promise<DnsServer> {
  const module = (await import(/* @vite-ignore */ DNS_TEST_SERVER)) as DnsServerModule;
  return module.startDnsTestServer({ records, zones: ZONES });
}
