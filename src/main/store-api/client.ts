// The one client of the store service, used by the app and the CLI alike.
// Every request goes through the key's RequestGate; failures are retried only
// where safe, with full-jitter backoff, a bounded number of 429 retries and a
// global retry budget, so a storm never turns into a ban.

import { availableParallelism } from 'node:os';
import ky, { isTimeoutError, type KyInstance } from 'ky';
import type { Failure } from '../../shared/failures.ts';
import { hostPlace, unsureCancelWords, type Unsure } from '../../shared/unsure-words.ts';
import { isInt64Text, type Order } from '../../shared/order.ts';
import { MAX_INLINE_WAIT_MS, type QuotaSnapshot } from '../../shared/quota.ts';
import { DEFAULT_BACKOFF, fullJitterDelay, type BackoffPolicy } from './backoff.ts';
import { realTiming, type Timing } from './clock.ts';
import { HeldBackError, type Priority, type RequestGate } from '../quota/gate.ts';
import { readRateLimitHeaders, type RateLimitReading } from '../quota/rate-limit-headers.ts';
import { latestBelievable, MAX_BELIEVED_WAIT_MS, parseRetryAfter } from '../quota/retry-after.ts';
import { ServerClock } from '../quota/server-clock.ts';
import type { RetryBudget } from './retry-budget.ts';
import {
  ProxyRefusal,
  StoreApiError,
  alreadyShippedWords,
  certificateProblem,
  isCancelledRedirect,
  cancelNotFound,
  limitedFailure,
  neverSent,
  noAnswerFailure,
  noKeyFailure,
  notAnOrderNumber,
  readErrorBody,
  redirectElsewhere,
  redirectNotFollowed,
  saysBanned,
  serverGaveUp,
  statusFailure,
  unreadableList,
  webPageAnswer,
  type EarlierCancel,
  type ErrorBody,
} from './errors.ts';
import { ordersOf, type OrderColumns } from '../../shared/order-columns.ts';
import { InvalidOrdersError, type OrderListScanner } from '../../shared/order-list-scanner.ts';
import type { StoreEndpoint } from '../../shared/deprecations.ts';
import { readDeprecationHeaders, type DeprecationHeaders } from './deprecation.ts';
import { KEY_PLACEHOLDER, serviceText, withoutSecrets } from './service-text.ts';
import { listScannerFor } from './list-scanner-choice.ts';

export interface StoreClientOptions {
  /** Validated base URL ending with /v1 (src/shared/environments.ts). */
  readonly baseUrl: string;
  /** Read at each request, so a key change applies at once. */
  readonly getKey: () => string | undefined;
  readonly gate: RequestGate;
  readonly budget: RetryBudget;
  readonly timing?: Timing;
  readonly fetch?: typeof fetch;
  /** Time to the response headers, per attempt. */
  readonly attemptTimeoutMs?: number;
  /** The whole call, retries and body included. Lists can be huge: generous. */
  readonly totalTimeoutMs?: number;
  /** Retries after network errors and 5xx. */
  readonly maxRetries?: number;
  /** Retries after a 429 (each waits at the gate first). */
  readonly max429Retries?: number;
  /** A wait longer than this fails at once ("rate-limited until ...") instead of holding the call open. */
  readonly maxInlineWaitMs?: number;
  readonly backoff?: BackoffPolicy;
  /** Where the person asking sets the key, in the words of their tool (the app's Settings, the CLI's environment variable). */
  readonly keyHelp?: KeyHelp;
  /**
   * What each answer says of its endpoint's deprecation (deprecation.ts):
   * the headers' reading when it carries any, undefined for a successful
   * answer without them.
   */
  readonly onDeprecation?: (endpoint: StoreEndpoint, said: DeprecationHeaders | undefined) => void;
  /**
   * What each attempt came to (an answer, or none), retries included, for
   * working out whether the service can be reached. Not called for an
   * attempt the caller stopped.
   */
  readonly onAttempt?: (outcome: AttemptOutcome) => void;
  /**
   * A list this long or longer (declared, or once this much has come) is
   * scanned on a thread of its own (THREAD_FROM_BYTES by default, on a
   * machine of more than one core; Infinity reads every list on main).
   */
  readonly listThreadFromBytes?: number;
}

/** What one attempt to reach the service came to (src/main/environments/connectivity.ts reads it). */
export type AttemptOutcome =
  | { readonly answered: true }
  | {
      readonly answered: false;
      /**
       * Known at once not to have reached the service (a refused connection,
       * an unknown host), rather than an answer that may have been lost.
       */
      readonly refused: boolean;
      /** Why, in plain words. */
      readonly message: string;
      /**
       * `web-page`: the address answered with a web page, not the store
       * service (a network's sign-in page, say): an answer, but not the service's.
       */
      readonly cause?: 'web-page';
    };

