// Generated order-list texts for the property-based tests of the order-list
// reader, and an independent reference reading of them: JSON.parse with a
// reviver that keeps each number's source text (`context.source`), then the
// interface's rules applied to the parsed objects with BigInt arithmetic.
//
// The generator writes JSON by hand, so it can hold what JSON.stringify never
// writes: repeated keys, escaped key names, numbers in every form (fractions,
// exponents, -0, beyond int64), whitespace anywhere, and ids nested in other
// values. Ids are drawn across the whole int64 range, around 2^53 and around
// the ends of the range (just outside included).

import fc from 'fast-check';
import { expect } from 'vitest';
import type { Order } from '../../src/shared/order.ts';
import { InvalidOrdersError } from '../../src/shared/parse-orders.ts';

// ---------------------------------------------------------------- reference

const NOT_JSON = 'the list is not valid JSON; it may have been cut off';
const DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt ](?:[01]\d|2[0-3]):[0-5]\d(?::(?:[0-5]\d|60)(?:\.\d{1,9})?)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const SAFE_MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** A number as JSON wrote it. */
class NumberSource {
  readonly source: string;
  constructor(source: string) {
    this.source = source;
  }
}

const parseWithSource = JSON.parse as (
  text: string,
  reviver: (key: string, value: unknown, context: { source?: string }) => unknown,
) => unknown;

/** The exact value of a JSON number if it is an integer (BigInt arithmetic on mantissa and exponent). */
export function exactInteger(source: string): bigint | 'fraction' {
  const [, sign, whole, fraction = '', exponentText = '0'] =
    /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(source)!;
  const mantissa = BigInt(whole! + fraction);
  const exponent = BigInt(exponentText) - BigInt(fraction.length);
  if (mantissa === 0n) return 0n;
  let magnitude: bigint;
  if (exponent >= 0n) {
    // Past 10^60 every value is out of range alike.
    magnitude = exponent > 60n ? 10n ** 60n : mantissa * 10n ** exponent;
  } else {
    const divisor = 10n ** -exponent;
    if (-exponent > BigInt(whole!.length + fraction.length) || mantissa % divisor !== 0n)
      return 'fraction';
    magnitude = mantissa / divisor;
  }
  return sign === '-' ? -magnitude : magnitude;
}

export type Reading =
  | { readonly ok: true; readonly orders: Order[] }
  | { readonly ok: false; readonly message: string; readonly validJson?: boolean };

class Refused extends Error {}

function integerField(
  value: unknown,
  order: number,
  name: string,
  min: bigint,
  max: bigint,
): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  const exact = value instanceof NumberSource ? exactInteger(value.source) : 'fraction';
  if (exact === 'fraction') throw new Refused(`order ${order}: "${name}" is not a whole number`);
  if (exact < min || exact > max) throw new Refused(`order ${order}: "${name}" is too large`);
  return exact;
}

/** What the list means by the interface's rules, read independently of the code under test. */
export function referenceRead(text: string): Reading {
  let data: unknown;
  try {
    data = parseWithSource(text, (_key, value, context) =>
      typeof value === 'number' ? new NumberSource(context.source!) : value,
    );
  } catch {
    return { ok: false, message: NOT_JSON, validJson: false };
  }
  try {
    if (!Array.isArray(data)) throw new Refused('the answer is not a list of orders');
    const orders = data.map((item: unknown, index): Order => {
      const order = index + 1;
      if (
        typeof item !== 'object' ||
        item === null ||
        Array.isArray(item) ||
        item instanceof NumberSource
      ) {
        throw new Refused(`item ${order} is not an order`);
      }
      const own = (key: string): unknown =>
        Object.hasOwn(item, key) ? (item as Record<string, unknown>)[key] : undefined;
      const id = integerField(own('id'), order, 'id', INT64_MIN, INT64_MAX);
      const petId = integerField(own('petId'), order, 'petId', INT64_MIN, INT64_MAX);
      const quantity = integerField(own('quantity'), order, 'quantity', -SAFE_MAX, SAFE_MAX);
      const shipDate = own('shipDate') ?? undefined;
      if (shipDate !== undefined && (typeof shipDate !== 'string' || !DATE_TIME.test(shipDate)))
        throw new Refused(`order ${order}: "shipDate" is not a date-time`);
      const complete = own('complete') ?? undefined;
      if (complete !== undefined && typeof complete !== 'boolean')
        throw new Refused(`order ${order}: "complete" is not true or false`);
      return {
        id: id?.toString(),
        petId: petId?.toString(),
        quantity: quantity === undefined ? undefined : Number(quantity),
        shipDate,
        complete,
      };
    });
    return { ok: true, orders };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.message, validJson: true };
    throw error;
  }
}

