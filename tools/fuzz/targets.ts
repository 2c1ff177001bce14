// Property-based tests at the app's boundaries, as fuzz targets: each opens
// what it needs (a sandbox, a CLI process) and gives a fast-check property. Run
// with a few hundred inputs and a fixed seed in npm test (fuzz.spec.ts), with
// 100,000 per target in npm run fuzz (scripts/fuzz.ts). A failing input is
// kept in regressions.json and replayed by both. The order-list parser's
// target reuses the generators and the reference of the parser's own tests.

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { runCli } from '../../src/cli/run.ts';
import { DomainInputError, normaliseHostName } from '../../src/main/domains/domain-name.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import type { Handlers } from '../../src/main/ipc/handlers.ts';
import { parseHttpDate } from '../../src/main/store-api/http-date.ts';
import { readRateLimitHeaders } from '../../src/main/quota/rate-limit-headers.ts';
import {
  latestBelievable,
  MAX_HOLD_MS,
  parseRetryAfter,
} from '../../src/main/quota/retry-after.ts';
import {
  FaultSpecError,
  formatFaultSpec,
  parseFaultSpec,
  type FaultRule,
} from '../../src/main/sandbox/faults.ts';
import { ASSISTANT_STEPS } from '../../src/shared/domain-assistant.ts';
import { PROJECT_ID_PATTERN } from '../../src/shared/domain-projects.ts';
import { STORE_ENDPOINTS } from '../../src/shared/deprecations.ts';
import { argumentSchemas, CHANNELS, type Channel } from '../../src/shared/ipc-contract.ts';
import { MAX_NOTE_LENGTH } from '../../src/shared/orders-local.ts';
import { OrderTableBuilder } from '../../src/renderer/src/features/orders/table/order-table.ts';
import { OrderListScanner } from '../../src/shared/order-list-scanner.ts';
import { InvalidOrdersError } from '../../src/shared/parse-orders.ts';
import { checkOrderStreamMessage } from '../../src/shared/order-stream.ts';
import { parseOrders } from '../../src/shared/parse-orders.ts';
import {
  packedLength,
  packScreenColumns,
  screenColumnsOf,
  unpackScreenColumns,
  type ScreenColumns,
} from '../../src/shared/screen-columns.ts';
import {
  cutOffListText,
  expectReadAsReference,
  orderListText,
  plainOrderListText,
  readingOf,
} from './order-lists.ts';

export interface OpenTarget {
  readonly property: fc.IRawProperty<unknown[]>;
  close(): Promise<void>;
}

export interface FuzzTarget {
  readonly name: string;
  /** The spec that runs it in npm test, when it has a home among the module's own tests. */
  readonly home?: string;
  open(): Promise<OpenTarget>;
}

const NOW = Date.UTC(2026, 10, 22, 9, 0, 0);
const nothingToClose = async (): Promise<void> => undefined;
const pure = (name: string, property: fc.IRawProperty<unknown[]>): FuzzTarget => ({
  name,
  open: async () => ({ property, close: nothingToClose }),
});

// ---- HTTP dates and Retry-After ----

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export type DateForm = 'imf-fixdate' | 'rfc850' | 'asctime';

