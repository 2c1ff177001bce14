// One maximum length for a base address, checked by the one rule Settings,
// main and the command line all use.

import { describe, expect, it } from 'vitest';
import { MAX_BASE_URL_LENGTH, validateBaseUrl } from '../../src/shared/environments.ts';

/** An address of exactly `length` characters, ending with /v1. */
function addressOfLength(length: number, origin = 'https://api.example.com'): string {
  const path = `/${'p'.repeat(length - origin.length - '/v1'.length - 1)}/v1`;
  return `${origin}${path}`;
}

describe('validateBaseUrl and the longest address', () => {
  it(`accepts ${MAX_BASE_URL_LENGTH} characters and refuses one more, in plain words`, () => {
    expect(addressOfLength(MAX_BASE_URL_LENGTH)).toHaveLength(MAX_BASE_URL_LENGTH);
    expect(validateBaseUrl(addressOfLength(MAX_BASE_URL_LENGTH))).toEqual({
      ok: true,
      value: addressOfLength(MAX_BASE_URL_LENGTH),
    });
    expect(validateBaseUrl(addressOfLength(MAX_BASE_URL_LENGTH + 1))).toEqual({
      ok: false,
      message: `This address is too long: at most ${MAX_BASE_URL_LENGTH} characters.`,
    });
  });

  it('measures the address as it will be kept, after a name in another script is encoded', () => {
    // 'ü' becomes %C3%BC in the path: short as typed, too long once normalised.
    const typed = `https://api.example.com/${'ü'.repeat(100)}/v1`;
    expect(typed.length).toBeLessThan(MAX_BASE_URL_LENGTH);
    expect(validateBaseUrl(typed)).toMatchObject({
      ok: false,
      message: expect.stringContaining('too long'),
    });
  });
});