export interface KeyHelp {
  /** Said when no key is set, e.g. "Add one in Settings." */
  readonly missing: string;
  /** Said when the service refuses the key, e.g. "Check the key in Settings." */
  readonly refused: string;
}

/** The app's words: keys are entered in Settings. */
export const APP_KEY_HELP: KeyHelp = {
  missing: 'Add one in Settings.',
  refused: 'Check the key in Settings.',
};

export interface DownloadProgress {
  /** The list's bytes read so far (decoded, when it was sent compressed). */
  readonly receivedBytes: number;
  /** Undefined when not known: no Content-Length, or a body sent compressed (its length is not the list's). */
  readonly totalBytes?: number;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  /**
   * Stops the call before anything more of it is sent: a wait at the gate or
   * between tries ends at once (the call fails as stopped) and no other try
   * goes out. Unlike `signal`, an attempt already on its way is let finish,
   * so its answer is known (a DELETE cut off would leave it unknown).
   */
  readonly stop?: AbortSignal;
  /**
   * Told as each attempt leaves for the service (past the gate and the stop):
   * from then on its answer can still land after a stop.
   */
  readonly onSent?: () => void;
  readonly priority?: Priority;
  /** Overrides maxInlineWaitMs: background work may wait at the gate for a window to reset. */
  readonly maxWaitMs?: number;
}

/** What one logical request carries inside the client, past the public call. */
type SendOptions = CallOptions & {
  readonly signal: AbortSignal;
  readonly endpoint: StoreEndpoint;
  /** An earlier attempt of this call may have reached the service (its answer was lost). */
  readonly previousAttemptUnknown?: boolean;
  /** "Try now": exactly one request, through a hold. */
  readonly throughHold?: boolean;
  /** Never tried again, whatever the answer (a key just entered is checked with one request). */
  readonly once?: boolean;
};

export type ListOptions = CallOptions & {
  readonly onProgress?: (progress: DownloadProgress) => void;
};

export type ColumnListOptions = ListOptions & {
  /**
   * Each chunk of the body as it arrives, after the scanner has read it (to
   * write it to the cache). Awaited, so a slow disk slows the download
   * rather than filling memory.
   */
  readonly onChunk?: (chunk: Uint8Array, read: RowsRead) => void | Promise<void>;
};

/**
 * A list this long or longer (about 45,000 orders) is scanned on a thread of
 * its own (list-scanner-thread.ts): one whose size is declared from the
 * start, and one whose size is not known (chunked, or sent compressed) once
 * this much of it has come (list-scanner-choice.ts); a shorter one is read
 * sooner on main than a thread starts.
 */
export const THREAD_FROM_BYTES = 4 * 1024 * 1024;

/** The orders read so far while a list downloads (see OrderListScanner.rowsSoFar). */
export interface RowsRead extends Pick<OrderListScanner, 'count' | 'rowsSoFar'> {
  readonly receivedBytes: number;
  /** From Content-Length; undefined when not known (see DownloadProgress). */
  readonly totalBytes: number | undefined;
}

export interface OrderList {
  readonly orders: Order[];
  readonly receivedAt: number;
  readonly bytes: number;
}

/** A whole, validated order list as columns (src/shared/order-columns.ts). */
export interface OrderColumnList {
  readonly columns: OrderColumns;
  /** Epoch ms when the last byte arrived. */
  readonly receivedAt: number;
  /** The body's size as received. */
  readonly bytes: number;
}

export interface OrderListBody {
  readonly body: string;
  readonly count: number;
  readonly receivedAt: number;
  readonly bytes: number;
}

/**
 * What a cancel came to. Only `cancelled` means the service said it cancelled
 * the order. `gone`: a 404 after a try whose answer was lost, so the order
 * may have been removed by that try, or have been gone before.
 */
export type CancelOutcome = {
  readonly kind: 'cancelled' | 'not-found' | 'gone' | 'already-shipped';
  readonly message: string;
  /**
   * A 404 for an order the last saved list held (then): it existed, so this
   * cancel may have removed it if something in between sent it twice.
   */
  readonly listedAt?: number;
};

export interface CancelOptions extends CallOptions {
  /**
   * An earlier DELETE for this order was sent and its answer never came (a
   * crash or a lost connection); this call continues it.
   */
  readonly previousAttemptUnknown?: boolean;
  /**
   * What this computer's cancel log knows of earlier cancels of this order:
   * one the service confirmed, or one whose answer did not say what it did.
   * Asked only on a 404, so a long log is read rarely.
   */
  readonly earlierCancel?: () => Promise<EarlierCancel | undefined>;
}

export interface ConnectionCheck {
  readonly status: number;
  readonly message: string;
  readonly quota: QuotaSnapshot;
}