/** The reference: RFC 9110's three forms, written from the date's UTC fields. */
export function formatHttpDate(epochMs: number, form: DateForm): string {
  const d = new Date(epochMs);
  const [year, month, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  switch (form) {
    case 'imf-fixdate':
      return `${DAYS[d.getUTCDay()]}, ${pad(day)} ${MONTHS[month]} ${pad(year, 4)} ${time} GMT`;
    case 'rfc850':
      return `${LONG_DAYS[d.getUTCDay()]}, ${pad(day)}-${MONTHS[month]}-${pad(year % 100)} ${time} GMT`;
    case 'asctime':
      return `${DAYS[d.getUTCDay()]} ${MONTHS[month]} ${String(day).padStart(2, ' ')} ${time} ${pad(year, 4)}`;
  }
}

const YEAR_1 = Date.UTC(2000, 0, 1) - 1999 * 365.2425 * 86_400_000;
const YEAR_9999 = Date.UTC(9999, 11, 31, 23, 59, 59);
/** RFC 850's two-digit years stand for the 100 years around now (at most 50 ahead). */
const RFC850_FROM = Date.UTC(1977, 0, 1);
const RFC850_TO = Date.UTC(2076, 0, 1);

const httpDates: FuzzTarget = pure(
  'http-date',
  fc.property(
    fc.constantFrom<DateForm>('imf-fixdate', 'rfc850', 'asctime'),
    fc.integer({ min: Math.ceil(YEAR_1 / 1000), max: YEAR_9999 / 1000 }),
    (form, seconds) => {
      let at = seconds * 1000;
      if (form === 'rfc850') at = RFC850_FROM + ((at - YEAR_1) % (RFC850_TO - RFC850_FROM));
      at = Math.floor(at / 1000) * 1000;
      const text = formatHttpDate(at, form);
      if (parseHttpDate(text, NOW) !== at) return false;
      // As a Retry-After: that moment (never before now), when believable at all.
      const retry = parseRetryAfter(text, { now: NOW, latest: Number.MAX_SAFE_INTEGER });
      return retry === Math.max(NOW, at);
    },
  ),
);

const headerText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)),
  maxLength: 40,
});
const numberish = fc.oneof(
  fc.stringMatching(/^[ \t]{0,2}[-+]?[0-9]{0,25}(\.[0-9]{0,5})?([eE][-+]?[0-9]{1,3})?[ \t]{0,2}$/),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.constantFrom(
    'NaN',
    'Infinity',
    '-1',
    '0x10',
    '1_000',
    '',
    ' ',
    '1e400',
    '99999999999999999999999',
  ),
);

const retryAfterGarbage: FuzzTarget = pure(
  'retry-after',
  fc.property(
    fc.oneof(numberish, headerText, fc.string({ unit: 'binary', maxLength: 40 })),
    fc.option(fc.oneof(headerText, fc.constant(formatHttpDate(NOW + 5000, 'imf-fixdate'))), {
      nil: undefined,
    }),
    (value, dateHeader) => {
      const at = parseRetryAfter(value, { now: NOW, dateHeader });
      if (at === undefined) return true;
      // Never NaN, never in the past, never past the longest believable wait.
      if (!Number.isSafeInteger(at) || at < NOW || at > latestBelievable(NOW)) return false;
      // Delay-seconds mean exactly that.
      const text = value.trim();
      if (/^\d+$/.test(text) && Number(text) < 1_000_000_000 && !dateHeader)
        return at === NOW + Number(text) * 1000;
      return true;
    },
  ),
);

const rateLimitHeaders: FuzzTarget = pure(
  'rate-limit-headers',
  fc.property(
    fc.option(fc.oneof(numberish, headerText), { nil: undefined }),
    fc.option(fc.oneof(numberish, headerText), { nil: undefined }),
    fc.option(fc.oneof(numberish, headerText), { nil: undefined }),
    (limit, remaining, reset) => {
      const headers = new Headers();
      if (limit !== undefined) headers.set('x-ratelimit-limit', limit);
      if (remaining !== undefined) headers.set('x-ratelimit-remaining', remaining);
      if (reset !== undefined) headers.set('x-ratelimit-reset', reset);
      const reading = readRateLimitHeaders(headers, { now: NOW });
      const count = (n: number | undefined) =>
        n === undefined || (Number.isSafeInteger(n) && n >= 0);
      if (!count(reading.limit) || !count(reading.remaining)) return false;
      if (
        reading.limit !== undefined &&
        reading.remaining !== undefined &&
        reading.remaining > reading.limit
      )
        return false;
      if (
        reading.resetAt !== undefined &&
        !(Number.isFinite(reading.resetAt) && reading.resetAt <= NOW + MAX_HOLD_MS)
      )
        return false;
      // A plain number is read as itself.
      const plain = (text: string | undefined) =>
        text !== undefined && /^\s*\d+\s*$/.test(text) && Number.isSafeInteger(Number(text));
      if (plain(limit) && reading.limit !== Number(limit)) return false;
      return true;
    },
  ),
);

// ---- Domain names ----

/** Pieces that IDNA maps or that sit near a rule's edge (the seeded test's, kept). */
export const HOST_PIECES = [
  'a',
  'Z',
  'shop',
  'xn--bcher-kva',
  'bücher',
  'ＳＨＯＰ',
  'ß',
  'ﬁ',
  '-',
  '0',
  '7',
  '１',
  '２５５',
  '.',
  '.',
  '。',
  '．',
  '｡',
  'com',
  'example',
  'co',
  'uk',
  '0x7f',
  'ǅ',
  'ⅸ',
  '①',
  'xn--',
  'xn--zz',
  '--',
  '_',
  ' ',
  '\u200d',
  '\u0301',
  'İ',
  'ı',
  'ς',
  '٠',
  '𝟙',
  '[',
  ':',
  '%',
  '@',
];

