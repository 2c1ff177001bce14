import { describe, expect, it } from 'vitest';
import {
  InvalidKeyError,
  MAX_KEY_LENGTH,
  validateKey,
} from '../../../src/main/keys/key-validation.ts';

describe('validateKey', () => {
  it.each([
    ['a plain key', 'sk_live_abc123', 'sk_live_abc123'],
    ['surrounding whitespace', '\t sk_live_abc123 \r\n', 'sk_live_abc123'],
    ['ASCII punctuation', 'a.b-c_d~e+f/g=h:i', 'a.b-c_d~e+f/g=h:i'],
    ['exactly the maximum length', 'k'.repeat(MAX_KEY_LENGTH), 'k'.repeat(MAX_KEY_LENGTH)],
    ['a single character', 'k', 'k'],
  ])('accepts %s', (_label, input, value) => {
    expect(validateKey(input)).toEqual({ ok: true, value });
  });

  it.each([
    ['a number', 42, 'not-text'],
    ['undefined', undefined, 'not-text'],
    ['an empty string', '', 'empty'],
    ['only whitespace', ' \n\t ', 'empty'],
    ['one character over the maximum', 'k'.repeat(MAX_KEY_LENGTH + 1), 'too-long'],
    ['an inner space', 'abc def', 'whitespace'],
    ['an inner tab', 'abc\tdef', 'whitespace'],
    ['a non-breaking space', 'abc\u00a0def', 'whitespace'],
    ['a NUL', 'abc\u0000def', 'control-character'],
    ['a DEL', 'abc\u007fdef', 'control-character'],
    ['a zero-width joiner', 'abc\u200ddef', 'control-character'],
    ['an accented letter', 'abcédef', 'non-ascii'],
    ['an emoji', 'abc😀def', 'non-ascii'],
  ])('rejects %s', (_label, input, reason) => {
    const result = validateKey(input);
    expect(result).toMatchObject({ ok: false, reason });
    if (!result.ok) {
      expect(result.message).toMatch(/API key/);
      if (typeof input === 'string' && input.trim().length > 2)
        expect(result.message).not.toContain(input.trim());
    }
  });

  it('counts the length after trimming', () => {
    expect(validateKey(`  ${'k'.repeat(MAX_KEY_LENGTH)}  `).ok).toBe(true);
  });
});

describe('InvalidKeyError', () => {
  it('carries the reason and the message only', () => {
    const error = new InvalidKeyError('whitespace', 'The API key must not contain spaces.');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('InvalidKeyError');
    expect(error.reason).toBe('whitespace');
    expect(error.message).toBe('The API key must not contain spaces.');
  });
});
