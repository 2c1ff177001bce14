// Takes secrets out of anything on its way to the log file: the API keys main
// holds, and whatever follows "Bearer" or an Authorization header, whoever
// wrote it (our code, a library's error, a server that echoed the header).

import { withoutSecrets } from '../store-api/service-text.ts';

export const REDACTED = '[redacted]';

// "Authorization: Bearer x", "authorization":"Bearer x", "Bearer x" and
// "authorization=x": the value up to the next quote, comma, semicolon or line end.
const AUTHORIZATION_VALUE = /(\bauthorization\b["']?\s*[:=]\s*["']?)(?:bearer\s+)?[^"',;\r\n]+/gi;
const BEARER_TOKEN = /(\bbearer\s+)[^\s"',;]+/gi;

/** Keys shorter than this are not searched for: "ab" would redact half the log. */
const MIN_SECRET_LENGTH = 6;

/** `text` without Authorization values, and without any secret in any spelling an echo gives it. */
export function redactText(text: string, secrets: Iterable<string>): string {
  return withoutSecrets(
    text.replace(AUTHORIZATION_VALUE, `$1${REDACTED}`).replace(BEARER_TOKEN, `$1${REDACTED}`),
    secrets,
    REDACTED,
    MIN_SECRET_LENGTH,
  );
}

/**
 * A copy of a log argument with every string redacted: strings, errors (message,
 * stack, cause), arrays and plain objects (headers included), to a bounded depth.
 */
export function redactValue(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[nested too deep]';
  if (value instanceof Error) {
    const copy = new Error(redactText(value.message, secrets));
    copy.name = value.name;
    copy.stack = value.stack === undefined ? undefined : redactText(value.stack, secrets);
    if (value.cause !== undefined) copy.cause = redactValue(value.cause, secrets, depth + 1);
    return copy;
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1));
  if (value instanceof Map || value instanceof Headers) {
    return Object.fromEntries(
      [...value.entries()].map(([k, v]) => [k, redactValue(v, secrets, depth + 1)]),
    );
  }
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      /^(authorization|x-api-key|api-?key)$/i.test(k)
        ? REDACTED
        : redactValue(v, secrets, depth + 1),
    ]),
  );
}
