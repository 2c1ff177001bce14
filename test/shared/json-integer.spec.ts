import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { integerOfNumber } from '../../src/shared/json-integer.ts';
import {
  PROPERTY_RUNS,
  exactInteger,
  int64ish,
  notWholeForms,
  wholeForms,
} from '../../tools/fuzz/order-lists.ts';

describe('integerOfNumber', () => {
  it('gives the canonical digits of whole numbers in any form', () => {
    expect(integerOfNumber('9223372036854775769e0')).toBe('9223372036854775769');
    expect(integerOfNumber('-0.0e7')).toBe('0');
    expect(integerOfNumber('1.50E1')).toBe('15');
    expect(integerOfNumber('1200e-2')).toBe('12');
    fc.assert(
      fc.property(
        int64ish.chain((v) => fc.tuple(fc.constant(v), wholeForms(v))),
        ([v, form]) => {
          expect(integerOfNumber(form), form).toBe(v.toString());
        },
      ),
      PROPERTY_RUNS,
    );
  });

  it('tells fractions and numbers of more than 40 digits apart, as the reference does', () => {
    expect(integerOfNumber('9007199254740992.5')).toBe('fraction');
    expect(integerOfNumber('1e-99999999999999999999')).toBe('fraction');
    expect(integerOfNumber('1e99999999999999999999')).toBe('too-large');
    expect(integerOfNumber('0e99999999999999999999')).toBe('0');
    fc.assert(
      fc.property(
        int64ish.chain((v) => notWholeForms(v)),
        (form) => {
          const exact = exactInteger(form);
          const got = integerOfNumber(form);
          if (exact === 'fraction') expect(got, form).toBe('fraction');
          else if (got === 'too-large')
            expect(exact >= 10n ** 40n || exact <= -(10n ** 40n)).toBe(true);
          else expect(got, form).toBe(exact.toString());
        },
      ),
      PROPERTY_RUNS,
    );
  });
});