export const hostNameInput = fc.oneof(
  fc.array(fc.constantFrom(...HOST_PIECES), { minLength: 1, maxLength: 8 }).map((p) => p.join('')),
  fc.domain(),
  fc.domain().map((d) => d.toUpperCase()),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);

/** Counts the names a run accepted, so a test can check the property met accepted names, not only refusals. */
export const hostNameStats = { accepted: 0 };

const domainNames: FuzzTarget = {
  ...pure(
    'domain-names',
    fc.property(hostNameInput, (input) => {
      let once: string;
      try {
        once = normaliseHostName(input);
      } catch (error) {
        return error instanceof DomainInputError;
      }
      hostNameStats.accepted += 1;
      return (
        /^[a-z0-9.-]+$/.test(once) &&
        !once.endsWith('.') &&
        once.length <= 253 &&
        normaliseHostName(once) === once
      );
    }),
  ),
  home: 'test/main/domains/domain-name.spec.ts',
};

// ---- IPC arguments ----

const environment = fc.constantFrom('sandbox', 'staging', 'production');
const remote = fc.constantFrom('staging', 'production');
const orderId = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String);
const badOrderId = fc.oneof(
  fc.constantFrom(
    '-0',
    '9223372036854775808',
    '-9223372036854775809',
    '01',
    '+1',
    ' 1',
    '1.0',
    '1e3',
    '',
    'x',
  ),
  fc.bigInt({ min: 2n ** 63n, max: 2n ** 70n }).map(String),
  fc.string({ maxLength: 25 }).filter((s) => !/^-?(0|[1-9]\d*)$/.test(s)),
);
const host = fc.string({ minLength: 1, maxLength: 253 });
const epochMs = fc.integer({ min: 0, max: 2 ** 45 });
const progress = fc.record(
  {
    domain: host,
    step: fc.constantFrom(...ASSISTANT_STEPS),
    preconditions: fc.record({
      paidPlan: fc.boolean(),
      dnsAccess: fc.boolean(),
      deployed: fc.boolean(),
    }),
    verifiedAt: epochMs,
    lastCheck: fc.record({
      status: fc.constantFrom('ready', 'pending', 'misconfigured', 'error'),
      at: epochMs,
    }),
    updatedAt: epochMs,
  },
  { requiredKeys: ['domain', 'step', 'preconditions', 'updatedAt'] },
);
const config = fc.record({
  primary: host,
  redirects: fc.array(fc.record({ from: host, to: host, status: fc.constant(301) }), {
    maxLength: 5,
  }),
});
const one = <T>(arb: fc.Arbitrary<T>) => arb.map((a) => [a]);
/** A DNS server as the settings take one: IPv4, or IPv6 in brackets, each with an optional port. */
const dnsServer = fc
  .tuple(
    fc.oneof(
      fc.ipV4(),
      fc.ipV6().map((address) => `[${address}]`),
    ),
    fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
  )
  .map(([address, port]) => (port === undefined ? address : `${address}:${port}`));

/** A project's id, as projectIdOf makes them. */
const project = fc.stringMatching(PROJECT_ID_PATTERN);