/** The reading of `read` (the code under test) in the reference's terms. */
export function readingOf(read: () => Order[]): Reading {
  try {
    return { ok: true, orders: read() };
  } catch (error) {
    if (error instanceof InvalidOrdersError) return { ok: false, message: error.message };
    throw error;
  }
}

/**
 * The code under test reads `text` as the reference does: the same orders,
 * or the same refusal (for broken JSON, any refusal: a streaming reader may
 * find a bad order before the break).
 */
export function expectReadAsReference(text: string, actual: Reading): Reading {
  const expected = referenceRead(text);
  if (expected.ok) expect(actual, text).toEqual(expected);
  else if (expected.validJson)
    expect(actual, text).toEqual({ ok: false, message: expected.message });
  else expect(actual.ok, text).toBe(false);
  return expected;
}

// ---------------------------------------------------------------- generator

/** JSON as a tree, written out later with whitespace between every token. */
type Node =
  | { readonly kind: 'token'; readonly text: string }
  | { readonly kind: 'object'; readonly members: ReadonlyArray<readonly [string, Node]> }
  | { readonly kind: 'array'; readonly items: readonly Node[] };

const token = (text: string): Node => ({ kind: 'token', text });

const SPACES = ['', '', '', '', ' ', '\n', '\t', '\r\n  '];

/** Writes a tree, taking the whitespace between tokens from `spaces` in turn. */
export function render(node: Node, spaces: readonly string[]): string {
  let next = 0;
  const space = (): string => spaces[next++ % spaces.length] ?? '';
  const write = (n: Node): string => {
    if (n.kind === 'token') return n.text;
    if (n.kind === 'array')
      return `[${space()}${n.items.map((item) => `${write(item)}${space()}`).join(`,${space()}`)}]`;
    return `{${space()}${n.members
      .map(([key, value]) => `${key}${space()}:${space()}${write(value)}${space()}`)
      .join(`,${space()}`)}}`;
  };
  return `${space()}${write(node)}${space()}`;
}

const TWO_53 = 2n ** 53n;
const TWO_63 = 2n ** 63n;
const around = (centre: bigint, radius = 40n): fc.Arbitrary<bigint> =>
  fc.bigInt({ min: centre - radius, max: centre + radius });

/** Integers across int64, dense where doubles and int64 end (just outside included). */
export const int64ish = fc.oneof(
  fc.bigInt({ min: INT64_MIN, max: INT64_MAX }),
  around(TWO_53),
  around(-TWO_53),
  around(TWO_63 - 1n),
  around(-TWO_63),
  around(0n, 2000n),
  fc.bigInt({ min: -4n * TWO_63, max: 4n * TWO_63 }),
);

const quantityish = fc.oneof(
  { weight: 4, arbitrary: fc.bigInt({ min: -5n, max: 1000n }) },
  { weight: 1, arbitrary: around(SAFE_MAX, 3n) },
  { weight: 1, arbitrary: around(-SAFE_MAX, 3n) },
  { weight: 1, arbitrary: int64ish },
);

