// The scrubber on its own: keys and Authorization values never survive it.

import { describe, expect, it } from 'vitest';
import { REDACTED, redactText, redactValue } from '../../../src/main/desktop/scrub.ts';

const KEY = 'canary-Key-7f3a9c41e2d8';

describe('redactText', () => {
  it('takes out Authorization values and bearer tokens in any spelling', () => {
    for (const line of [
      `Authorization: Bearer ${KEY}`,
      `authorization:bearer ${KEY}`,
      `{"authorization":"Bearer ${KEY}"}`,
      `{'Authorization': '${KEY}'}`,
      `authorization=${KEY}; path=/`,
      `sent with bearer ${KEY} to the service`,
    ]) {
      const scrubbed = redactText(line, []);
      expect(scrubbed, line).not.toContain(KEY);
      expect(scrubbed, line).toContain(REDACTED);
    }
  });

  it('takes out every known secret wherever it appears, and leaves other text alone', () => {
    expect(redactText(`the service said: key ${KEY} is unknown (${KEY})`, [KEY])).toBe(
      `the service said: key ${REDACTED} is unknown (${REDACTED})`,
    );
    expect(redactText('Order 42 was cancelled.', [KEY])).toBe('Order 42 was cancelled.');
    // A secret too short to be a key would redact ordinary words.
    expect(redactText('the order was cancelled', ['the'])).toBe('the order was cancelled');
  });
});

describe('redactValue', () => {
  it('scrubs errors (message, stack, cause), arrays, objects and header maps, keeping their shape', () => {
    const cause = new Error(`echoed Authorization: Bearer ${KEY}`);
    const error = new TypeError(`request with ${KEY} failed`, { cause });
    const value = redactValue(
      [
        error,
        { headers: { Authorization: `Bearer ${KEY}`, accept: 'application/json' } },
        new Headers({ authorization: `Bearer ${KEY}` }),
        new Map([['note', `key=${KEY}`]]),
        42,
        null,
      ],
      [KEY],
    ) as unknown[];
    const text = JSON.stringify(value, (_k, v: unknown) =>
      v instanceof Error ? { name: v.name, message: v.message, stack: v.stack, cause: v.cause } : v,
    );
    expect(text).not.toContain(KEY);
    const scrubbedError = value[0] as Error;
    expect(scrubbedError).toBeInstanceOf(Error);
    expect(scrubbedError.name).toBe('TypeError');
    expect(scrubbedError.message).toBe(`request with ${REDACTED} failed`);
    expect(value[1]).toEqual({
      headers: { Authorization: REDACTED, accept: 'application/json' },
    });
    expect(value.slice(4)).toEqual([42, null]);
  });

  it('stops at a bounded depth instead of following a cycle', () => {
    const cyclic: Record<string, unknown> = { note: KEY };
    cyclic.self = cyclic;
    expect(JSON.stringify(redactValue(cyclic, [KEY]))).not.toContain(KEY);
  });
});
