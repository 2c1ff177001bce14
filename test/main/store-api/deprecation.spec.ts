// The service's deprecation notices: the headers read property-based (both
// date forms in both headers, Link headers of any shape, garbage never
// throwing), the notices kept per endpoint and environment with their
// dismissals, and the whole path against the sandbox with --deprecate.

import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { realTiming } from '../../../src/main/store-api/clock.ts';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { DEPRECATED_SINCE, SANDBOX_CHANGELOG_URL } from '../../../src/main/sandbox/deprecations.ts';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';
import { DeprecationNotices } from '../../../src/main/store-api/deprecation-notices.ts';
import {
  parseHeaderDate,
  parseLinkHeader,
  readDeprecationHeaders,
  type DeprecationHeaders,
} from '../../../src/main/store-api/deprecation.ts';
import { deprecationSentence, type StoreEndpoint } from '../../../src/shared/deprecations.ts';

const RUNS = { seed: 20260913, numRuns: 300 } as const;
const NOW = Date.UTC(2026, 10, 22, 9, 0, 0);
const headers = (entries: Record<string, string>) => new Headers(entries);

/** Whole seconds from 1970 to the end of 9999: what both forms can carry. */
const moment = fc.integer({ min: 0, max: 253402300799 }).map((seconds) => seconds * 1000);
const imfFixdate = (ms: number) => new Date(ms).toUTCString();