interface Answer {
  readonly response: Response;
  /** An earlier attempt may have reached the service and its answer was lost. */
  readonly earlierAnswerLost: boolean;
  /** Then, what left it unknown (the first try that did). */
  readonly unsure: Unsure | undefined;
}

/**
 * The answers the interface defines for a cancel: with one of these the
 * service said what it did. To any other (a 5xx of any kind, a CDN's 520 or
 * 524, a redirect, a 200 from something in between) the order may or may not
 * have been cancelled.
 */
const DEFINED_CANCEL_ANSWERS = new Set([204, 400, 401, 404, 409, 429]);
/**
 * An answer from something other than the store service: a web page where
 * the service answers JSON (its 2xx are JSON or empty), or 511, which a
 * network's sign-in page (a captive portal) sends to say "sign in first".
 */
function isWebPage(response: Response): boolean {
  if (response.status === 511) return true;
  const type = response.headers.get('content-type') ?? '';
  return response.status >= 200 && response.status < 300 && /^\s*text\/html\b/i.test(type);
}

/** Whether an answer carried any of the service's rate-limit figures. */
const shows = (reading: RateLimitReading): boolean =>
  reading.limit !== undefined || reading.remaining !== undefined || reading.resetAt !== undefined;

/**
 * A 429 that is not the service's: the service sends its rate-limit headers
 * on every answer and its errors as JSON, so a 429 with a web page, or
 * without those headers (unless its words say the key is banned: that is
 * believed, whoever sent it), comes from something in between (nginx's
 * `limit_req`, an API gateway, a CDN) and says nothing of the key's quota.
 */
function isGatewayLimit(response: Response, reading: RateLimitReading, body: ErrorBody): boolean {
  if (/^\s*text\/html\b/i.test(response.headers.get('content-type') ?? '')) return true;
  return !shows(reading) && !saysBanned(body);
}

/**
 * The list's size in bytes as it will be read, when the answer says it: its
 * Content-Length, unless the body is sent compressed. Both fetches (Node's
 * and Chromium's) hand the body over decoded, and the Content-Length of a
 * gzip body is its compressed size: counted against it, a list read "5.4 MB
 * of 2.0 MB". Neither says how much came on the wire, so then no total.
 */
