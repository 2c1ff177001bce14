// A scripted DNS server on loopback (UDP, dns-packet encoding) that plays the
// part of a recursive resolver: it chases CNAMEs, answers NXDOMAIN and NODATA
// with the zone's SOA in the authority section, and can be told to answer
// SERVFAIL or REFUSED, or not to answer at all. Every question is recorded.

import { createSocket, type RemoteInfo } from 'node:dgram';
import dnsPacket, { type Answer, type Packet, type Question } from 'dns-packet';

export type TestRecord =
  | {
      readonly name: string;
      readonly type: 'A' | 'AAAA' | 'CNAME';
      readonly data: string;
      readonly ttl?: number;
    }
  | {
      readonly name: string;
      readonly type: 'CAA';
      readonly data: { readonly tag: string; readonly value: string; readonly flags?: number };
      readonly ttl?: number;
    };

export interface TestZone {
  readonly name: string;
  /** The TTL of the SOA record itself. */
  readonly soaTtl: number;
  /** The SOA MINIMUM field (RFC 2308: the negative-caching TTL). */
  readonly minimum: number;
}

export interface DnsTestServerOptions {
  readonly records?: readonly TestRecord[];
  readonly zones?: readonly TestZone[];
  /** Names (any type) answered with SERVFAIL. */
  readonly servfail?: readonly string[];
  /** Names (any type) answered with REFUSED. */
  readonly refused?: readonly string[];
  /** Names never answered; `true` for every name. */
  readonly silent?: readonly string[] | true;
  /**
   * Exact answer sections for "name TYPE" (e.g. "shop.example.com A"),
   * replacing the resolution: to play a misconfigured zone served in a way
   * the chasing rules below would not produce.
   */
  readonly answers?: Readonly<Record<string, readonly TestRecord[]>>;
  /** Leave the SOA out of negative answers (as a non-conforming resolver might). */
  readonly omitNegativeSoa?: boolean;
}

export interface AskedQuestion {
  readonly name: string;
  readonly type: string;
}

export interface DnsTestServer {
  /** HOST:PORT, for `--resolver` and the check's `resolver` option. */
  readonly address: string;
  readonly host: string;
  readonly port: number;
  readonly asked: AskedQuestion[];
  close(): Promise<void>;
}

const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

const canonical = (name: string): string => name.toLowerCase().replace(/\.$/, '');

function toAnswer(record: TestRecord): Answer {
  const base = { name: record.name, ttl: record.ttl ?? 3600, class: 'IN' as const };
  if (record.type === 'CAA') {
    // dns-packet's types only list the three RFC 8659 tags; the wire carries any tag.
    return {
      ...base,
      type: 'CAA',
      data: {
        flags: record.data.flags ?? 0,
        tag: record.data.tag as 'issue',
        value: record.data.value,
      },
    };
  }
  return { ...base, type: record.type, data: record.data };
}

export async function startDnsTestServer(options: DnsTestServerOptions): Promise<DnsTestServer> {
  const records = options.records ?? [];
  const zones = options.zones ?? [];
  const asked: AskedQuestion[] = [];
  const has = (list: readonly string[] | undefined, name: string): boolean =>
    list?.some((n) => canonical(n) === name) ?? false;

  const at = (name: string): TestRecord[] => records.filter((r) => canonical(r.name) === name);
  // A name exists if it owns records or is an ancestor of a name that does (an empty non-terminal).
  const exists = (name: string): boolean =>
    zones.some((z) => canonical(z.name) === name) ||
    records.some((r) => canonical(r.name) === name || canonical(r.name).endsWith(`.${name}`));
  const zoneOf = (name: string): TestZone | undefined =>
    zones
      .filter((z) => name === canonical(z.name) || name.endsWith(`.${canonical(z.name)}`))
      .sort((a, b) => b.name.length - a.name.length)[0];
  const soa = (zone: TestZone): Answer => ({
    name: zone.name,
    type: 'SOA',
    ttl: zone.soaTtl,
    class: 'IN',
    data: {
      mname: `ns1.${zone.name}`,
      rname: `hostmaster.${zone.name}`,
      serial: 2024010101,
      refresh: 7200,
      retry: 900,
      expire: 1209600,
      minimum: zone.minimum,
    },
  });

  // A recursive resolver's view: an exact-type match at a name wins (so a
  // zone holding both a CNAME and an A at one name answers an A query with
  // that A, as a per-type record store does); otherwise a CNAME is followed.
  function resolve(question: Question): {
    rcode: number;
    answers: Answer[];
    authorities: Answer[];
  } {
    const qname = canonical(question.name);
    const override = options.answers?.[`${qname} ${question.type}`];
    if (override) return { rcode: RCODE.NOERROR, answers: override.map(toAnswer), authorities: [] };
    const apexOf = zones.find((z) => canonical(z.name) === qname);
    if (question.type === 'SOA' && apexOf)
      return { rcode: RCODE.NOERROR, answers: [soa(apexOf)], authorities: [] };
    const negative = (zone: TestZone | undefined): Answer[] =>
      zone && !options.omitNegativeSoa ? [soa(zone)] : [];
    const answers: Answer[] = [];
    let name = qname;
    for (let hops = 0; hops < 8; hops++) {
      if (!exists(name)) {
        const zone = zoneOf(name);
        return { rcode: RCODE.NXDOMAIN, answers, authorities: negative(zone) };
      }
      const here = at(name);
      const matching = here.filter((r) => r.type === question.type);
      if (matching.length > 0)
        return {
          rcode: RCODE.NOERROR,
          answers: [...answers, ...matching.map(toAnswer)],
          authorities: [],
        };
      const alias = here.find((r) => r.type === 'CNAME');
      if (!alias || question.type === 'CNAME') break;
      answers.push(toAnswer(alias));
      name = canonical(alias.data as string);
    }
    const zone = zoneOf(name);
    return {
      rcode: RCODE.NOERROR,
      answers,
      authorities: answers.length === 0 ? negative(zone) : [],
    };
  }

  const socket = createSocket('udp4');
  socket.on('message', (message: Buffer, peer: RemoteInfo) => {
    let query: Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = canonical(question.name);
    asked.push({ name, type: question.type });
    if (options.silent === true || has(options.silent, name)) return;
    const flags = dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE;
    const reply = (rcode: number, answers: Answer[] = [], authorities: Answer[] = []): void => {
      const packet = dnsPacket.encode({
        type: 'response',
        id: query.id ?? 0,
        flags: flags | rcode,
        questions: [question],
        answers,
        authorities,
      });
      socket.send(packet, peer.port, peer.address);
    };
    if (has(options.servfail, name)) return reply(RCODE.SERVFAIL);
    if (has(options.refused, name)) return reply(RCODE.REFUSED);
    const result = resolve(question);
    reply(result.rcode, result.answers, result.authorities);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