/** Ways to write the integer v as a JSON number. */
export function wholeForms(v: bigint): fc.Arbitrary<string> {
  const sign = v < 0n ? '-' : '';
  const digits = (v < 0n ? -v : v).toString();
  const forms = [
    `${v}e0`,
    `${v}E+0`,
    `${v}.0`,
    `${v}.000e-0`,
    `${v}00e-2`,
    `${sign}${digits[0]}.${digits.slice(1) || '0'}e${digits.length - 1}`,
    `${sign}0.${digits}E${digits.length}`,
  ];
  const trailing = /0+$/.exec(digits)?.[0].length ?? 0;
  if (trailing > 0 && v !== 0n) forms.push(`${sign}${digits.slice(0, -trailing)}e${trailing}`);
  if (v === 0n) forms.push('-0', '-0.0', '0e99', '-0E-5');
  return fc.constantFrom(...forms);
}

/** Numbers near v that are not whole, and ones too large for anything. */
export function notWholeForms(v: bigint): fc.Arbitrary<string> {
  return fc.constantFrom(
    `${v}.5`,
    `${v}.0000001`,
    `${v}5e-1`,
    `${v}.5e0`,
    `${v}1E-1`,
    '1e-400',
    '1e400',
    '-1e400',
    `${v === 0n ? 1n : v}e25`,
  );
}

function integerText(values: fc.Arbitrary<bigint>, whole: boolean): fc.Arbitrary<string> {
  return values.chain((v) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constant(v.toString()) },
      { weight: 3, arbitrary: wholeForms(v) },
      { weight: whole ? 0 : 2, arbitrary: notWholeForms(v) },
    ),
  );
}

/** A JSON string for `text`, some characters escaped when `flags` say so. */
function jsonString(text: string, flags: readonly boolean[]): string {
  let out = '"';
  for (let k = 0; k < text.length; k++) {
    const character = text[k]!;
    const code = character.charCodeAt(0);
    if (character === '"' || character === '\\') out += `\\${character}`;
    else if (code < 0x20 || flags[k]) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += character;
  }
  return `${out}"`;
}