function listSize(headers: Headers): number | undefined {
  const encoding = (headers.get('content-encoding') ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') return undefined;
  const declared = Number(headers.get('content-length') ?? Number.NaN);
  return Number.isSafeInteger(declared) && declared > 0 ? declared : undefined;
}

/**
 * A cancel's failure whose request may have been acted on, led by what that
 * means for the order and why (unsure-words.ts, the words the app uses too).
 * The failure's own sentence follows where it adds something: a hold's or a
 * ban's time, or (`saysMore`) an answer the interface defines for a cancel.
 */
function unsureCancel(
  orderId: string,
  error: StoreApiError,
  host: string,
  saysMore = false,
): StoreApiError {
  const { failure } = error;
  const lead = unsureCancelWords(
    orderId,
    failure.unsure ?? { why: 'earlier-try' },
    hostPlace(host),
  );
  const more =
    saysMore || failure.kind === 'rate-limited' || failure.kind === 'banned'
      ? ` ${failure.message.replace(/^Order \S+ was not cancelled\. /, '')}`
      : serviceSaid(failure.message);
  return new StoreApiError({ ...failure, message: `${lead}${more}` }, { cause: error.cause });
}

/** The service's own words at the end of a message (withServerWords), kept when the rest is replaced. */
function serviceSaid(message: string): string {
  const at = message.lastIndexOf(' The service said: “');
  return at < 0 ? '' : message.slice(at);
}

/** An answer in the service's own form: an Error body as JSON (its 5xx pages would be too). */
function isServiceJson(response: Response): boolean {
  return /\bjson\b/i.test(response.headers.get('content-type') ?? '');
}

/** What an attempt that left and got no answer came to: no answer in time, stopped, or cut off. */
function unsureOfNoAnswer(error: unknown, signal: AbortSignal): Unsure {
  if (signal.aborted)
    return (signal.reason as Error | undefined)?.name === 'TimeoutError'
      ? { why: 'timeout' }
      : { why: 'stopped' };
  return isTimeoutError(error) ? { why: 'timeout' } : { why: 'no-answer' };
}

/** A 5xx is tried again, except the two that say the request can never work. */
const isRetriableStatus = (status: number): boolean =>
  status >= 500 && status <= 599 && status !== 501 && status !== 505;
/** The keys a client remembers having sent, to take out of what the service says. */
const KEYS_REMEMBERED = 4;
const MAX_REDIRECTS = 3;
const MAX_ERROR_BODY = 64 * 1024;

export class StoreClient {
  readonly #options: Required<Omit<StoreClientOptions, 'fetch' | 'onDeprecation' | 'onAttempt'>>;
  readonly #onDeprecation: StoreClientOptions['onDeprecation'];
  readonly #onAttempt: StoreClientOptions['onAttempt'];
  readonly #http: KyInstance;
  readonly #origin: string;
  readonly #serverClock = new ServerClock();
  /** The keys this client put in an Authorization header (the current one may have changed since). */
  readonly #keysSent = new Set<string>();

  constructor(options: StoreClientOptions) {
    this.#options = {
      timing: realTiming,
      attemptTimeoutMs: 30_000,
      totalTimeoutMs: 10 * 60_000,
      maxRetries: 3,
      max429Retries: 1,
      maxInlineWaitMs: MAX_INLINE_WAIT_MS,
      backoff: DEFAULT_BACKOFF,
      keyHelp: APP_KEY_HELP,
      // On one core a thread of its own would only add the handing over.
      listThreadFromBytes:
        availableParallelism() > 1 ? THREAD_FROM_BYTES : Number.POSITIVE_INFINITY,
      ...options,
    };
    this.#onDeprecation = options.onDeprecation;
    this.#onAttempt = options.onAttempt;
    this.#origin = new URL(options.baseUrl).origin;
    this.#http = ky.create({
      baseUrl: `${options.baseUrl.replace(/\/+$/, '')}/`,
      retry: 0,
      throwHttpErrors: false,
      // Redirects are followed by hand, same origin only, so the key never leaves.
      redirect: 'manual',
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  quota(): QuotaSnapshot {
    return this.#options.gate.snapshot();
  }

  /** The whole order list, parsed (for the CLI; the app reads columns). */
  async listOrders(options: ListOptions = {}): Promise<OrderList> {
    const { columns, receivedAt, bytes } = await this.listOrderColumns(options);
    return { orders: ordersOf(columns), receivedAt, bytes };
  }

  /**
   * The whole order list as the validated JSON text the service sent, with
   * its count. Rejected whole if any order is not as the interface says.
   */
  async listOrdersBody(options: ListOptions = {}): Promise<OrderListBody> {
    const chunks: Uint8Array[] = [];
    const { columns, receivedAt, bytes } = await this.listOrderColumns({
      ...options,
      onChunk: (chunk) => void chunks.push(chunk),
    });
    const body = Buffer.concat(chunks).toString('utf8');
    return { body, count: columns.count, receivedAt, bytes };
  }

  /**
   * The whole order list, read into columns while it downloads: each chunk
   * of the body goes through the order-list scanner as it arrives (no text,
   * no JSON.parse of the whole), then to `onChunk`. A list that is not what
   * the interface says fails as soon as that is known, and its download
   * stops; nothing of it is returned.
   */
  async listOrderColumns(options: ColumnListOptions = {}): Promise<OrderColumnList> {
    return this.#withDeadline(options.signal, async (signal) => {
      const { response } = await this.#send('GET', 'store/orders', {
        ...options,
        signal,
        endpoint: 'list-orders',
      });
      if (response.status !== 200)
        throw await this.#unexpected(response, 'The order list could not be loaded.');
      const totalBytes = listSize(response.headers);
      const scanner = listScannerFor(totalBytes, this.#options.listThreadFromBytes);
      const reader = response.body?.getReader() as
        ReadableStreamDefaultReader<Uint8Array> | undefined;
      let receivedBytes = 0;
      try {
        for (;;) {
          let chunk: Uint8Array | undefined;
          try {
            const next = await reader?.read();
            chunk = next?.done === false ? next.value : undefined;
          } catch (error) {
            throw this.#noAnswer(
              error,
              signal,
              'answered',
              'The order list was cut off while downloading.',
            );
          }
          if (!chunk) break;
          receivedBytes += chunk.byteLength;
          await scanner.push(chunk);
          await options.onChunk?.(chunk, {
            count: scanner.count,
            rowsSoFar: () => scanner.rowsSoFar(),
            receivedBytes,
            totalBytes,
          });
          options.onProgress?.({ receivedBytes, ...(totalBytes ? { totalBytes } : {}) });
        }
        return {
          columns: await scanner.finish(),
          receivedAt: this.#options.timing.now(),
          bytes: receivedBytes,
        };
      } catch (error) {
        // Stop downloading a list that is already refused.
        await reader?.cancel().catch(() => undefined);
        if (error instanceof InvalidOrdersError) throw unreadableList(error);
        throw error;
      } finally {
        scanner.close();
      }
    });
  }

  async cancelOrder(orderId: string, options: CancelOptions = {}): Promise<CancelOutcome> {
    if (!isInt64Text(orderId)) throw notAnOrderNumber(orderId);
    const host = new URL(this.#options.baseUrl).host;
    return this.#withDeadline(options.signal, async (signal) => {
      const { response, earlierAnswerLost, unsure } = await this.#send(
        'DELETE',
        `store/orders/${orderId}`,
        { ...options, signal, endpoint: 'cancel-order' },
      ).catch((error: unknown) => {
        // Whatever went wrong, a cancel that may have been done says so first, and why.
        if (error instanceof StoreApiError && error.failure.delivery === 'unknown')
          throw unsureCancel(orderId, error, host);
        throw error;
      });
      const body = await this.#serviceWords(response);
      if (response.status === 204) {
        return { kind: 'cancelled', message: `Order ${orderId} was cancelled.` };
      }
      if (response.status === 404) {
        const earlier = await options.earlierCancel?.().catch(() => undefined);
        return this.#scrubbed(cancelNotFound(orderId, body, unsure, earlier, host));
      }
      if (response.status === 409) {
        return this.#scrubbed<CancelOutcome>({
          kind: 'already-shipped',
          message: alreadyShippedWords(orderId, body),
        });
      }
      const undefinedAnswer = !DEFINED_CANCEL_ANSWERS.has(response.status);
      const failed = this.#statusFailure(
        response,
        body,
        `Order ${orderId} was not cancelled.`,
        earlierAnswerLost || undefinedAnswer,
      );
      if (!undefinedAnswer && !earlierAnswerLost) throw failed;
      // An answer the interface does not define for a cancel (a 200 from something in between):
      // the order may or may not have been cancelled, as after a lost answer.
      const cause: Unsure = unsure ?? {
        why: 'status',
        status: response.status,
        between: !isServiceJson(response),
      };
      throw unsureCancel(
        orderId,
        new StoreApiError({ ...failed.failure, unsure: cause }, { cause: failed.cause }),
        host,
        !undefinedAnswer,
      );
    });
  }

  /**
   * One request that shows whether the key works and what quota the service
   * reports. `once`: never tried again, whatever the answer (a key just
   * entered is checked with one request, so a wrong one is not sent twice).
   */
  async checkConnection(
    options: CallOptions & { throughHold?: boolean; once?: boolean } = {},
  ): Promise<ConnectionCheck> {
    return this.#withDeadline(options.signal, async (signal) => {
      const { response } = await this.#send('GET', 'store/orders', {
        ...options,
        signal,
        endpoint: 'list-orders',
      });
      // Only the status and headers matter: do not download a huge list.
      await response.body?.cancel().catch(() => undefined);
      if (response.status !== 200)
        throw await this.#unexpected(response, 'The connection test failed.');
      return {
        status: 200,
        message: 'Connected: the service accepted the key.',
        quota: this.quota(),
      };
    });
  }

  /**
   * "Try now": one request through a hold the clerk chose to end by hand.
   * An answer lifts the hold (or sets the new one a 429 asks for); the gate
   * then paces as usual.
   */
  async tryNow(options: CallOptions = {}): Promise<ConnectionCheck> {
    const check = await this.checkConnection({ ...options, throughHold: true });
    return {
      ...check,
      message: 'The service answered. Store Admin sends again, at the pace the quota allows.',
    };
  }

  async #withDeadline<T>(
    outer: AbortSignal | undefined,
    run: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const deadline = AbortSignal.timeout(this.#options.totalTimeoutMs);
    const signal = outer ? AbortSignal.any([outer, deadline]) : deadline;
    try {
      return await run(signal);
    } catch (error) {
      // Every failure leaves through here: a key in its words (from any path) goes here too.
      if (error instanceof StoreApiError) throw this.#scrubbedError(error);
      throw error;
    }
  }

  /** The keys to take out of what the service says: every one sent, and the current one. */
  #keys(): string[] {
    const current = this.#options.getKey();
    return current ? [...this.#keysSent, current] : [...this.#keysSent];
  }

  /** Text from the service, decoded, made safe to pass on (service-text.ts). */
  readonly #said = (text: string): string => serviceText(text, this.#keys());

  #scrubbed<O extends { readonly message: string }>(outcome: O): O {
    return { ...outcome, message: withoutSecrets(outcome.message, this.#keys(), KEY_PLACEHOLDER) };
  }

  #scrubbedError(error: StoreApiError): StoreApiError {
    const { failure } = error;
    const keys = this.#keys();
    const message = withoutSecrets(failure.message, keys, KEY_PLACEHOLDER);
    const code =
      failure.code === undefined ? undefined : withoutSecrets(failure.code, keys, KEY_PLACEHOLDER);
    if (message === failure.message && code === failure.code) return error;
    return new StoreApiError(
      { ...failure, message, ...(code !== undefined ? { code } : {}) },
      { cause: error.cause },
    );
  }

  #rememberKey(key: string): void {
    this.#keysSent.delete(key);
    this.#keysSent.add(key);
    if (this.#keysSent.size > KEYS_REMEMBERED)
      this.#keysSent.delete(this.#keysSent.values().next().value!);
  }

  /**
   * Sends one logical request: waits at the gate, retries where safe, and
   * returns the first answer that is not a redirect, 429 or retriable 5xx.
   */
  async #send(method: 'GET' | 'DELETE', path: string, options: SendOptions): Promise<Answer> {
    // What first left the call's outcome unknown, said with every failure that is (unsure-words.ts).
    const state: { unsure: Unsure | undefined } = {
      unsure: options.previousAttemptUnknown === true ? { why: 'earlier-try' } : undefined,
    };
    try {
      return await this.#tries(method, path, options, state);
    } catch (error) {
      if (
        error instanceof StoreApiError &&
        error.failure.delivery === 'unknown' &&
        state.unsure &&
        !error.failure.unsure
      )
        throw new StoreApiError({ ...error.failure, unsure: state.unsure }, { cause: error.cause });
      throw error;
    }
  }

  async #tries(
    method: 'GET' | 'DELETE',
    path: string,
    options: SendOptions,
    state: { unsure: Unsure | undefined },
  ): Promise<Answer> {
    const { gate, budget, timing } = this.#options;
    const { signal, priority = 'interactive', stop } = options;
    // What every wait of this call (the gate, the pause between tries) ends on.
    const waits = stop ? AbortSignal.any([signal, stop]) : signal;
    // "Try now" and a key's check send exactly one request: its answer, whatever it is, is the answer.
    const once = options.throughHold === true || options.once === true;
    const maxRetries = once ? 0 : this.#options.maxRetries;
    const max429Retries = once ? 0 : this.#options.max429Retries;
    let retries = 0;
    let retries429 = 0;
    let earlierAnswerLost = options.previousAttemptUnknown === true;
    let url = path;
    let redirects = 0;
    budget.recordAttempt();

    for (;;) {
      const key = this.#options.getKey();
      if (!key) throw noKeyFailure(this.#options.keyHelp.missing);
      let ticket;
      try {
        ticket = await gate.acquire({
          signal: waits,
          priority,
          maxWaitMs: options.maxWaitMs ?? this.#options.maxInlineWaitMs,
          // Only the first attempt goes through a hold; a retry waits as usual.
          throughHold: options.throughHold === true && retries + retries429 === 0,
        });
      } catch (error) {
        if (error instanceof HeldBackError) throw this.#heldBack(error, earlierAnswerLost);
        throw this.#noAnswer(error, waits, earlierAnswerLost ? 'unknown' : 'not-sent');
      }
      if (stop?.aborted) {
        // Stopped while the gate was letting it out: it does not leave.
        ticket.release();
        throw this.#noAnswer(stop.reason, waits, earlierAnswerLost ? 'unknown' : 'not-sent');
      }

      this.#rememberKey(key);
      options.onSent?.();
      let response: Response;
      try {
        response = await this.#http(url, {
          method,
          signal,
          timeout: this.#options.attemptTimeoutMs,
          // No onDownloadProgress: ky would tee the body for it; the list counts its own bytes.
          headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
        });
      } catch (error) {
        ticket.release();
        // Electron's net.fetch fails a redirect it may not follow instead of handing it back.
        if (isCancelledRedirect(error)) {
          if (method === 'DELETE') state.unsure ??= { why: 'redirect' };
          throw redirectNotFollowed(undefined, method === 'DELETE' ? 'unknown' : 'answered');
        }
        const delivery = this.#deliveryOf(error);
        this.#attemptUnanswered(error, signal, delivery);
        if (delivery === 'unknown') state.unsure ??= unsureOfNoAnswer(error, signal);
        const lost: boolean = earlierAnswerLost || delivery === 'unknown';
        // A certificate or a proxy's refusal says the same on every try.
        const sameEveryTime =
          certificateProblem(error) !== undefined ||
          (error instanceof ProxyRefusal && error.status !== undefined);
        if (!signal.aborted && !sameEveryTime && retries < maxRetries && budget.tryRetry()) {
          earlierAnswerLost = lost;
          await this.#backoff(retries++, waits, lost);
          continue;
        }
        throw this.#noAnswer(error, signal, lost ? 'unknown' : delivery);
      }

      if (isWebPage(response)) {
        // Not the service's answer: its headers say nothing of the quota, and trying again gets the same page.
        ticket.release();
        await response.body?.cancel().catch(() => undefined);
        // A DELETE that met it may have passed through something that did reach the service.
        const delivery = earlierAnswerLost || method === 'DELETE' ? 'unknown' : 'not-sent';
        if (method === 'DELETE') state.unsure ??= { why: 'web-page', status: response.status };
        const failure = webPageAnswer(
          response.status,
          new URL(this.#options.baseUrl).host,
          delivery,
        );
        this.#onAttempt?.({
          answered: false,
          refused: true,
          cause: 'web-page',
          message: failure.failure.message,
        });
        throw failure;
      }
      this.#onAttempt?.({ answered: true });
      const now = timing.now();
      this.#serverClock.observe(response.headers.get('date'), now);
      this.#observeDeprecation(options.endpoint, response, now);
      const time = { now, skewMs: this.#serverClock.skew() };
      const reading = readRateLimitHeaders(response.headers, time);

      const limitedBody = response.status === 429 ? await this.#serviceWords(response) : {};
      if (response.status === 429 && isGatewayLimit(response, reading, limitedBody)) {
        // Not the service's quota: a pace something in between keeps. Its Retry-After if it gives
        // one, else a short hold that grows with each such answer in a row; the figures stand.
        const until = ticket.releaseGatewayLimited(
          parseRetryAfter(response.headers.get('retry-after'), time),
        );
        const open = gate.openAt();
        const holdEnd = open.reason !== undefined ? Math.max(until, open.at) : until;
        if (
          holdEnd - now <= this.#options.maxInlineWaitMs &&
          retries429 < max429Retries &&
          budget.tryRetry()
        ) {
          retries429 += 1;
          continue; // the gate holds this retry until the hold ends, then lets one go at a time
        }
        throw limitedFailure(
          'gateway-429',
          holdEnd,
          {},
          earlierAnswerLost ? 'unknown' : 'answered',
          now,
          new URL(this.#options.baseUrl).host,
        );
      }

      if (response.status === 429) {
        const body = limitedBody;
        const banned = saysBanned(body);
        const retryAfter = response.headers.get('retry-after');
        // A wait past a day (or the day window's reset) is garbage, not a wish to obey.
        const believed = parseRetryAfter(retryAfter, {
          ...time,
          latest: latestBelievable(now, reading.resetAt),
        });
        const resetAt =
          reading.resetAt !== undefined && reading.resetAt > now ? reading.resetAt : undefined;
        const retryAt =
          believed ??
          resetAt ??
          // A wait it gave that cannot be believed is no licence for a quick retry: hold for the longest believed.
          (retryAfter !== null && /^\s*\d/.test(retryAfter)
            ? now + MAX_BELIEVED_WAIT_MS
            : undefined) ??
          now +
            Math.max(1000, fullJitterDelay(retries429 + 1, timing.random, this.#options.backoff));
        // Its own Remaining, when it sends one: a 429 that says requests are left
        // (a service shedding load) holds for its Retry-After, not the whole window.
        // Without its figures (a ban said in its words alone), nothing is assumed of the quota.
        ticket.release(
          shows(reading) ? { ...reading, remaining: reading.remaining ?? 0 } : undefined,
          {
            until: retryAt,
            reason: banned ? 'banned' : 'server-429',
          },
        );
        // The gate opens when both the hold and a spent window (Remaining 0 until the reset) allow.
        const open = gate.openAt();
        const until = open.reason !== undefined ? Math.max(retryAt, open.at) : retryAt;
        const fitsInline = until - now <= this.#options.maxInlineWaitMs;
        if (!banned && fitsInline && retries429 < max429Retries && budget.tryRetry()) {
          retries429 += 1;
          continue; // the gate holds this retry (and everyone else) until retryAt
        }
        throw limitedFailure(
          banned ? 'banned' : 'server-429',
          until,
          body,
          earlierAnswerLost ? 'unknown' : 'answered',
          now,
        );
      }

      // A refused key's answer carries another bucket's figures (the one for
      // requests without a valid key): they say nothing about this key's quota.
      if (response.status === 401 || response.status === 403) ticket.release();
      else ticket.release(reading);

      if (isRetriableStatus(response.status)) {
        const between = !isServiceJson(response);
        const body = await this.#serviceWords(response);
        // The interface defines no 5xx: whatever the kind, a DELETE may have been done.
        const lost: boolean = earlierAnswerLost || method === 'DELETE';
        if (method === 'DELETE')
          state.unsure ??= { why: 'status', status: response.status, between };
        if (retries < maxRetries && budget.tryRetry()) {
          earlierAnswerLost = lost;
          await this.#backoff(retries++, waits, lost);
          continue;
        }
        throw serverGaveUp(
          response.status,
          retries + 1,
          body,
          lost ? 'unknown' : 'answered',
          between ? new URL(this.#options.baseUrl).host : undefined,
        );
      }

      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel().catch(() => undefined);
        if (method === 'DELETE') state.unsure ??= { why: 'redirect', status: response.status };
        url = this.#redirectTarget(response, url, method, ++redirects);
        continue;
      }

      return { response, earlierAnswerLost, unsure: state.unsure };
    }
  }

  /** Any answer may say its endpoint is deprecated; only a successful one says it no longer is. */
  #observeDeprecation(endpoint: StoreEndpoint, response: Response, now: number): void {
    if (!this.#onDeprecation) return;
    const said = readDeprecationHeaders(response.headers, now);
    if (said?.link !== undefined && this.#said(said.link) !== said.link) {
      // A link that carries a key (or anything unprintable) is not passed on.
      this.#onDeprecation(endpoint, {
        ...(said.deprecatedAt !== undefined ? { deprecatedAt: said.deprecatedAt } : {}),
        ...(said.sunsetAt !== undefined ? { sunsetAt: said.sunsetAt } : {}),
      });
      return;
    }
    if (said || response.ok) this.#onDeprecation(endpoint, said);
  }

  #redirectTarget(response: Response, current: string, method: string, hop: number): string {
    const location = response.headers.get('location');
    const from = new URL(current, `${this.#options.baseUrl.replace(/\/+$/, '')}/`);
    let target: URL | undefined;
    try {
      target = location ? new URL(location, from) : undefined;
    } catch {
      target = undefined;
    }
    // A redirect is no answer the interface defines: a DELETE may have been done before it.
    const delivery = method === 'DELETE' ? 'unknown' : 'answered';
    if (!target || target.origin !== this.#origin)
      throw redirectElsewhere(
        response.status,
        target ? this.#said(target.host) : undefined,
        delivery,
      );
    const keepsMethod = response.status === 307 || response.status === 308;
    if (hop > MAX_REDIRECTS || (method !== 'GET' && !keepsMethod))
      throw redirectNotFollowed(response.status, delivery);
    return target.href;
  }

  async #backoff(retry: number, signal: AbortSignal, answerLost: boolean): Promise<void> {
    const { timing, backoff } = this.#options;
    try {
      await timing.sleep(fullJitterDelay(retry, timing.random, backoff), signal);
    } catch (error) {
      throw this.#noAnswer(error, signal, answerLost ? 'unknown' : 'not-sent');
    }
  }

  /** An attempt that got no answer, unless the caller stopped it (that says nothing of the service). */
  #attemptUnanswered(error: unknown, signal: AbortSignal, delivery: Failure['delivery']): void {
    if (!this.#onAttempt) return;
    const stopped = signal.aborted && (signal.reason as Error | undefined)?.name !== 'TimeoutError';
    if (stopped) return;
    const { message } = this.#noAnswer(error, signal, delivery).failure;
    this.#onAttempt({ answered: false, refused: delivery === 'not-sent', message });
  }

  #deliveryOf(error: unknown): Failure['delivery'] {
    // A refused connection, an unknown host, a proxy that would not carry it or a
    // certificate refused before anything was sent never reached the service.
    return neverSent(error) ? 'not-sent' : 'unknown';
  }

  #noAnswer(
    error: unknown,
    signal: AbortSignal,
    delivery: Failure['delivery'],
    prefix = '',
  ): StoreApiError {
    const service = {
      host: new URL(this.#options.baseUrl).host,
      attemptTimeoutMs: this.#options.attemptTimeoutMs,
    };
    return noAnswerFailure(error, signal, delivery, service, prefix);
  }

  /** The gate held the request back: nothing of this call was sent (unless an earlier try's answer was lost). */
  #heldBack(error: HeldBackError, earlierAnswerLost: boolean): StoreApiError {
    return limitedFailure(
      error.reason,
      error.retryAt,
      {},
      earlierAnswerLost ? 'unknown' : 'not-sent',
      this.#options.timing.now(),
      new URL(this.#options.baseUrl).host,
    );
  }

  async #unexpected(response: Response, lead: string): Promise<StoreApiError> {
    const body = await this.#serviceWords(response);
    return this.#statusFailure(response, body, lead, false);
  }

  /**
   * What an answer's body says (an Error body's message and code), decoded
   * and then made safe: every word the service sends a person passes here.
   */
  async #serviceWords(response: Response): Promise<ErrorBody> {
    return readErrorBody(await this.#readSmall(response), this.#said);
  }

  #statusFailure(
    response: Response,
    body: ErrorBody,
    lead: string,
    earlierAnswerLost: boolean,
  ): StoreApiError {
    const { refused } = this.#options.keyHelp;
    return statusFailure(response.status, body, lead, earlierAnswerLost, refused);
  }

  /**
   * Reads at most 64 KiB of an error body; never fails. A hostile or broken
   * server could echo the Authorization header back: the key is taken out
   * here in the spellings raw text can have, and again once it is decoded
   * (#serviceWords), where escapes such as `\/` no longer hide it.
   */
  async #readSmall(response: Response): Promise<string> {
    if (!response.body) return '';
    const reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      while (size < MAX_ERROR_BODY) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        size += value.byteLength;
      }
    } catch {
      return '';
    } finally {
      reader.cancel().catch(() => undefined);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    return withoutSecrets(text, this.#keys(), KEY_PLACEHOLDER);
  }
}

export function isStoreApiError(error: unknown): error is StoreApiError {
  return error instanceof StoreApiError;
}
