// How long a resolver keeps answering "does not exist" (RFC 2308 negative
// caching). Node's resolver does not expose the authority section of an
// NXDOMAIN answer, where the SOA that sets this time travels, so this module
// sends one raw query over UDP and reads that SOA itself: the negative TTL is
// min(SOA TTL, SOA MINIMUM), and a caching resolver has already counted the
// SOA TTL down, so the result is the time left, not the zone's maximum.

import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { isIP } from 'node:net';
import type { DnsServer } from './dns-lookup.ts';

export const RCODE_NXDOMAIN = 3;
const TYPE_A = 1;
const TYPE_SOA = 6;
const CLASS_IN = 1;

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
export function encodeQuery(id: number, name: string, type = TYPE_A): Buffer {
  const labels = name.split('.').filter((label) => label !== '');
  const question = Buffer.alloc(labels.reduce((n, l) => n + 1 + l.length, 0) + 1 + 4);
  let offset = 0;
  for (const label of labels) {
    offset = question.writeUInt8(label.length, offset);
    offset += question.write(label, offset, 'ascii');
  }
  offset = question.writeUInt8(0, offset);
  offset = question.writeUInt16BE(type, offset);
  question.writeUInt16BE(CLASS_IN, offset);
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x0100, 2); // RD
  header.writeUInt16BE(1, 4); // QDCOUNT
  return Buffer.concat([header, question]);
}

export class MalformedMessage extends Error {}

/** Reads a possibly compressed name at `offset`; returns it and where the record continues. */
function readName(message: Buffer, start: number): { name: string; next: number } {
  const labels: string[] = [];
  let offset = start;
  let next: number | undefined;
  for (let jumps = 0; jumps < 64; jumps++) {
    if (offset >= message.length) throw new MalformedMessage('name runs past the end');
    const length = message.readUInt8(offset);
    if ((length & 0xc0) === 0xc0) {
      if (offset + 1 >= message.length) throw new MalformedMessage('pointer runs past the end');
      next ??= offset + 2;
      offset = message.readUInt16BE(offset) & 0x3fff;
      continue;
    }
    if (length === 0) return { name: labels.join('.'), next: next ?? offset + 1 };
    if (length > 63 || offset + 1 + length > message.length)
      throw new MalformedMessage('bad label');
    labels.push(message.toString('ascii', offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  throw new MalformedMessage('too many compression pointers');
}

/**
 * Reads the rcode and the first SOA in the authority section of a reply to
 * query `id`. Returns undefined when the message is not that reply; throws
 * MalformedMessage when it is but cannot be read.
 */
export function readAuthoritySoa(message: Buffer, id: number): RawAnswer | undefined {
  if (message.length < 12 || message.readUInt16BE(0) !== id) return undefined;
  try {
    const flags = message.readUInt16BE(2);
    if ((flags & 0x8000) === 0) return undefined; // not a response
    const rcode = flags & 0x000f;
    const counts = [
      message.readUInt16BE(4),
      message.readUInt16BE(6),
      message.readUInt16BE(8),
    ] as const;
    let offset = 12;
    for (let i = 0; i < counts[0]; i++) offset = readName(message, offset).next + 4;
    const readRecord = (): {
      owner: string;
      type: number;
      ttl: number;
      rdata: number;
      end: number;
    } => {
      const { name: owner, next } = readName(message, offset);
      if (next + 10 > message.length) throw new MalformedMessage('record header runs past the end');
      const type = message.readUInt16BE(next);
      const ttl = message.readUInt32BE(next + 4);
      const length = message.readUInt16BE(next + 8);
      const end = next + 10 + length;
      if (end > message.length) throw new MalformedMessage('record data runs past the end');
      return { owner, type, ttl, rdata: next + 10, end };
    };
    for (let i = 0; i < counts[1]; i++) offset = readRecord().end;
    for (let i = 0; i < counts[2]; i++) {
      const record = readRecord();
      offset = record.end;
      if (record.type !== TYPE_SOA) continue;
      const afterRname = readName(message, readName(message, record.rdata).next).next;
      if (afterRname + 20 > record.end) throw new MalformedMessage('SOA too short');
      return {
        rcode,
        soa: {
          zone: record.owner,
          ttl: record.ttl,
          minimum: message.readUInt32BE(afterRname + 16),
        },
      };
    }
    return { rcode };
  } catch (error) {
    if (error instanceof RangeError) throw new MalformedMessage(error.message);
    throw error;
  }
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
