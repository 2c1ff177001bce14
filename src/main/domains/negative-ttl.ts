// How long a resolver keeps answering "does not exist" (RFC 2308 negative
// caching). Node's resolver does not expose the authority section of an
// NXDOMAIN answer, where the SOA that sets this time travels, so this module
// sends one raw query over UDP (dns-packet encodes and decodes it) and reads
// that SOA itself: the negative TTL is min(SOA TTL, SOA MINIMUM), and a
// caching resolver has already counted the SOA TTL down, so the result is the
// time left, not the zone's maximum.

import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { isIP } from 'node:net';
import dnsPacket from 'dns-packet';
import type { DnsServer } from './dns-lookup.ts';

export const RCODE_NXDOMAIN = 3;
const HEADER_BYTES = 12;

export interface AuthoritySoa {
  /** The owner of the SOA: the zone that says the name does not exist. */
  readonly zone: string;
  readonly ttl: number;
  readonly minimum: number;
}

export interface RawAnswer {
  readonly rcode: number;
  readonly soa?: AuthoritySoa;
}

/** A standard query (recursion desired) for `name` (ASCII) of type A. */
export function encodeQuery(id: number, name: string): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ name, type: 'A', class: 'IN' }],
  });
}

export class MalformedMessage extends Error {}

/**
 * Reads the rcode and the first SOA in the authority section of a reply to
 * query `id`. Returns undefined when the message is not that reply; throws
 * MalformedMessage when it is but cannot be read.
 */
export function readAuthoritySoa(message: Buffer, id: number): RawAnswer | undefined {
  if (message.length < HEADER_BYTES || message.readUInt16BE(0) !== id) return undefined;
  let reply: dnsPacket.DecodedPacket;
  try {
    reply = dnsPacket.decode(message);
  } catch (error) {
    throw new MalformedMessage(error instanceof Error ? error.message : String(error));
  }
  if (reply.type !== 'response') return undefined;
  const rcode = (reply.flags ?? 0) & 0x000f;
  const soa = reply.authorities?.find((record) => record.type === 'SOA');
  if (!soa) return { rcode };
  // Both are always on the wire; dns-packet's types leave them optional for encoding.
  return { rcode, soa: { zone: soa.name, ttl: soa.ttl ?? 0, minimum: soa.data.minimum ?? 0 } };
}

/** Sends one A query for `name` to `server` and reads the answer's authority SOA. */
export function queryAuthoritySoa(
  server: DnsServer,
  name: string,
  timeoutMs: number,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(isIP(server.host) === 6 ? 'udp6' : 'udp4');
    const id = randomInt(0x10000);
    let done = false;
    const finish = (settle: () => void): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.close();
      settle();
    };
    const timer = setTimeout(() => finish(() => reject(new Error('timeout'))), timeoutMs);
    socket.on('error', (error) => finish(() => reject(error)));
    socket.on('message', (message, peer) => {
      if (peer.port !== server.port) return;
      let answer: RawAnswer | undefined;
      try {
        answer = readAuthoritySoa(message, id);
      } catch (error) {
        finish(() => reject(error));
        return;
      }
      if (answer) finish(() => resolve(answer));
    });
    socket.send(encodeQuery(id, name), server.port, server.host);
  });
}
