import { describe, expect, it } from 'vitest';
import { INT64_MAX, INT64_MIN, parseInt64Id } from '../../../src/main/sandbox/int64-id.ts';

describe('parseInt64Id', () => {
  it('reads canonical decimal integers exactly, above 2^53 included', () => {
    expect(parseInt64Id('0')).toBe(0n);
    expect(parseInt64Id('42')).toBe(42n);
    expect(parseInt64Id('-7')).toBe(-7n);
    expect(parseInt64Id('9007199254740993')).toBe(9007199254740993n);
    expect(parseInt64Id('9223372036854775807')).toBe(INT64_MAX);
    expect(parseInt64Id('-9223372036854775808')).toBe(INT64_MIN);
  });

  it.each([
    ['empty', ''],
    ['leading zero', '042'],
    ['negative zero', '-0'],
    ['plus sign', '+42'],
    ['leading space', ' 42'],
    ['trailing space', '42 '],
    ['decimal point', '4.2'],
    ['exponent', '1e3'],
    ['hex', '0x2a'],
    ['letters', 'abc'],
    ['above int64', '9223372036854775808'],
    ['below int64', '-9223372036854775809'],
    ['far too long', '1'.repeat(40)],
  ])('rejects %s', (_name, text) => {
    expect(parseInt64Id(text)).toBeUndefined();
  });
});
