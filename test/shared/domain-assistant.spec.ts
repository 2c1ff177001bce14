// The DNS server rule the assistant's hint states (an IP address with an
// optional port, IPv6 in brackets), shared by the renderer's field and the
// settings schema main validates with.

import { describe, expect, it } from 'vitest';
import {
  checkDnsServer,
  domainSettingsSchema,
  domainWorkspaceSchema,
} from '../../src/shared/domain-assistant.ts';

const ACCEPTED = [
  '1.1.1.1',
  '127.0.0.1:5353',
  ' 8.8.8.8:53 ',
  '255.255.255.255:65535',
  '[::1]',
  '[::1]:5353',
  '[2606:4700:4700::1111]:53',
  '[fe80:0:0:0:202:b3ff:fe1e:8329]',
  '[::ffff:192.0.2.1]:53',
];

const REFUSED: readonly [string, RegExp][] = [
  ['', /Enter the DNS server’s IP address/],
  ['dns.google', /"dns\.google" is a name, not an IP address/],
  ['localhost:53', /"localhost" is a name/],
  ['1.1.1', /"1\.1\.1" is not an IP address/],
  ['256.1.1.1', /is not an IP address/],
  ['01.1.1.1', /is not an IP address/],
  ['1.1.1.1:0', /port must be a number from 1 to 65535/],
  ['1.1.1.1:65536', /port must be a number from 1 to 65535/],
  ['1.1.1.1:', /port must be a number/],
  ['1.1.1.1:53:53', /port must be a number/],
  ['1.1.1.1: 53', /port must be a number/],
  ['::1', /Write an IPv6 address in brackets, e.g. \[::1\]/],
  ['2606:4700::1111:53', /in brackets/],
  ['[::1]:x', /port must be a number/],
  ['[1.2.3.4]', /in brackets is not an IPv6 address/],
  ['[1::2::3]', /not an IPv6 address/],
  ['[1:2:3:4:5:6:7:8:9]', /not an IPv6 address/],
  ['[::1', /is not an IP address/],
  ['https://1.1.1.1', /is a name/],
];

describe('checkDnsServer', () => {
  it.each(ACCEPTED)('accepts %j', (text) => {
    expect(checkDnsServer(text)).toEqual({ ok: true, text: text.trim() });
    expect(domainSettingsSchema.safeParse({ resolver: text }).success).toBe(true);
  });

  it.each(REFUSED)('refuses %j in plain words, and so does the settings schema', (text, why) => {
    const check = checkDnsServer(text);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.message).toMatch(why);
    expect(domainSettingsSchema.safeParse({ resolver: text }).success).toBe(false);
  });
});

describe('saved settings read back', () => {
  it('drop a DNS server an older version saved that the rule refuses, and keep the rest', () => {
    const read = domainWorkspaceSchema.parse({
      settings: { target: 'edge.example.net', resolver: 'dns.google', caDomain: 'pki.goog' },
      progress: {},
    });
    expect(read.settings).toEqual({ target: 'edge.example.net', caDomain: 'pki.goog' });
    expect('resolver' in read.settings).toBe(false);
  });
});