/** A string written plainly most times, with escapes sometimes. */
function stringToken(text: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(jsonString(text, [])) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
        .map((flags) => jsonString(text, flags)),
    },
  );
}

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/** RFC 3339 date-times in all accepted shapes (`valid`), or near misses too. */
export function dateText(valid: boolean): fc.Arbitrary<string> {
  const range = (min: number, max: number, slack: number) =>
    fc.integer({ min: valid ? min : min - slack, max: valid ? max : max + slack });
  return fc
    .record({
      year: fc.integer({ min: 0, max: 9999 }),
      month: range(1, 12, 1),
      day: range(1, 31, 1),
      separator: valid ? fc.constantFrom('T', 't', ' ') : fc.constantFrom('T', 'x', '', 'T'),
      hour: range(0, 23, 1),
      minute: range(0, 59, 1),
      second: fc.option(range(0, 60, 1), { nil: undefined }),
      fraction: fc.option(fc.integer({ min: valid ? 1 : 0, max: valid ? 9 : 10 }), {
        nil: undefined,
      }),
      zone: valid
        ? fc.constantFrom('Z', 'z', '+01:00', '-05:30', '+0530', '-2359', '+23:59')
        : fc.constantFrom('Z', '', '+24:00', '+1:00', '+01:60', 'Z ', '+01'),
    })
    .map(({ year, month, day, separator, hour, minute, second, fraction, zone }) => {
      let text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}${separator}${pad(hour, 2)}:${pad(minute, 2)}`;
      if (second !== undefined) {
        text += `:${pad(second, 2)}`;
        if (fraction !== undefined) text += `.${'123456789012'.slice(0, fraction)}`;
      }
      return text + zone;
    });
}

const literal = fc.constantFrom('true', 'false', 'null');

/** Strings that look like order data, to catch readers that scan the text for patterns. */
const trickyString = fc.constantFrom(
  '',
  'pending',
  ',"id":9007199254740993,',
  '{"petId":9223372036854775807}',
  '"}]',
  'é€😀',
  '\\',
  'line\nbreak',
  '2026-01-01T00:00:00Z',
  // Longer than a reader's look-ahead, so an order cut by a chunk boundary is read across it.
  'long '.repeat(1500),
);

const anyNumber = fc.oneof(integerText(int64ish, false), integerText(quantityish, false));

const ORDER_KEYS = ['id', 'petId', 'quantity', 'shipDate', 'complete'] as const;
type OrderKey = (typeof ORDER_KEYS)[number];
const OTHER_KEYS = [
  'pet',
  'meta',
  'note',
  'Id',
  'ID',
  'ids',
  'petid',
  'id ',
  '',
  'status',
  'é',
  '__proto__',
];

const keyToken = (name: string): fc.Arbitrary<string> => stringToken(name);

/** Any JSON value, nested up to `depth`, with order keys in the nested objects too. */
function anyValue(depth: number): fc.Arbitrary<Node> {
  const scalar = fc.oneof(
    anyNumber.map(token),
    literal.map(token),
    trickyString.chain(stringToken).map(token),
  );
  if (depth === 0) return scalar;
  const member = fc.tuple(
    fc.constantFrom(...ORDER_KEYS, ...OTHER_KEYS).chain(keyToken),
    anyValue(depth - 1),
  );
  return fc.oneof(
    { weight: 3, arbitrary: scalar },
    {
      weight: 1,
      arbitrary: fc
        .array(member, { maxLength: 4 })
        .map((members): Node => ({ kind: 'object', members })),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(anyValue(depth - 1), { maxLength: 4 })
        .map((items): Node => ({ kind: 'array', items })),
    },
  );
}

/** A value for an order field: valid for it, or (when `valid` is false) anything. */
function fieldValue(key: OrderKey, valid: boolean): fc.Arbitrary<Node> {
  const good: fc.Arbitrary<string> = {
    id: integerText(
      int64ish.filter((v) => v >= INT64_MIN && v <= INT64_MAX),
      true,
    ),
    petId: integerText(
      int64ish.filter((v) => v >= INT64_MIN && v <= INT64_MAX),
      true,
    ),
    quantity: integerText(
      quantityish.filter((v) => v >= -SAFE_MAX && v <= SAFE_MAX),
      true,
    ),
    shipDate: dateText(true).chain(stringToken),
    complete: fc.constantFrom('true', 'false'),
  }[key];
  const goodOrNull = fc.oneof({ weight: 8, arbitrary: good }, fc.constant('null')).map(token);
  if (valid) return goodOrNull;
  const bad: fc.Arbitrary<string> = {
    id: integerText(int64ish, false),
    petId: integerText(int64ish, false),
    quantity: integerText(quantityish, false),
    shipDate: dateText(false).chain(stringToken),
    complete: fc.constantFrom('0', '1', '"true"'),
  }[key];
  return fc.oneof(
    { weight: 3, arbitrary: goodOrNull },
    { weight: 2, arbitrary: bad.map(token) },
    { weight: 1, arbitrary: anyValue(1) },
  );
}

/**
 * One order: each field 0-3 times (the last one decides; with `valid`, the
 * last is always valid), other keys with nested values, in any order.
 */
function orderObject(valid: boolean): fc.Arbitrary<Node> {
  const field = (key: OrderKey) =>
    fc.tuple(
      fc.array(fieldValue(key, false), { maxLength: 1 }),
      fc.option(fieldValue(key, valid), { freq: 6, nil: undefined }),
      keyToken(key),
    );
  return fc
    .record({
      fields: fc.tuple(...ORDER_KEYS.map(field)),
      others: fc.array(fc.tuple(fc.constantFrom(...OTHER_KEYS).chain(keyToken), anyValue(2)), {
        maxLength: 3,
      }),
    })
    .chain(({ fields, others }) => {
      // Each member names which key it is for, so a shuffle can keep the deciding value last.
      const members: Array<{ key: OrderKey | undefined; entry: readonly [string, Node] }> = [];
      const values = new Map<OrderKey, Node[]>();
      fields.forEach(([earlier, last, keyText], k) => {
        const key = ORDER_KEYS[k]!;
        // An absent last value leaves the earlier one deciding: a valid list then has none.
        const all = last !== undefined ? [...earlier, last] : valid ? [] : earlier;
        values.set(key, all);
        for (const value of all) members.push({ key, entry: [keyText, value] });
      });
      for (const entry of others) members.push({ key: undefined, entry });
      return fc
        .shuffledSubarray(members, { minLength: members.length, maxLength: members.length })
        .map((shuffled): Node => {
          const next = new Map<OrderKey, number>();
          return {
            kind: 'object',
            members: shuffled.map(({ key, entry }) => {
              if (key === undefined) return entry;
              const index = next.get(key) ?? 0;
              next.set(key, index + 1);
              return [entry[0], values.get(key)![index]!] as const;
            }),
          };
        });
    });
}

/**
 * A whole list text. `valid`: every order is valid (so most lists are
 * accepted, exercising exact reading); otherwise fields may be wrong, items
 * may not be orders and the answer may not be a list.
 */
export function orderListText(valid: boolean): fc.Arbitrary<string> {
  const item = valid
    ? orderObject(true)
    : fc.oneof(
        { weight: 12, arbitrary: orderObject(false) },
        { weight: 1, arbitrary: anyValue(1) },
      );
  const list = fc.array(item, { maxLength: 6 }).map((items): Node => ({ kind: 'array', items }));
  const top = valid
    ? list
    : fc.oneof({ weight: 12, arbitrary: list }, { weight: 1, arbitrary: anyValue(2) });
  return fc
    .tuple(top, fc.array(fc.constantFrom(...SPACES), { minLength: 1, maxLength: 40 }))
    .map(([node, spaces]) => render(node, spaces));
}

/**
 * A list in the form services usually send (the interface's fields in its
 * order, compact), with values at the edges: ids of every length up to
 * int64's and past it, negative and -0, dates of other lengths and invalid
 * ones, and now and then an order in another form.
 */
export function plainOrderListText(): fc.Arbitrary<string> {
  const inInt64 = int64ish.filter((v) => v >= INT64_MIN && v <= INT64_MAX);
  const integer = fc.oneof(
    { weight: 16, arbitrary: inInt64.map(String) },
    { weight: 1, arbitrary: int64ish.map(String) },
    { weight: 1, arbitrary: integerText(int64ish, false) },
  );
  const plainOrder = fc
    .record({
      id: integer,
      petId: integer,
      quantity: fc.oneof(
        { weight: 16, arbitrary: fc.bigInt({ min: 0n, max: 1000n }).map(String) },
        { weight: 1, arbitrary: quantityish.map(String) },
        { weight: 1, arbitrary: integerText(quantityish, false) },
      ),
      shipDate: fc.oneof(
        { weight: 16, arbitrary: dateText(true).map((date) => jsonString(date, [])) },
        { weight: 1, arbitrary: dateText(false).map((date) => jsonString(date, [])) },
        { weight: 1, arbitrary: fc.constantFrom('null', '"2026-01-01T10:00:00\\u005a"', '1') },
      ),
      complete: fc.oneof(
        { weight: 16, arbitrary: fc.constantFrom('true', 'false') },
        { weight: 1, arbitrary: fc.constantFrom('null', 'true ', '0') },
      ),
    })
    .map(
      (o) =>
        `{"id":${o.id},"petId":${o.petId},"quantity":${o.quantity},"shipDate":${o.shipDate},"complete":${o.complete}}`,
    );
  const item = fc.oneof(
    { weight: 10, arbitrary: plainOrder },
    {
      weight: 1,
      arbitrary: fc
        .tuple(orderObject(true), fc.array(fc.constantFrom(...SPACES), { minLength: 1 }))
        .map(([node, spaces]) => render(node, spaces).trim()),
    },
  );
  return fc.array(item, { maxLength: 8 }).map((items) => `[${items.join(',')}]`);
}

/** A list cut off at some byte: a download that ended early. */
export const cutOffListText = fc
  .tuple(orderListText(true), fc.double({ min: 0, max: 1, noNaN: true }))
  .map(([text, at]) => text.slice(0, Math.floor(text.length * at)));

/** Fixed seed, so npm test is repeatable; runs kept modest so each file takes a few seconds. */
export const PROPERTY_RUNS = { seed: 20260114, numRuns: 400 } as const;
