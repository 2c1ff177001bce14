// Turns every way a call can fail into a Failure a store clerk understands.
// Messages never contain the API key or the Authorization header.

import { isNetworkError, isTimeoutError } from 'ky';
import type { Delivery, Failure, FailureKind } from '../../shared/failures.ts';
import { WEB_PAGE, type InvalidOrdersError } from '../../shared/order-list-scanner.ts';
import { dayWords, formatClock, formatHourMinute } from '../../shared/display-format.ts';
import { withoutControls } from './service-text.ts';
import {
  betweenWords,
  hostPlace,
  statusName,
  unsureWords,
  type Unsure,
} from '../../shared/unsure-words.ts';
import type { HoldReason } from '../../shared/quota.ts';

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

/**
 * The error codes down an error's cause chain, outermost first: Node's system
 * and TLS codes (ECONNREFUSED, CERT_HAS_EXPIRED, ...), undici's, and
 * Chromium's net errors, which Electron's net.fetch gives only as a message
 * ("net::ERR_CERT_AUTHORITY_INVALID").
 */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') codes.push(code);
    const chromium = typeof message === 'string' ? /^net::(ERR_[A-Z_]+)$/.exec(message) : null;
    if (chromium) codes.push(chromium[1]!);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

/** The first error code (ECONNREFUSED, ERR_CONNECTION_REFUSED, ...) down an error's cause chain. */
export function errorCode(error: unknown): string | undefined {
  return errorCodes(error)[0];
}

/** What was wrong with the certificate a connection was refused for, when that is why. */
export type CertificateProblem = 'untrusted' | 'out-of-date' | 'other-name' | 'invalid';

const CERTIFICATE_PROBLEMS: Readonly<Record<string, CertificateProblem>> = {
  // Node (OpenSSL's verify codes)
  UNABLE_TO_GET_ISSUER_CERT: 'untrusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'untrusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'untrusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'untrusted',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'untrusted',
  CERT_UNTRUSTED: 'untrusted',
  CERT_HAS_EXPIRED: 'out-of-date',
  CERT_NOT_YET_VALID: 'out-of-date',
  ERR_TLS_CERT_ALTNAME_INVALID: 'other-name',
  CERT_SIGNATURE_FAILURE: 'invalid',
  CERT_REVOKED: 'invalid',
  // Chromium (net/base/net_error_list.h), through Electron's net.fetch
  ERR_CERT_AUTHORITY_INVALID: 'untrusted',
  ERR_CERT_DATE_INVALID: 'out-of-date',
  ERR_CERT_COMMON_NAME_INVALID: 'other-name',
};

export function certificateProblem(error: unknown): CertificateProblem | undefined {
  for (const code of errorCodes(error)) {
    const problem = CERTIFICATE_PROBLEMS[code];
    if (problem) return problem;
    if (code.startsWith('ERR_CERT_')) return 'invalid';
  }
  return undefined;
}

/** "a certificate this computer does not trust", and the like: what a server showed. */
export function certificateWords(problem: CertificateProblem): string {
  return CERTIFICATE_WORDS[problem];
}

const CERTIFICATE_WORDS: Readonly<Record<CertificateProblem, string>> = {
  untrusted: 'a certificate this computer does not trust',
  'out-of-date': 'a certificate that is out of date (or this computer’s clock is wrong)',
  'other-name': 'a certificate made out to another name',
  invalid: 'a certificate that is not valid',
};

/**
 * A proxy that would not carry a request: it could not be reached, or it
 * refused the tunnel. Thrown by a fetch that goes through a proxy (the
 * command line's, src/cli/network.ts); `proxy` is its host and port only,
 * never a user name or password.
 */
export class ProxyRefusal extends TypeError {
  readonly code = 'STORE_ADMIN_PROXY_REFUSED';
  readonly proxy: string;
  /** The proxy's answer to CONNECT, when it gave one. */
  readonly status: number | undefined;
  constructor(proxy: string, status: number | undefined, options?: { cause?: unknown }) {
    super(`The proxy at ${proxy} did not carry the request.`, options);
    this.name = 'ProxyRefusal';
    this.proxy = proxy;
    this.status = status;
  }
}

/** Whether a request failed before any of it left: the connection, the proxy or TLS failed first. */
export function neverSent(error: unknown): boolean {
  if (error instanceof ProxyRefusal || certificateProblem(error) !== undefined) return true;
  const code = errorCode(error);
  return (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    code === 'ERR_CONNECTION_REFUSED' ||
    code === 'ERR_NAME_NOT_RESOLVED' ||
    code === 'ERR_PROXY_CONNECTION_FAILED' ||
    code === 'ERR_TUNNEL_CONNECTION_FAILED'
  );
}

