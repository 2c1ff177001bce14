// Turns every way a call can fail into a Failure a store clerk understands.
// Messages never contain the API key or the Authorization header.

import { isNetworkError, isTimeoutError } from 'ky';
import type { Delivery, Failure, FailureKind } from '../../shared/failures.ts';
import { WEB_PAGE, type InvalidOrdersError } from '../../shared/order-list-scanner.ts';
import { dayWords, formatClock, formatHourMinute } from '../../shared/display-format.ts';
import { withoutControls } from './service-text.ts';

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

/** The time of day with seconds, in the desktop's form (HH:MM:SS until a locale is given). */
export function clockTime(epochMs: number): string {
  return formatClock(epochMs);
}

export interface ErrorBody {
  readonly code?: string;
  readonly message?: string;
}

const MAX_MESSAGE = 300;

/** Made safe to show (see service-text.ts) before it is cut to length, so no key is left half. */
export type Tidy = (text: string) => string;

function clean(text: unknown, tidy: Tidy): string | undefined {
  if (typeof text !== 'string') return undefined;
  const single = tidy(text);
  if (single === '') return undefined;
  return single.length > MAX_MESSAGE ? `${single.slice(0, MAX_MESSAGE - 1)}…` : single;
}

/**
 * Reads an Error body `{code, message, status}` leniently: the 409 and 429
 * bodies are not specified, so any JSON object with a string message or code
 * is used, and anything else (empty, HTML, plain text, broken JSON) yields
 * nothing, leaving the caller's plain-words message for the status.
 */