/** Arguments each channel must accept. */
const VALID_ARGUMENTS: Record<Channel, fc.Arbitrary<unknown[]>> = {
  'app:get-state': fc.constant([]),
  'environments:select': one(environment),
  'environments:set-base-url': fc.tuple(remote, fc.string({ maxLength: 2048 })),
  'keys:set': fc.oneof(
    fc.tuple(remote, fc.string({ maxLength: 4096 })),
    fc.tuple(
      remote,
      fc.string({ maxLength: 100 }),
      fc.record({ acceptWeakStorage: fc.boolean() }, { requiredKeys: [] }),
    ),
  ),
  'keys:remove': one(remote),
  'keys:check': one(remote),
  'keys:confirm-origin': one(remote),
  'connection:test': one(environment),
  'orders:list': one(environment),
  'orders:cancel': fc.tuple(environment, orderId),
  'orders:cached': one(environment),
  'cancel-log:list': one(environment),
  'review-marks:list': one(environment),
  'review-marks:set': fc.tuple(
    environment,
    orderId,
    fc.record({ reviewed: fc.boolean(), note: fc.string({ maxLength: MAX_NOTE_LENGTH }) }),
  ),
  'quota:get': one(environment),
  'quota:try-now': one(environment),
  'bulk-cancel:start': fc.tuple(environment, fc.array(orderId, { minLength: 1, maxLength: 20 })),
  'bulk-cancel:pause': one(environment),
  'bulk-cancel:resume': one(environment),
  'bulk-cancel:stop': one(environment),
  'bulk-cancel:status': one(environment),
  'bulk-cancel:results': one(environment),
  'bulk-cancel:left-over': one(environment),
  'bulk-cancel:dismiss': one(environment),
  'domains:projects': fc.constant([]),
  'domains:add-project': one(
    fc.string({ minLength: 1, maxLength: 80 }).filter((name) => name.trim() !== ''),
  ),
  'domains:check': fc.tuple(
    project,
    fc.record(
      {
        domain: fc.string({ minLength: 1, maxLength: 300 }),
        target: fc.string({ minLength: 1, maxLength: 300 }),
        caDomain: fc.string({ maxLength: 300 }),
      },
      { requiredKeys: ['domain', 'target'] },
    ),
  ),
  'domains:certificate': fc.tuple(
    project,
    fc.record({ domain: fc.string({ minLength: 1, maxLength: 300 }) }),
  ),
  'domains:workspace': one(project),
  'domains:save-settings': fc.tuple(
    project,
    fc.record({ target: host, resolver: dnsServer, caDomain: host }, { requiredKeys: [] }),
  ),
  'domains:save-progress': fc.tuple(project, progress),
  'domains:remove-progress': fc.tuple(project, fc.string({ minLength: 1, maxLength: 253 })),
  'domains:save-config': fc.oneof(fc.tuple(project, config), one(project)),
  'orders:changes': one(environment),
  'deprecations:list': one(environment),
  'deprecations:dismiss': fc.tuple(environment, fc.constantFrom(...STORE_ENDPOINTS)),
  'deprecations:open-link': fc.tuple(environment, fc.constantFrom(...STORE_ENDPOINTS)),
  'updates:settings': fc.constant([]),
  'updates:set-address': one(fc.string({ maxLength: 1024 })),
  'domains:watch': one(project),
};

/** Where a channel takes order ids: the argument's position (in a list, its first item). */
const ORDER_ID_AT: Partial<Record<Channel, { readonly index: number; readonly inList?: boolean }>> =
  {
    'orders:cancel': { index: 1 },
    'review-marks:set': { index: 1 },
    'bulk-cancel:start': { index: 1, inList: true },
  };

/** Channels whose first argument is free text: any string is one, so spoiling it takes another type. */
const FREE_TEXT_FIRST: ReadonlySet<Channel> = new Set<Channel>([
  'domains:add-project',
  'updates:set-address',
]);

/** Changes that make a channel's arguments invalid. */
function spoil(
  channel: Channel,
  args: unknown[],
  how: number,
  junk: unknown,
  badId: string,
): unknown {
  const orderIdAt = ORDER_ID_AT[channel];
  switch (orderIdAt ? how : how % 3) {
    case 0:
      return [...args, junk ?? 'extra', 'extra']; // arguments the channel does not take
    case 1:
      // Not what the channel takes first (an environment).
      return args.length === 0
        ? [junk ?? 0]
        : [
            typeof junk === 'string' && !FREE_TEXT_FIRST.has(channel)
              ? `${junk}!`
              : typeof junk === 'number'
                ? junk
                : null,
            ...args.slice(1),
          ];
    case 2:
      return junk === undefined || Array.isArray(junk) ? { args } : junk; // not an argument list
    default: {
      // An order id out of int64, or not canonical.
      const copy = [...args];
      const { index, inList } = orderIdAt!;
      copy[index] = inList ? [badId, ...(copy[index] as unknown[]).slice(1)] : badId;
      return copy;
    }
  }
}

const INVALID = 'Store Admin received a request with details it cannot accept.';
const acceptingHandlers = Object.fromEntries(
  CHANNELS.map((channel) => [channel, async () => 'handled']),
) as unknown as Handlers;

