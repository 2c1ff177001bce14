// Checks a key the user typed or pasted before it is kept. Messages say what
// is wrong in plain words and never repeat the key.

export const MAX_KEY_LENGTH = 4096;

export type KeyRejection =
  'not-text' | 'empty' | 'too-long' | 'whitespace' | 'control-character' | 'non-ascii';

export type KeyValidation =
  { ok: true; value: string } | { ok: false; reason: KeyRejection; message: string };

const MESSAGES: Readonly<Record<KeyRejection, string>> = {
  'not-text': 'The API key must be text.',
  empty: 'Enter the API key.',
  'too-long': `The API key is longer than ${MAX_KEY_LENGTH} characters. Check that only the key was pasted.`,
  whitespace:
    'The API key must not contain spaces or line breaks. Check that only the key was pasted.',
  'control-character':
    'The API key contains an invisible control character. Copy it again from where it was issued.',
  'non-ascii':
    'The API key may only contain letters, digits and ASCII punctuation; it contains other characters, such as curly quotes or accented letters.',
};

/**
 * Trims the input and accepts it if it is 1 to MAX_KEY_LENGTH visible ASCII
 * characters: a key goes into an HTTP header, where anything else either
 * breaks the request or is a pasting accident.
 */
export function validateKey(input: unknown): KeyValidation {
  const reject = (reason: KeyRejection): KeyValidation => ({
    ok: false,
    reason,
    message: MESSAGES[reason],
  });
  if (typeof input !== 'string') return reject('not-text');
  const key = input.trim();
  if (key === '') return reject('empty');
  if (key.length > MAX_KEY_LENGTH) return reject('too-long');
  if (/\s/u.test(key)) return reject('whitespace');
  if (/[\p{Cc}\p{Cf}]/u.test(key)) return reject('control-character');
  if (/[^\x21-\x7e]/.test(key)) return reject('non-ascii');
  return { ok: true, value: key };
}

/** Thrown by KeyStore.setKey for a key validateKey rejects. */
export class InvalidKeyError extends Error {
  readonly reason: KeyRejection;

  constructor(reason: KeyRejection, message: string) {
    super(message);
    this.name = 'InvalidKeyError';
    this.reason = reason;
  }
}
