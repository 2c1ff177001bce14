import { describe, expect, it } from 'vitest';
import dnsPacket from 'dns-packet';
import {
  encodeQuery,
  MalformedMessage,
  queryAuthoritySoa,
  readAuthoritySoa,
} from '../../../src/main/domains/negative-ttl.ts';
import { parseDnsServer } from '../../../src/main/domains/dns-lookup.ts';
import { startDnsTestServer } from '../../../tools/loopback/dns-test-server.ts';

const soa = (name: string, ttl: number, minimum: number) =>
  ({
    name,
    type: 'SOA',
    ttl,
    class: 'IN',
    data: {
      mname: `ns1.${name}`,
      rname: `hostmaster.${name}`,
      serial: 1,
      refresh: 2,
      retry: 3,
      expire: 4,
      minimum,
    },
  }) as const;

describe('raw query for the negative-caching SOA', () => {
  it('encodes a standard recursive query that a DNS library reads back', () => {
    const decoded = dnsPacket.decode(encodeQuery(0x1234, 'xn--bcher-kva.example.com'));
    expect(decoded).toMatchObject({
      id: 0x1234,
      type: 'query',
      flag_rd: true,
      questions: [{ name: 'xn--bcher-kva.example.com', type: 'A', class: 'IN' }],
    });
  });

  it('reads the rcode and the authority SOA (with name compression) of the reply to its id only', () => {
    const reply = dnsPacket.encode({
      type: 'response',
      id: 7,
      flags: 3, // NXDOMAIN
      questions: [{ name: 'nothere.example.com', type: 'A' }],
      authorities: [soa('example.com', 900, 300)],
    });
    expect(readAuthoritySoa(reply, 7)).toEqual({
      rcode: 3,
      soa: { zone: 'example.com', ttl: 900, minimum: 300 },
    });
    expect(readAuthoritySoa(reply, 8)).toBeUndefined();
    expect(readAuthoritySoa(encodeQuery(7, 'x.com'), 7)).toBeUndefined(); // a query, not a reply
  });

  it('skips answer records before the authority section', () => {
    const reply = dnsPacket.encode({
      type: 'response',
      id: 9,
      flags: 3,
      questions: [{ name: 'a.example.com', type: 'A' }],
      answers: [{ name: 'a.example.com', type: 'CNAME', ttl: 60, data: 'gone.example.net' }],
      authorities: [soa('example.net', 30, 600)],
    });
    expect(readAuthoritySoa(reply, 9)).toEqual({
      rcode: 3,
      soa: { zone: 'example.net', ttl: 30, minimum: 600 },
    });
  });

  it('throws MalformedMessage on a truncated reply', () => {
    const reply = dnsPacket.encode({
      type: 'response',
      id: 5,
      flags: 3,
      questions: [{ name: 'a.example.com', type: 'A' }],
      authorities: [soa('example.com', 1, 2)],
    });
    expect(() => readAuthoritySoa(reply.subarray(0, reply.length - 6), 5)).toThrow(
      MalformedMessage,
    );
  });

  it('throws MalformedMessage on a name whose compression pointer points at itself', () => {
    const reply = dnsPacket.encode({
      type: 'response',
      id: 6,
      flags: 3,
      authorities: [soa('example.com', 1, 2)],
    });
    // No question: the SOA's owner name starts right after the 12-byte header.
    reply.writeUInt16BE(0xc000 | 12, 12);
    expect(() => readAuthoritySoa(reply, 6)).toThrow(MalformedMessage);
  });

  it('asks a real server over UDP and gives up at its deadline', async () => {
    const server = await startDnsTestServer({
      zones: [{ name: 'example.com', soaTtl: 120, minimum: 900 }],
      silent: ['quiet.example.com'],
    });
    try {
      const address = parseDnsServer(server.address);
      expect(await queryAuthoritySoa(address, 'nothere.example.com', 1000)).toEqual({
        rcode: 3,
        soa: { zone: 'example.com', ttl: 120, minimum: 900 },
      });
      const started = performance.now();
      await expect(queryAuthoritySoa(address, 'quiet.example.com', 200)).rejects.toThrow('timeout');
      // At its deadline, not never: seconds of slack for a slow machine.
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      await server.close();
    }
  });
});