const ipcArguments: FuzzTarget = pure(
  'ipc-arguments',
  fc.asyncProperty(
    fc.constantFrom(...CHANNELS).chain((channel) =>
      fc.tuple(
        fc.constant(channel),
        fc.oneof(
          VALID_ARGUMENTS[channel].map((args) => ({ args, expect: 'valid' as const })),
          fc
            .tuple(
              VALID_ARGUMENTS[channel],
              fc.integer({ min: 0, max: 3 }),
              fc.option(fc.anything(), { nil: undefined }),
              badOrderId,
            )
            .map(([args, how, junk, badId]) => ({
              args: spoil(channel, args, how, junk, badId),
              expect: 'invalid' as const,
            })),
          fc.anything().map((args) => ({ args, expect: 'either' as const })),
        ),
      ),
    ),
    async ([channel, { args, expect }]: [
      string,
      { args: unknown; expect: 'valid' | 'invalid' | 'either' },
    ]) => {
      const result = await dispatch(acceptingHandlers, channel, args, () => undefined);
      const accepted = argumentSchemas[channel as Channel].safeParse(args).success;
      if (expect === 'valid' && !(accepted && result.ok)) return false;
      if (expect === 'invalid' && accepted) return false;
      if (result.ok !== accepted) return false;
      return (
        result.ok || (result.error.kind === 'invalid-input' && result.error.message === INVALID)
      );
    },
  ),
);

// ---- The sandbox's fault spec ----

const rate = fc.oneof(
  fc.constantFrom(0, 1, 0.5, 0.05),
  fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000),
);
const faultRules = fc
  .uniqueArray(fc.constantFrom('latency', '5xx', 'reset', 'malformed', '429'), { maxLength: 5 })
  .chain((kinds) =>
    fc.tuple(
      ...kinds.map((kind) =>
        kind === 'latency'
          ? fc.record({ kind: fc.constant('latency' as const), ms: fc.nat({ max: 600_000 }), rate })
          : kind === '429'
            ? fc.record({
                kind: fc.constant('429' as const),
                burst: fc.integer({ min: 1, max: 9999 }),
                rate,
              })
            : fc.record({ kind: fc.constant(kind as '5xx'), rate }),
      ),
    ),
  );

const faultSpecs: FuzzTarget = pure(
  'fault-spec',
  fc.property(
    fc.oneof(
      faultRules.map((rules) => ({
        rules: rules,
        text: formatFaultSpec(rules as FaultRule[]),
      })),
      fc
        .oneof(
          fc.string({ maxLength: 40 }),
          fc
            .array(
              fc.constantFrom(
                'latency',
                '5xx',
                'reset',
                'malformed',
                '=',
                '@',
                ',',
                '0',
                '.5',
                '1',
                '200',
                ' ',
                'x',
                '-1',
                '1.5',
              ),
              { maxLength: 10 },
            )
            .map((p) => p.join('')),
        )
        .map((text) => ({ rules: undefined, text })),
    ),
    ({ rules, text }: { rules: FaultRule[] | undefined; text: string }) => {
      let parsed: readonly FaultRule[];
      try {
        parsed = parseFaultSpec(text);
      } catch (error) {
        return (
          rules === undefined && error instanceof FaultSpecError && !error.message.includes('\n')
        );
      }
      if (rules !== undefined && JSON.stringify(parsed) !== JSON.stringify(rules)) return false;
      // Whatever it accepts, its own text gives back the same rules.
      return JSON.stringify(parseFaultSpec(formatFaultSpec(parsed))) === JSON.stringify(parsed);
    },
  ),
);

// ---- The command line's arguments ----

const CLI_WORDS = [
  'orders',
  'list',
  'cancel',
  'quota',
  'domain',
  '--json',
  '--help',
  '-h',
  '--base-url',
  '--from',
  '--resume',
  '--target',
  '--resolver',
  '--port',
  '--timeout',
  '--ca',
  '--ca-file',
  '--host',
  '--',
  '42',
  '-1',
  '9223372036854775808',
  'http://127.0.0.1:9/v1',
  'https://api.example.com/v1',
  'x',
  '--base-url=http://127.0.0.1:9/v1',
  '--from=',
  '--json=1',
  '-x',
  '/nonexistent/file',
];
const STACK_LINE = /^\s+at .+(:\d+:\d+|\(native\))/m;

