import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateTimeMs, dateTimeMsOfText } from '../../src/shared/rfc3339.ts';
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