export function readErrorBody(text: string, tidy: Tidy = withoutControls): ErrorBody {
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
    clean(record.message, tidy) ??
    clean(nested?.message, tidy) ??
    clean(record.detail, tidy) ??
    clean(record.error, tidy);
  const code = clean(record.code, tidy) ?? clean(nested?.code, tidy);
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

// ---- The client's failures, each in the words a clerk reads (client.ts decides which) ----

/** No key to send with the request: `keyHelp` says where the person asking sets one. */
export function noKeyFailure(keyHelp: string): StoreApiError {
  return failure('no-key', `No API key is set for this environment. ${keyHelp}`, 'not-sent');
}

export function notAnOrderNumber(orderId: string): StoreApiError {
  return failure('invalid-input', `“${orderId.slice(0, 40)}” is not an order number.`, 'not-sent');
}

/** A 5xx on every try the client allowed itself. */
export function serverGaveUp(
  status: number,
  tries: number,
  body: ErrorBody,
  delivery: Delivery,
): StoreApiError {
  return failure(
    'server',
    withServerWords(
      `The store service had a problem (${status}) and did not finish the request${tries > 1 ? `, though Store Admin tried ${tries} times` : ''}. Try again in a few minutes.`,
      body,
    ),
    delivery,
    { status, ...(body.code ? { code: body.code } : {}) },
  );
}

/** A redirect to another origin: not followed, so the key stays with the service. */
export function redirectElsewhere(
  status: number,
  host: string | undefined,
  delivery: Delivery,
): StoreApiError {
  return failure(
    'redirect',
    `The store service tried to send Store Admin to another site${host ? ` (${host})` : ''}. Store Admin did not follow it, so the API key stayed with the store service.`,
    delivery,
    { status },
  );
}

/** Too many redirects, or one that would change a DELETE into a GET. */
export function redirectNotFollowed(status: number, delivery: Delivery): StoreApiError {
  return failure(
    'redirect',
    'The store service answered with redirects Store Admin does not follow.',
    delivery,
    { status },
  );
}

/**
 * No answer: the call's deadline or the caller stopped it, an attempt timed
 * out, or the network failed. `prefix` says what was being done.
 */
export function noAnswerFailure(
  error: unknown,
  signal: AbortSignal,
  delivery: Delivery,
  service: { readonly host: string; readonly attemptTimeoutMs: number },
  prefix = '',
): StoreApiError {
  const lead = prefix ? `${prefix} ` : '';
  if (signal.aborted && (signal.reason as Error | undefined)?.name === 'TimeoutError') {
    return failure(
      'timeout',
      `${lead}The store service did not finish answering in time.`,
      delivery,
    );
  }
  if (signal.aborted) return failure('aborted', `${lead}Stopped.`, delivery);
  if (isTimeoutError(error)) {
    return failure(
      'timeout',
      `${lead}The store service did not answer within ${Math.round(service.attemptTimeoutMs / 1000)} seconds.`,
      delivery,
    );
  }
  const reason =
    isNetworkError(error) || error instanceof TypeError
      ? networkCause(error)
      : 'the network failed';
  return failure(
    'network',
    `${lead}Could not reach the store service at ${service.host}: ${reason}.`,
    delivery,
  );
}

/** The time of day, with "tomorrow" or the day when it is not today's (local time). */
export function clockTimeFrom(epochMs: number, now: number): string {
  const day = dayWords(epochMs, now);
  return day ? `${formatClock(epochMs)} ${day}` : formatClock(epochMs);
}

/** A 429 or the gate's own hold: banned, or rate-limited until `retryAt`. */
export function limitedFailure(
  banned: boolean,
  retryAt: number,
  body: ErrorBody,
  delivery: Delivery,
  exhausted = false,
  now?: number,
): StoreApiError {
  const until = now === undefined ? clockTime(retryAt) : clockTimeFrom(retryAt, now);
  const nothingSent = delivery === 'not-sent' ? ' Nothing was sent.' : '';
  if (banned) {
    return failure(
      'banned',
      withServerWords(
        `The service has temporarily banned this API key for repeated requests after a rate limit. Store Admin sends nothing until ${until}.${nothingSent}`,
        body,
      ),
      delivery,
      { status: 429, retryAt, ...(body.code ? { code: body.code } : {}) },
    );
  }
  const why = exhausted
    ? 'The quota for this period is used up.'
    : 'The service asked Store Admin to slow down (429).';
  return failure(
    'rate-limited',
    `Rate-limited until ${until}. ${why}${nothingSent} Store Admin waits rather than retrying, because repeated requests after a limit can get the key banned.`,
    delivery,
    { status: 429, retryAt, ...(body.code ? { code: body.code } : {}) },
  );
}

/**
 * An answer the call cannot use, by its status, after `lead` (what failed).
 * `keyRefused` says where the person asking checks the key.
 */
export function statusFailure(
  status: number,
  body: ErrorBody,
  lead: string,
  earlierAnswerLost: boolean,
  keyRefused: string,
): StoreApiError {
  const extra = { status, ...(body.code ? { code: body.code } : {}) };
  const delivery = earlierAnswerLost ? 'unknown' : 'answered';
  if (status === 401 || status === 403) {
    return failure(
      'unauthorized',
      withServerWords(
        `${lead} The API key is missing or was not accepted (${status}). ${keyRefused}`,
        body,
      ),
      delivery,
      extra,
    );
  }
  if (status === 404) {
    return failure(
      'not-found',
      withServerWords(`${lead} The service says this does not exist (404).`, body),
      delivery,
      extra,
    );
  }
  if (status === 409) {
    return failure(
      'conflict',
      withServerWords(`${lead} The service refused because of the current state (409).`, body),
      delivery,
      extra,
    );
  }
  if (status >= 500) {
    return failure(
      'server',
      withServerWords(`${lead} The store service had a problem (${status}).`, body),
      delivery,
      extra,
    );
  }
  return failure(
    status >= 400 ? 'bad-request' : 'invalid-response',
    withServerWords(`${lead} The service answered with an unexpected status (${status}).`, body),
    delivery,
    extra,
  );
}

/** The invalid-response failure a clerk can read, for a list the scanner refused. */
export function unreadableList(error: InvalidOrdersError): StoreApiError {
  if (error.message === WEB_PAGE)
    return failure(
      'invalid-response',
      'The store service answered with a web page instead of the order list (a sign-in page or a network error page, perhaps). Check the address in use. Nothing was replaced.',
      'answered',
      { status: 200 },
    );
  return failure(
    'invalid-response',
    `The store service sent an order list Store Admin cannot read (${error.message}). Nothing was replaced.`,
    'answered',
    { status: 200 },
  );
}

/** A 409 to a cancel. */
export function alreadyShippedWords(orderId: string, body: ErrorBody): string {
  return withServerWords(
    `Order ${orderId} has already shipped and cannot be cancelled. Shipped orders cannot be reversed.`,
    body,
  );
}

/** What this computer's cancel log knows of earlier cancels of an order. */
export interface EarlierCancel {
  /** When the service confirmed a cancel of it (epoch ms). */
  readonly cancelledAt?: number;
  /** When a cancel of it went out and no answer said what the service did (epoch ms). */
  readonly unknownAt?: number;
}

/** A 404 to a cancel, in words that claim no more than is known. */
export function cancelNotFound(
  orderId: string,
  body: ErrorBody,
  earlierAnswerLost: boolean,
  earlier: EarlierCancel | undefined,
): { readonly kind: 'not-found' | 'gone'; readonly message: string } {
  const cancelledAt = earlier?.cancelledAt;
  if (cancelledAt !== undefined) {
    // The service confirmed an earlier cancel: a lost answer since changes nothing.
    return {
      kind: 'not-found',
      message: `Order ${orderId} was already cancelled at ${formatHourMinute(cancelledAt)}, so there was nothing left to cancel.`,
    };
  }
  if (earlierAnswerLost) {
    return {
      kind: 'gone',
      message: `Order ${orderId} is gone; the answer to the first try was lost, so this cancel may or may not have removed it.`,
    };
  }
  if (earlier?.unknownAt !== undefined) {
    return {
      kind: 'gone',
      message: `Order ${orderId} is gone; the cancel sent at ${formatHourMinute(earlier.unknownAt)} got no answer that said what the service did, so that cancel may or may not have removed it.`,
    };
  }
  return {
    kind: 'not-found',
    message: withServerWords(
      `Order ${orderId} was not found, so there was nothing to cancel.`,
      body,
    ),
  };
}