const cliArguments: FuzzTarget = pure(
  'cli-arguments',
  fc.asyncProperty(
    fc.array(fc.oneof(fc.constantFrom(...CLI_WORDS), fc.string({ maxLength: 12 })), {
      maxLength: 7,
    }),
    fc.constantFrom<Record<string, string>>(
      {},
      { STORE_ADMIN_API_KEY: '  ' },
      { STORE_ADMIN_BASE_URL: 'not a url' },
      { STORE_ADMIN_BASE_URL: 'http://127.0.0.1:9/v1' },
    ),
    async (argv, env) => {
      let out = '';
      let code: number;
      try {
        code = await runCli(argv, {
          stdout: (t) => (out += t),
          stderr: (t) => (out += t),
          env: { STORE_ADMIN_DATA_DIR: join(tmpdir(), 'fuzz-cli-data'), ...env },
        });
      } catch {
        return false; // the real command would print a stack trace
      }
      if (STACK_LINE.test(out)) return false;
      // No key here, so nothing is sent: help (0) or bad usage (2), in one line that says what to do.
      if (code !== 0 && code !== 2) return false;
      if (code === 2 && !/^(store-admin: .+|No API key is set\..+|\{"ok":false,.+\})\n$/s.test(out))
        return false;
      return true;
    },
  ),
);

// ---- The order-list parser ----

/**
 * Every id and pet id exactly as the digits in the text (above and below
 * 2^53); anything that is not a valid list refused with the parser's own
 * error and the reference's words, never another error. A hang shows as the
 * target's time bound.
 */
const orderLists = pure(
  'order-list',
  fc.property(
    fc.oneof(orderListText(true), orderListText(false), plainOrderListText(), cutOffListText),
    (text) => {
      expectReadAsReference(
        text,
        readingOf(() => parseOrders(text)),
      );
    },
  ),
);

// ---- A list's parts on their way to the screen ----

const SORTS = ['id', 'petId', 'quantity', 'shipDate', 'complete'] as const;

/**
 * A part as main sends it, packed into one buffer (packScreenColumns), with bytes
 * changed anywhere after its header: what the page takes (unpacked and
 * checked) is rows a table holds whole. Every row reads, and every sort
 * either way is each row once. A hang shows as the target's time bound.
 */
const streamParts = pure(
  'stream-parts',
  fc.property(
    orderListText(true),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
    (text, changes) => {
      const scanner = new OrderListScanner();
      let part: ScreenColumns;
      try {
        scanner.push(new TextEncoder().encode(text));
        part = screenColumnsOf(scanner.finish(), 0);
      } catch (error) {
        if (error instanceof InvalidOrdersError) return; // a few generated lists are refused whole
        throw error;
      }
      const packed = new Uint8Array(packedLength(part));
      packScreenColumns(part, packed);
      // The header's sizes are checked against the body's length; the rest is for checkScreenColumns.
      const HEADER = 32;
      for (const [at, byte] of changes)
        if (packed.length > HEADER) packed[HEADER + (at % (packed.length - HEADER))] = byte;
      let columns: unknown;
      try {
        columns = unpackScreenColumns(packed.buffer);
      } catch (error) {
        if (error instanceof RangeError) return;
        throw error;
      }
      const checked = checkOrderStreamMessage({ kind: 'rows', from: 0, columns });
      if (typeof checked === 'string' || checked.kind !== 'rows') return;
      const builder = new OrderTableBuilder(checked.columns.count);
      builder.append(0, checked.columns);
      const table = builder.build();
      for (let row = 0; row < table.count; row++) {
        const { id, petId, shipDate } = table.orderAt(row);
        for (const value of [id, petId])
          if (value !== undefined && !/^-?\d{1,19}$/.test(value)) throw new Error(`id ${value}`);
        if (shipDate !== undefined && !/^\d{4}-/.test(shipDate))
          throw new Error(`date ${shipDate}`);
      }
      for (const column of SORTS)
        for (const direction of ['ascending', 'descending'] as const) {
          const rows = table.sortedRows({ column, direction });
          if (rows.length !== table.count || new Set(rows).size !== table.count)
            throw new Error(`the ${direction} ${column} sort is not each row once`);
        }
    },
  ),
);

export const TARGETS: readonly FuzzTarget[] = [
  orderLists,
  streamParts,
  httpDates,
  retryAfterGarbage,
  rateLimitHeaders,
  domainNames,
  ipcArguments,
  faultSpecs,
  cliArguments,
];
