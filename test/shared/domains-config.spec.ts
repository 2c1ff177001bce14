// Host names as typed, apex vs subdomain by the public suffix list, and every
// rule of the multi-domain configuration.

import { describe, expect, it } from 'vitest';
import {
  domainsConfigJson,
  normaliseHostName,
  placeHostName,
  validateDomainsConfig,
  type ConfigProblem,
  type ConfigValidation,
  type DomainsConfigDraft,
} from '../../src/shared/domains-config.ts';

const redirect = (from: string, to: string, status = 301) => ({ from, to, status });
const problemsOf = (result: ConfigValidation): readonly ConfigProblem[] =>
  result.ok ? [] : result.problems;
const codes = (draft: DomainsConfigDraft): string[] =>
  problemsOf(validateDomainsConfig(draft)).map((problem) => problem.code);

describe('normaliseHostName', () => {
  it('lower-cases, strips one trailing dot and turns Unicode into punycode', () => {
    expect(normaliseHostName('Bücher.Example.COM.')).toEqual({
      ok: true,
      ascii: 'xn--bcher-kva.example.com',
      display: 'bücher.example.com',
    });
  });

  it('accepts punycode as typed and full-width dots as dots', () => {
    expect(normaliseHostName('XN--BCHER-KVA.example.com')).toMatchObject({
      ok: true,
      ascii: 'xn--bcher-kva.example.com',
    });
    expect(normaliseHostName('shop\u3002example\u3002com')).toMatchObject({
      ok: true,
      ascii: 'shop.example.com',
    });
  });

  it.each([
    ['', /is empty/],
    ['   ', /is empty/],
    ['https://shop.example.com', /looks like a web address/],
    ['shop.example.com/path', /looks like a web address/],
    ['192.0.2.1', /is an IP address/],
    ['[2001:db8::1]', /is an IP address/],
    ['shop.example.com:8080', /has a port number/],
    ['shop example.com', /spaces or signs/],
    ['shop_1.example.com', /may only hold letters, digits and hyphens/],
    ['-shop.example.com', /may only hold letters/],
    ['shop..example.com', /empty part between dots/],
    ['localhost', /at least two parts/],
    ['shop.example.123', /last part cannot be only digits/],
    [`${'a'.repeat(64)}.example.com`, /longer than 63 characters/],
    [`${'abcdefghi.'.repeat(26)}com`, /too long for a domain/],
  ])('rejects %j in plain words', (input, message) => {
    const result = normaliseHostName(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(message);
  });

  it('names the field in its message', () => {
    const result = normaliseHostName('', 'The target');
    expect(!result.ok && result.message).toBe(
      'The target is empty. Enter a name such as shop.example.com.',
    );
  });
});

describe('placeHostName (public suffix list)', () => {
  it('tells a subdomain from the apex, across multi-label suffixes', () => {
    expect(placeHostName('shop.example.co.uk')).toMatchObject({
      ok: true,
      place: {
        kind: 'subdomain',
        registrableDomain: 'example.co.uk',
        publicSuffix: 'co.uk',
        subdomain: 'shop',
      },
    });
    expect(placeHostName('example.co.uk')).toMatchObject({
      ok: true,
      place: { kind: 'apex', registrableDomain: 'example.co.uk', subdomain: '' },
    });
    expect(placeHostName('a.b.example.com')).toMatchObject({
      ok: true,
      place: { kind: 'subdomain', subdomain: 'a.b' },
    });
  });

  it('places an IDN by its punycode labels', () => {
    expect(placeHostName('Bücher.example.com')).toMatchObject({
      ok: true,
      place: { kind: 'subdomain', subdomain: 'xn--bcher-kva', display: 'bücher.example.com' },
    });
    expect(placeHostName('пример.рф')).toMatchObject({
      ok: true,
      place: { kind: 'apex', ascii: 'xn--e1afmkfd.xn--p1ai' },
    });
  });

  it('refuses a public suffix itself', () => {
    const result = placeHostName('co.uk');
    expect(!result.ok && result.message).toMatch(/is a public suffix/);
  });
});

describe('validateDomainsConfig', () => {
  it('accepts a primary with redirects to it, normalised to ASCII', () => {
    const result = validateDomainsConfig({
      primary: 'Shop.Example.com.',
      redirects: [
        redirect('www.example.com', 'shop.example.com'),
        redirect('bücher.example.com', 'SHOP.example.com'),
      ],
    });
    expect(result).toEqual({
      ok: true,
      config: {
        primary: 'shop.example.com',
        redirects: [
          { from: 'www.example.com', to: 'shop.example.com', status: 301 },
          { from: 'xn--bcher-kva.example.com', to: 'shop.example.com', status: 301 },
        ],
      },
    });
  });

  it('accepts no redirects at all', () => {
    expect(validateDomainsConfig({ primary: 'example.com', redirects: [] })).toEqual({
      ok: true,
      config: { primary: 'example.com', redirects: [] },
    });
  });

  it('accepts a redirect to a served domain that is not the primary', () => {
    expect(
      validateDomainsConfig({
        primary: 'example.com',
        redirects: [redirect('old.example.com', 'shop.example.com')],
      }).ok,
    ).toBe(true);
  });

  it('needs a valid primary', () => {
    const result = validateDomainsConfig({ primary: '', redirects: [] });
    expect(problemsOf(result)).toEqual([
      {
        code: 'invalid-host-name',
        field: { kind: 'primary' },
        message: 'The primary domain is empty. Enter a name such as shop.example.com.',
      },
    ]);
  });

  it('needs valid host names in from and to, tied to their fields', () => {
    const problems = problemsOf(
      validateDomainsConfig({
        primary: 'example.com',
        redirects: [redirect('https://www.example.com', 'co.uk')],
      }),
    );
    expect(problems.map((problem) => [problem.code, problem.field])).toEqual([
      ['invalid-host-name', { kind: 'redirect', index: 0, part: 'from' }],
      ['invalid-host-name', { kind: 'redirect', index: 0, part: 'to' }],
    ]);
    expect(problems[0]?.message).toMatch(
      /^Redirect 1: the domain to redirect .* looks like a web address/,
    );
    expect(problems[1]?.message).toMatch(/^Redirect 1: the destination "co.uk" is a public suffix/);
  });

  it('needs status 301', () => {
    const problems = problemsOf(
      validateDomainsConfig({
        primary: 'example.com',
        redirects: [redirect('www.example.com', 'example.com', 302)],
      }),
    );
    expect(problems).toEqual([
      {
        code: 'status-not-301',
        field: { kind: 'redirect', index: 0, part: 'status' },
        message:
          'Redirect 1: the status is 302, but the documented redirect status is 301 (moved permanently). Use 301.',
      },
    ]);
  });

  it('refuses a redirect to itself, however it is spelled', () => {
    const problems = problemsOf(
      validateDomainsConfig({
        primary: 'example.com',
        redirects: [redirect('bücher.example.com', 'XN--BCHER-KVA.example.com.')],
      }),
    );
    expect(problems.map((problem) => problem.code)).toEqual(['redirect-to-itself']);
    expect(problems[0]?.message).toBe(
      'Redirect 1: bücher.example.com redirects to itself, so visitors would never arrive. Send it to the primary domain or to another domain that is served.',
    );
  });

  it('refuses the same from twice', () => {
    const problems = problemsOf(
      validateDomainsConfig({
        primary: 'example.com',
        redirects: [
          redirect('www.example.com', 'example.com'),
          redirect('WWW.example.com', 'example.com'),
        ],
      }),
    );
    expect(problems).toEqual([
      {
        code: 'duplicate-from',
        field: { kind: 'redirect', index: 1, part: 'from' },
        message:
          'Redirect 2: www.example.com is already redirected by redirect 1. A domain can be redirected only once; remove one of them.',
      },
    ]);
  });

  it('refuses redirecting the primary away', () => {
    expect(
      codes({ primary: 'example.com', redirects: [redirect('example.com', 'shop.example.com')] }),
    ).toEqual(['primary-redirected']);
  });

  it('finds a loop and names its domains in order', () => {
    const problems = problemsOf(
      validateDomainsConfig({
        primary: 'example.com',
        redirects: [
          redirect('a.example.com', 'b.example.com'),
          redirect('b.example.com', 'a.example.com'),
        ],
      }),
    );
    expect(problems.map((problem) => problem.code)).toEqual(['redirect-loop', 'redirect-loop']);
    expect(problems[0]?.message).toBe(
      'Redirect 1: the redirects go round in a loop (a.example.com → b.example.com → a.example.com), so visitors would never arrive. Point one of them at the primary domain.',
    );
  });

  it('finds a longer loop that the redirect only leads into', () => {
    const problems = problemsOf(
      validateDomainsConfig({
        primary: 'example.com',
        redirects: [
          redirect('start.example.com', 'a.example.com'),
          redirect('a.example.com', 'b.example.com'),
          redirect('b.example.com', 'c.example.com'),
          redirect('c.example.com', 'a.example.com'),
        ],
      }),
    );
    expect(problems[0]?.message).toMatch(
      /loop \(a\.example\.com → b\.example\.com → c\.example\.com → a\.example\.com\)/,
    );
    expect(problems.every((problem) => problem.code === 'redirect-loop')).toBe(true);
  });

  it('needs every destination to be served: not itself redirected', () => {
    const problems = problemsOf(
      validateDomainsConfig({
        primary: 'example.com',
        redirects: [
          redirect('old.example.com', 'www.example.com'),
          redirect('www.example.com', 'example.com'),
        ],
      }),
    );
    expect(problems).toEqual([
      {
        code: 'redirect-to-redirected',
        field: { kind: 'redirect', index: 0, part: 'to' },
        message:
          'Redirect 1: www.example.com is itself redirected (to example.com), so it serves nothing. Redirect old.example.com straight to example.com, a domain that is served.',
      },
    ]);
  });

  it('names the end of a longer chain as the destination to use', () => {
    const problems = problemsOf(
      validateDomainsConfig({
        primary: 'example.com',
        redirects: [
          redirect('a.example.com', 'b.example.com'),
          redirect('b.example.com', 'c.example.com'),
          redirect('c.example.com', 'example.com'),
        ],
      }),
    );
    expect(problems.map((problem) => problem.code)).toEqual([
      'redirect-to-redirected',
      'redirect-to-redirected',
    ]);
    expect(problems[0]?.message).toMatch(/Redirect a\.example\.com straight to example\.com/);
  });

  it('refuses more redirects than can be saved', () => {
    const many = Array.from({ length: 101 }, (_, i) =>
      redirect(`d${i}.example.com`, 'example.com'),
    );
    expect(codes({ primary: 'example.com', redirects: many })).toEqual(['too-many-redirects']);
  });

  it('reports every problem at once', () => {
    expect(
      codes({
        primary: 'example.com',
        redirects: [
          redirect('x.example.com', 'x.example.com', 302),
          redirect('example.com', 'x.example.com'),
        ],
      }),
    ).toEqual([
      'status-not-301',
      'redirect-to-itself',
      'primary-redirected',
      // x.example.com only leads back to itself.
      'redirect-loop',
    ]);
  });
});

describe('domainsConfigJson', () => {
  it('pretty-prints the configuration under "domains"', () => {
    expect(
      domainsConfigJson({
        primary: 'example.com',
        redirects: [{ from: 'www.example.com', to: 'example.com', status: 301 }],
      }),
    ).toBe(`{
  "domains": {
    "primary": "example.com",
    "redirects": [
      {
        "from": "www.example.com",
        "to": "example.com",
        "status": 301
      }
    ]
  }
}`);
  });
});