describe('deprecation headers, property-based', () => {
  it('reads both date forms in both headers, to the second', () => {
    fc.assert(
      fc.property(moment, moment, fc.boolean(), fc.boolean(), (since, sunset, atForm, httpForm) => {
        const read = readDeprecationHeaders(
          headers({
            Deprecation: atForm ? `@${since / 1000}` : imfFixdate(since),
            Sunset: httpForm ? imfFixdate(sunset) : `@${sunset / 1000}`,
          }),
          NOW,
        );
        expect(read).toEqual({ deprecatedAt: since, sunsetAt: sunset });
      }),
      RUNS,
    );
  });

  it('finds the https link with rel="deprecation" (else rel="sunset") in any Link header', () => {
    const target = fc
      .tuple(
        fc.constantFrom('https', 'http', 'ftp'),
        fc.domain(),
        fc.stringMatching(/^[a-z0-9,;=._~-]{0,12}$/),
      )
      .map(([scheme, host, path]) => `${scheme}://${host}/${path}`);
    const quoted = fc
      .string({ maxLength: 10 })
      .map((text) => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`);
    const link = fc.record({
      target,
      rels: fc.subarray(['deprecation', 'sunset', 'alternate', 'latest-version'], { minLength: 0 }),
      title: fc.option(quoted, { nil: undefined }),
      quoteRel: fc.boolean(),
      space: fc.constantFrom('', ' ', '  ', '\t'),
    });
    fc.assert(
      fc.property(fc.array(link, { maxLength: 5 }), (links) => {
        const text = links
          .map((l) => {
            const rel =
              l.rels.length === 0
                ? ''
                : l.quoteRel || l.rels.length > 1
                  ? `;${l.space}rel="${l.rels.join(' ')}"`
                  : `;${l.space}rel=${l.rels[0]}`;
            return `<${l.target}>${l.title ? `; title=${l.title}` : ''}${rel}`;
          })
          .join(`,${links[0]?.space ?? ''} `);
        const parsed = parseLinkHeader(text);
        expect(parsed.map((l) => l.target)).toEqual(links.map((l) => l.target));
        expect(parsed.map((l) => l.rels)).toEqual(links.map((l) => l.rels));
        const https = (rel: string) =>
          links.find((l) => l.rels.includes(rel) && l.target.startsWith('https://'))?.target;
        const expected = https('deprecation') ?? https('sunset');
        const read = readDeprecationHeaders(headers({ Link: text }), NOW);
        if (links.some((l) => l.rels.includes('deprecation') || l.rels.includes('sunset'))) {
          expect(read?.link).toBe(expected);
        } else {
          expect(read).toBeUndefined();
        }
      }),
      RUNS,
    );
  });

  it('never throws on garbage, and any date it gives is a real moment', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (deprecation, sunset, link) => {
        const read = readDeprecationHeaders(
          headers({ Deprecation: deprecation, Sunset: sunset, Link: link }),
          NOW,
        );
        // A Deprecation header is there, so the endpoint is said to be deprecated, dated or not.
        expect(read).toBeDefined();
        for (const at of [read?.deprecatedAt, read?.sunsetAt])
          if (at !== undefined) expect(Number.isFinite(at)).toBe(true);
        if (read?.link !== undefined) expect(new URL(read.link).protocol).toBe('https:');
      }),
      RUNS,
    );
  });

  it('reads the forms services send, and nothing else as a date', () => {
    expect(parseHeaderDate('@1735689600')).toBe(Date.UTC(2025, 0, 1));
    expect(parseHeaderDate(' Wed, 30 Jun 2027 00:00:00 GMT ')).toBe(Date.UTC(2027, 5, 30));
    expect(parseHeaderDate('Wednesday, 30-Jun-27 00:00:00 GMT', NOW)).toBe(Date.UTC(2027, 5, 30));
    expect(parseHeaderDate('@1.5')).toBeUndefined();
    expect(parseHeaderDate('2027-06-30')).toBeUndefined();
    expect(readDeprecationHeaders(headers({ Deprecation: 'true' }), NOW)).toEqual({});
    expect(readDeprecationHeaders(headers({ 'Content-Type': 'application/json' }), NOW)).toBe(
      undefined,
    );
  });
});

describe('the notices, one per endpoint and environment', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'deprecations-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const said: DeprecationHeaders = {
    deprecatedAt: DEPRECATED_SINCE,
    sunsetAt: Date.UTC(2027, 5, 30),
    link: SANDBOX_CHANGELOG_URL,
  };

  it('keeps one notice however often it is said, and tells each change once', async () => {
    const notices = new DeprecationNotices(dir);
    const changed: string[] = [];
    notices.onChange((environment) => changed.push(environment));
    for (let i = 0; i < 3; i++) await notices.observe('staging', 'list-orders', said, NOW + i);
    expect(await notices.list('staging')).toEqual([
      { environment: 'staging', endpoint: 'list-orders', ...said, seenAt: NOW },
    ]);
    expect(await notices.list('production')).toEqual([]);
    expect(changed).toEqual(['staging']);
    // The endpoint answers without the headers again: the notice ends.
    await notices.observe('staging', 'list-orders', undefined, NOW + 5);
    expect(await notices.list('staging')).toEqual([]);
    expect(changed).toEqual(['staging', 'staging']);
  });

  it('stays dismissed for that endpoint, environment and sunset, across a restart', async () => {
    const notices = new DeprecationNotices(dir);
    await notices.observe('sandbox', 'list-orders', said, NOW);
    await notices.observe('sandbox', 'cancel-order', { deprecatedAt: DEPRECATED_SINCE }, NOW);
    await notices.dismiss('sandbox', 'list-orders');
    const endpoints = async (n: DeprecationNotices) =>
      (await n.list('sandbox')).map((notice): StoreEndpoint => notice.endpoint);
    expect(await endpoints(notices)).toEqual(['cancel-order']);

    const restarted = new DeprecationNotices(dir);
    await restarted.observe('sandbox', 'list-orders', said, NOW + 1);
    expect(await endpoints(restarted)).toEqual(['cancel-order']);
    expect(await restarted.linkOf('sandbox', 'list-orders')).toBe(SANDBOX_CHANGELOG_URL);
    // Another sunset date is another notice: it shows again.
    await restarted.observe(
      'sandbox',
      'list-orders',
      { ...said, sunsetAt: Date.UTC(2027, 0, 1) },
      NOW,
    );
    expect(await endpoints(restarted)).toEqual(['list-orders', 'cancel-order']);
  });

  it('says it in plain words with the date', () => {
    const notice = {
      environment: 'production' as const,
      endpoint: 'list-orders' as const,
      seenAt: NOW,
    };
    expect(deprecationSentence({ ...notice, sunsetAt: Date.UTC(2027, 5, 30) }, NOW)).toBe(
      'The store service will stop answering the order list on 30 June 2027.',
    );
    expect(
      deprecationSentence(
        { ...notice, endpoint: 'cancel-order', sunsetAt: Date.UTC(2026, 0, 1) },
        NOW,
      ),
    ).toBe(
      'The store service said it would stop accepting order cancels on 1 January 2026, so it may stop accepting cancels at any time.',
    );
    expect(deprecationSentence({ ...notice, deprecatedAt: DEPRECATED_SINCE }, NOW)).toBe(
      'The store service has marked the order list as deprecated since 1 January 2025: it may stop answering it in a later version.',
    );
  });
});

describe('against the sandbox with --deprecate', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it('the client reports what each endpoint says, and a successful answer without headers as nothing', async () => {
    sandbox = await startSandbox({ port: 0, orders: 30, deprecate: ['/store/orders=2027-06-30'] });
    const seen: Array<[StoreEndpoint, DeprecationHeaders | undefined]> = [];
    const client = new StoreClient({
      baseUrl: sandbox.baseUrl,
      getKey: () => 'demo-pro',
      gate: new RequestGate({ timing: realTiming }),
      budget: new RetryBudget(Date.now),
      onDeprecation: (endpoint, said) => seen.push([endpoint, said]),
    });
    await client.listOrderColumns();
    const [pending] = sandbox.orderIds({ status: 'pending', limit: 1 });
    await client.cancelOrder(pending!);
    expect(seen).toEqual([
      [
        'list-orders',
        {
          deprecatedAt: DEPRECATED_SINCE,
          sunsetAt: Date.UTC(2027, 5, 30),
          link: SANDBOX_CHANGELOG_URL,
        },
      ],
      ['cancel-order', undefined],
    ]);
  });
});