export function networkCause(error: unknown): string {
  if (error instanceof ProxyRefusal) {
    if (error.status === 407)
      return `the proxy at ${error.proxy} asked for a user name and password (407)`;
    return error.status === undefined
      ? `the proxy at ${error.proxy} could not be reached`
      : `the proxy at ${error.proxy} would not connect to it (${error.status})`;
  }
  switch (errorCode(error)) {
    case 'ECONNREFUSED':
    case 'ERR_CONNECTION_REFUSED':
      return 'the connection was refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'ERR_CONNECTION_RESET':
    case 'ERR_CONNECTION_CLOSED':
      return 'the connection was cut';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ERR_NAME_NOT_RESOLVED':
      return 'its address could not be found';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ERR_CONNECTION_TIMED_OUT':
      return 'the connection timed out';
    case 'ERR_PROXY_CONNECTION_FAILED':
      return 'the system’s proxy could not be reached';
    case 'ERR_TUNNEL_CONNECTION_FAILED':
      return 'the system’s proxy would not connect to it';
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

/**
 * A 5xx on every try the client allowed itself. `betweenHost`: the answer
 * was not the service's JSON (a gateway's or a proxy's page), so it is said
 * to come from the address or something between it and this computer.
 */
export function serverGaveUp(
  status: number,
  tries: number,
  body: ErrorBody,
  delivery: Delivery,
  betweenHost?: string,
): StoreApiError {
  const what =
    betweenHost === undefined
      ? `The store service had a problem (${status}) and did not finish the request`
      : `${capitalized(betweenWords(hostPlace(betweenHost)))} answered ${statusName(status)} in place of the store service`;
  return failure(
    'server',
    withServerWords(
      `${what}${tries > 1 ? `, though Store Admin tried ${tries} times` : ''}. Try again in a few minutes.`,
      body,
    ),
    delivery,
    { status, ...(body.code ? { code: body.code } : {}) },
  );
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A redirect away from the service is most often a network that wants its
 * users to sign in first (a hotel's, or a company's proxy): what to do then.
 */
const KEY_KEPT_SIGN_IN =
  'Store Admin did not go there, so the API key was not sent. Sign in to the network in a browser, then retry.';

/** A redirect to another origin: not followed, so the key stays with the service. */
export function redirectElsewhere(
  status: number,
  host: string | undefined,
  delivery: Delivery,
): StoreApiError {
  return failure(
    'redirect',
    `The store service’s address sent Store Admin to another site${host ? ` (${host})` : ''} instead of answering: perhaps this network’s sign-in page. ${KEY_KEPT_SIGN_IN}`,
    delivery,
    { status },
  );
}

/**
 * Too many redirects, or one that would change a DELETE into a GET, or (in
 * the app) any redirect, whose status and address Electron's net.fetch does
 * not give: then where it pointed is unknown, and a sign-in page likely.
 */
export function redirectNotFollowed(status: number | undefined, delivery: Delivery): StoreApiError {
  return failure(
    'redirect',
    status === undefined
      ? `The store service’s address sent Store Admin somewhere else instead of answering: perhaps this network’s sign-in page. ${KEY_KEPT_SIGN_IN}`
      : 'The store service answered with redirects Store Admin does not follow.',
    delivery,
    status === undefined ? {} : { status },
  );
}

/**
 * Electron's net.fetch cannot hand back a redirect under `redirect: 'manual'`:
 * it fails the request with this message instead (a ClientRequest whose
 * redirect is not followed, lib/common/api/net-client-request.ts).
 */
export function isCancelledRedirect(error: unknown): boolean {
  return error instanceof Error && error.message === 'Redirect was cancelled';
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
  const certificate = certificateProblem(error);
  if (certificate) {
    // One sentence naming the host: nothing left this computer, so a cancel was not sent either.
    return failure(
      'network',
      `${lead}The store service at ${service.host} showed ${CERTIFICATE_WORDS[certificate]}, so nothing was sent.`,
      delivery,
    );
  }
  const reason =
    isNetworkError(error) || error instanceof TypeError || errorCode(error) !== undefined
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

/** Why a 429 (or the gate's own hold) stops a request, after "Rate-limited until HH:MM:SS." */
const LIMITED_WHY: Readonly<Record<Exclude<HoldReason, 'banned'>, (host: string) => string>> = {
  'server-429': () => 'The service asked Store Admin to slow down (429).',
  'gateway-429': (host) =>
    `A gateway between this computer and the store service is limiting requests: ${betweenWords(hostPlace(host))} answered ${statusName(429)}, and the service’s own quota is not used up.`,
  'quota-exhausted': () => 'The quota for this period is used up.',
};

/**
 * A 429 or the gate's own hold: banned, or rate-limited until `retryAt`, and
 * why. `host`: the service's address, named when a gateway is limiting.
 */
export function limitedFailure(
  reason: HoldReason,
  retryAt: number,
  body: ErrorBody,
  delivery: Delivery,
  now?: number,
  host = 'the service’s address',
): StoreApiError {
  const until = now === undefined ? clockTime(retryAt) : clockTimeFrom(retryAt, now);
  const nothingSent = delivery === 'not-sent' ? ' Nothing was sent.' : '';
  const extra = { status: 429, retryAt, ...(body.code ? { code: body.code } : {}) };
  if (reason === 'banned') {
    return failure(
      'banned',
      withServerWords(
        `The service has temporarily banned this API key for repeated requests after a rate limit. Store Admin sends nothing until ${until}.${nothingSent}`,
        body,
      ),
      delivery,
      extra,
    );
  }
  // A gateway's limit is a pace, not the key's quota: no ban follows from it.
  const waits =
    reason === 'gateway-429'
      ? 'Store Admin waits a few seconds between tries.'
      : 'Store Admin waits rather than retrying, because repeated requests after a limit can get the key banned.';
  return failure(
    'rate-limited',
    `Rate-limited until ${until}. ${LIMITED_WHY[reason](host)}${nothingSent} ${waits}`,
    delivery,
    extra,
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

/**
 * The service's address answered with a web page where the store service
 * answers JSON (or with 511, "sign in to the network"): something in between
 * answered, typically a hotel's or a company's sign-in page (a captive
 * portal). A network condition, so the notices say it as one: kind `network`.
 */
export function webPageAnswer(
  status: number,
  host: string,
  delivery: Delivery,
  lead = '',
): StoreApiError {
  return failure(
    'network',
    `${lead ? `${lead} ` : ''}The address ${host} answered with a web page, not the store service (perhaps a sign-in page of this network).`,
    delivery,
    { status },
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

/** What this computer knows of an order before a 404 to its cancel: its cancel log, and its last list. */
export interface EarlierCancel {
  /** When the service confirmed a cancel of it (epoch ms). */
  readonly cancelledAt?: number;
  /** When a cancel of it went out and no answer said what the service did (epoch ms). */
  readonly unknownAt?: number;
  /** When the last list that held it was received (epoch ms): it existed then. */
  readonly listedAt?: number;
}

/**
 * A 404 to a cancel, in words that claim no more than is known. `unsure`: an
 * earlier try of this cancel may have reached the service (a cut
 * connection, a 5xx, a gateway's page), so this cancel may have removed it.
 */
export function cancelNotFound(
  orderId: string,
  body: ErrorBody,
  unsure: Unsure | undefined,
  earlier: EarlierCancel | undefined,
  host: string,
): { readonly kind: 'not-found' | 'gone'; readonly message: string; readonly listedAt?: number } {
  const cancelledAt = earlier?.cancelledAt;
  if (cancelledAt !== undefined) {
    // The service confirmed an earlier cancel: a lost answer since changes nothing.
    return {
      kind: 'not-found',
      message: `Order ${orderId} was already cancelled at ${formatHourMinute(cancelledAt)}, so there was nothing left to cancel.`,
    };
  }
  if (unsure) {
    return {
      kind: 'gone',
      message: `Order ${orderId} is gone: ${unsureWords(unsure, hostPlace(host), 'the first try')}, so this cancel may or may not have removed it.`,
    };
  }
  if (earlier?.unknownAt !== undefined) {
    return {
      kind: 'gone',
      message: `Order ${orderId} is gone; the cancel sent at ${formatHourMinute(earlier.unknownAt)} got no answer that said what the service did, so that cancel may or may not have removed it.`,
    };
  }
  if (earlier?.listedAt !== undefined) {
    // It existed at the last list: removed since, by someone else, or by this very request if
    // something in between sent it twice (a proxy that retries after a cut connection).
    return {
      kind: 'not-found',
      message: withServerWords(
        `Order ${orderId} no longer exists: it was in the list of ${formatHourMinute(earlier.listedAt)} and has been cancelled or removed since (perhaps by this very cancel, if the network sent it twice).`,
        body,
      ),
      listedAt: earlier.listedAt,
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
