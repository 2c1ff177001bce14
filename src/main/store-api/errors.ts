// Turns every way a call can fail into a Failure a store clerk understands.
// Messages never contain the API key or the Authorization header.

import type { Delivery, Failure, FailureKind } from '../../shared/failures.ts';

export class StoreApiError extends Error {
  readonly failure: Failure;
  constructor(failure: Failure, options?: { cause?: unknown }) {
    super(failure.message, options);
    this.name = 'StoreApiError';
    this.failure = failure;
  }
}

export function failure(
  kind: FailureKind,
  message: string,
  delivery: Delivery,
  extra: Partial<Pick<Failure, 'status' | 'code' | 'retryAt'>> = {},
): StoreApiError {
  return new StoreApiError({ kind, message, delivery, ...extra });
}

/** HH:MM:SS in local time, as clerks read clocks. */
export function clockTime(epochMs: number): string {
  const d = new Date(epochMs);
  return [d.getHours(), d.getMinutes(), d.getSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
}

export interface ErrorBody {
  readonly code?: string;
  readonly message?: string;
}

const MAX_MESSAGE = 300;

function clean(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex
  const single = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  if (single === '') return undefined;
  return single.length > MAX_MESSAGE ? `${single.slice(0, MAX_MESSAGE - 1)}…` : single;
}

/**
 * Reads an Error body `{code, message, status}` leniently: the 409 and 429
 * bodies are not specified, so any JSON object with a string message or code
 * is used, and anything else (empty, HTML, plain text, broken JSON) yields
 * nothing, leaving the caller's plain-words message for the status.
 */
export function readErrorBody(text: string): ErrorBody {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const record = parsed as Record<string, unknown>;
  const nested =
    typeof record.error === 'object' && record.error !== null
      ? (record.error as Record<string, unknown>)
      : undefined;
  const message =
    clean(record.message) ?? clean(nested?.message) ?? clean(record.detail) ?? clean(record.error);
  const code = clean(record.code) ?? clean(nested?.code);
  return { ...(code !== undefined ? { code } : {}), ...(message !== undefined ? { message } : {}) };
}

/** Whether a 429 (or 401/403) says the key is banned rather than merely limited. */
export function saysBanned(body: ErrorBody): boolean {
  return /\bban(ned)?\b|_ban|ban_|suspend/i.test(`${body.code ?? ''} ${body.message ?? ''}`);
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The plain sentence, then the service's own words when they add something:
 * "Order 7 not found" says nothing "Order 7 was not found" did not, so each
 * thing is said once.
 */
export function withServerWords(plain: string, body: ErrorBody): string {
  if (!body.message) return plain;
  const said = new Set(words(plain));
  if (words(body.message).every((word) => said.has(word))) return plain;
  return `${plain} The service said: “${body.message}”`;
}

/** The system error code (ECONNREFUSED, ...) somewhere down an error's cause chain. */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function networkCause(error: unknown): string {
  switch (errorCode(error)) {
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was cut';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'its address could not be found';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return 'its security certificate was not accepted';
    default:
      return 'the network failed';
  }
}
