import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateTimeMs, dateTimeMsOfText, plainDateTimeMs } from '../../src/shared/rfc3339.ts';
import { isPlainDate } from '../../src/shared/ship-dates.ts';
import { PROPERTY_RUNS, dateText } from '../../tools/fuzz/order-lists.ts';

/** The pattern the order-list parser used before dates were read from bytes. */
const DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt ](?:[01]\d|2[0-3]):[0-5]\d(?::(?:[0-5]\d|60)(?:\.\d{1,9})?)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/;

const ECMASCRIPT_FORMAT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d{1,3})?)?(?:Z|[+-]\d\d:\d\d)$/;

const ms = (text: string): number => dateTimeMs(new TextEncoder().encode(text), 0, text.length);

const dateLike = fc.oneof(
  dateText(true),
  dateText(false),
  fc.string({ unit: fc.constantFrom(...'0123456789-:T+Z. tz'), maxLength: 32 }),
);

describe('dateTimeMs', () => {
  it('accepts exactly what the RFC 3339 pattern accepts', () => {
    fc.assert(
      fc.property(dateLike, (text) => {
        expect(Number.isNaN(ms(text)), text).toBe(!DATE_TIME.test(text));
      }),
      PROPERTY_RUNS,
    );
  });

  it('gives the epoch ms Date.parse gives where it reads the text', () => {
    expect(ms('2026-01-01T10:00:00.123+02:00')).toBe(Date.UTC(2026, 0, 1, 8, 0, 0, 123));
    expect(ms('1969-07-20T20:17:40Z')).toBe(Date.UTC(1969, 6, 20, 20, 17, 40));
    fc.assert(
      fc.property(dateText(true), (text) => {
        // Date.parse is exact only for ECMAScript's own date-time format (no leap second).
        if (ECMASCRIPT_FORMAT.test(text) && !/:60/.test(text))
          expect(ms(text), text).toBe(Date.parse(text));
      }),
      PROPERTY_RUNS,
    );
  });

  it('reads only the given range of the bytes', () => {
    const bytes = new TextEncoder().encode('xx2026-01-01T10:00Z"yy');
    expect(dateTimeMs(bytes, 2, 19)).toBe(Date.UTC(2026, 0, 1, 10, 0));
    expect(dateTimeMs(bytes, 2, 20)).toBeNaN();
    expect(dateTimeMsOfText('2026-01-01T10:00Z')).toBe(Date.UTC(2026, 0, 1, 10, 0));
    expect(dateTimeMsOfText('2026-01-01T10:00Ｚ')).toBeNaN();
  });
});

describe('plainDateTimeMs', () => {
  /** The text at byte 3 of a buffer with room around it, read four bytes at a time. */
  const plainMs = (text: string): number => {
    const bytes = new Uint8Array(text.length + 8).fill(0x22);
    bytes.set(new TextEncoder().encode(text), 3);
    return plainDateTimeMs(new DataView(bytes.buffer), 3);
  };
  /** Plain-looking texts, some a byte off: a digit, a separator, a day or second out of range. */
  const plainLike = fc.oneof(
    dateText(true).filter((text) => text.length === 20),
    fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 61 }),
      )
      .map(
        ([y, mo, d, h, mi, s]) =>
          `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}T${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}:${String(s).padStart(2, '0')}Z`,
      ),
    fc
      .tuple(dateText(true), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 255 }))
      .map(([text, at, code]) =>
        (text + 'Z'.repeat(20)).slice(0, 20).split('').with(at, String.fromCharCode(code)).join(''),
      ),
  );

  it('reads exactly the plain form, as dateTimeMs does', () => {
    let read = 0;
    fc.assert(
      fc.property(plainLike, (text) => {
        const bytes = new TextEncoder().encode(text);
        const plain = bytes.length === 20 && isPlainDate(bytes, 0, 20);
        const ms = plainMs(text);
        expect(Number.isNaN(ms), text).toBe(!plain);
        if (plain) {
          read++;
          expect(ms, text).toBe(dateTimeMs(bytes, 0, 20));
        }
      }),
      { ...PROPERTY_RUNS, numRuns: 2000 },
    );
    expect(read).toBeGreaterThan(500);
    expect(plainMs('2024-02-29T23:59:59Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59));
    expect(plainMs('0000-01-01T00:00:00Z')).toBe(Date.parse('0000-01-01T00:00:00Z'));
    expect(plainMs('9999-12-31T23:59:59Z')).toBe(Date.parse('9999-12-31T23:59:59Z'));
    // Valid date-times, but not the text their time writes back: read by dateTimeMs instead.
    for (const text of ['2023-02-29T10:00:00Z', '2026-04-31T10:00:00Z', '2026-01-01T23:59:60Z'])
      expect(plainMs(text), text).toBeNaN();
  });
});
