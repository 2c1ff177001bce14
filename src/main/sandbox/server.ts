// The sandbox: a local HTTP server that behaves as the store service interface
// says, for developing and testing the app without the real service.
//
// Every request goes through the same steps: identify the key, apply its rate
// limit (429 before anything else), roll the injected faults, then outside
// /v1 answer 404, under /v1 require a valid bearer key (401) and route.
//
// Requests without a valid key (missing, malformed or unknown) are limited too,
// in an anonymous bucket per remote address with the Free plan's limits, so a
// 401 carries the same X-RateLimit-* headers as any response and guessing keys
// is limited like any other traffic. Parser-level errors (a request Node cannot
// read at all) get a 400 (431 for oversized headers) with that bucket's
// headers, counting nothing.

import { once } from 'node:events';
import { createServer, STATUS_CODES } from 'node:http';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { DEFAULT_ENTERPRISE_LIMITS, PLANS } from '../../shared/plans.ts';
import type { PlanId, PlanLimits } from '../../shared/plans.ts';
import { DEMO_KEYS, readBearer, validateKeys } from './api-keys.ts';
import type { SandboxKey } from './api-keys.ts';
import { apiError, errorBody } from './errors.ts';
import type { ApiError } from './errors.ts';
import { FaultInjector, NO_FAULTS } from './faults.ts';
import type { FaultKind, FaultRoll, FaultSpec } from './faults.ts';
import { parseInt64Id } from './int64-id.ts';
import { OrderBook } from './orders-data.ts';
import type { ChurnStep, ListBody, OrderFilter, OrderStatus } from './orders-data.ts';
import { deprecationHeaders, parseDeprecateSpec } from './deprecations.ts';
import type { DeprecatedEndpoint } from './deprecations.ts';
import { formatRetryAfter, rateLimitHeaders, RateLimiter } from './rate-limiter.ts';
import type { RateDecision, RetryAfterFormat } from './rate-limiter.ts';
import { notFound, routeStoreRequest } from './store-routes.ts';
import type { Reply } from './store-routes.ts';

export type { SandboxKey } from './api-keys.ts';
export type { FaultKind, FaultRule, FaultSpec } from './faults.ts';
export { FaultSpecError, parseFaultSpec } from './faults.ts';
export type { ChurnStep, OrderFilter, OrderStatus } from './orders-data.ts';
export type { DeprecatedEndpoint } from './deprecations.ts';
export type { RetryAfterFormat } from './rate-limiter.ts';

export interface SandboxOptions {
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  readonly host?: '127.0.0.1';
  /** Number of generated orders (default 1000). */
  readonly orders?: number;
  /** Seed of the order data and the fault rolls (default 1). */
  readonly seed?: number;
  /** Length of the "minute" window in ms (default 60,000); shrink it in tests. */
  readonly minuteMs?: number;
  /** Length of the "day" window in ms (default 86,400,000). */
  readonly dayMs?: number;
  /** Order and pet ids above 2^53. */
  readonly bigIds?: boolean;
  /** Injected faults, e.g. "latency=200@0.3,5xx@0.1" (see faults.ts). */
  readonly faults?: string | FaultSpec;
  /** Accepted keys; default one demo key per plan (demo-free, demo-pro, ...). */
  readonly keys?: readonly SandboxKey[];
  /** The Enterprise plan's custom limits (default DEFAULT_ENTERPRISE_LIMITS). */
  readonly enterpriseLimits?: PlanLimits;
  /** Requests sent while limited before a key is banned (default 5). */
  readonly banAfter?: number;
  /** Length of a ban in ms (default 15 minute windows). */
  readonly banMs?: number;
  /** Retry-After as delay-seconds (default) or as an HTTP date. */
  readonly retryAfterFormat?: RetryAfterFormat;
  /**
   * Every this many ms of the sandbox clock the orders move on by one churn
   * step: some ship, some complete, new ones arrive, a few are cancelled
   * elsewhere (see OrderBook.churnTo). Off when absent.
   */
  readonly churnEveryMs?: number;
  /** Endpoints answered with deprecation headers: `PATH[=SUNSET]` or parsed (see deprecations.ts). */
  readonly deprecate?: readonly (string | DeprecatedEndpoint)[];
  /** The clock (epoch ms) for windows, bans, Date, Retry-After and churn. */
  readonly now?: () => number;
  /** How latency faults wait, and how a limited bandwidth paces a list. */
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * Sends order lists at most this many bytes a second (by the sandbox's
   * clock), as a slow connection would; unlimited by default.
   */
  readonly bytesPerSecond?: number;
  /**
   * Serve HTTPS with this key and certificate (PEM) instead of HTTP; the base
   * URL then starts with https:// (see tls.ts for certificates made at start).
   */
  readonly tls?: { readonly key: string; readonly cert: string };
}

export interface LoggedRequest {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  /** Plan of the request's key, when the key is valid. */
  readonly plan?: PlanId;
  /** The status answered (for a reset fault: the status that was never sent). */
  readonly status: number;
  /** Arrival time, from the sandbox clock. */
  readonly at: number;
  /** Faults that fired for this request. */
  readonly faults: readonly FaultKind[];
  /** False when a reset fault dropped the answer. */
  readonly answered: boolean;
}

export interface Sandbox {
  /** e.g. http://127.0.0.1:4010/v1 (https:// with the tls option) */
  readonly baseUrl: string;
  readonly port: number;
  readonly keys: readonly SandboxKey[];
  readonly requestLog: readonly LoggedRequest[];
  clearRequestLog(): void;
  /** Server-side status of an order; undefined for an id that never existed. */
  orderStatus(id: bigint | string): OrderStatus | undefined;
  /** Force an order's status (e.g. ship it, or bring a cancelled one back). */
  setOrderStatus(id: bigint | string, status: OrderStatus): void;
  /** Ids (decimal strings) of listed orders, or of those with a status. */
  orderIds(filter?: OrderFilter): string[];
  /** A pet id in the generated range that no order refers to, if any. */
  unreferencedPetId(): string | undefined;
  /** What the last churn steps (at most CHURN_CAPACITY) did, oldest first. */
  readonly churned: readonly ChurnStep[];
  readonly faults: FaultSpec;
  /** Replace the injected faults at runtime (undefined or "" for none). */
  setFaults(spec: string | FaultSpec | undefined): void;
  close(): Promise<void>;
}

/** Entries kept in the request log of a long-running sandbox. */
const LOG_CAPACITY = 10_000;
/**
 * Churn steps kept, like the request log beside them: each holds its ids
 * (thousands at 200,000 orders), so keeping every step grew a long-running
 * sandbox by about 65 MB an hour at --churn 5. Tests read the first steps;
 * a day's harness, none.
 */
export const CHURN_CAPACITY = 100;
const ANONYMOUS_LIMITS: PlanLimits = PLANS.free;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const bytesPerSecond = options.bytesPerSecond;
  if (bytesPerSecond !== undefined && !(bytesPerSecond > 0))
    throw new RangeError(`bytesPerSecond must be above 0, got ${bytesPerSecond}`);
  const pace: Pace | undefined = bytesPerSecond ? { bytesPerSecond, now, sleep } : undefined;
  const minuteMs = positive('minuteMs', options.minuteMs ?? 60_000);
  const dayMs = positive('dayMs', options.dayMs ?? 86_400_000);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new RangeError(`port must be an integer from 0 to 65535, got ${port}`);
  }
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const retryAfterFormat = options.retryAfterFormat ?? 'seconds';
  if (retryAfterFormat !== 'seconds' && retryAfterFormat !== 'http-date') {
    throw new RangeError(
      `retryAfterFormat must be "seconds" or "http-date", got "${String(retryAfterFormat)}"`,
    );
  }
  const enterpriseLimits = options.enterpriseLimits ?? DEFAULT_ENTERPRISE_LIMITS;
  positive('enterpriseLimits.perMinute', enterpriseLimits.perMinute);
  positive('enterpriseLimits.perDay', enterpriseLimits.perDay);

  const keys = validateKeys(options.keys ?? DEMO_KEYS);
  const keysByToken = new Map(keys.map((k) => [k.key, k]));
  const limitsOf = (plan: PlanId): PlanLimits =>
    plan === 'enterprise' ? enterpriseLimits : PLANS[plan];
  const orders = new OrderBook({ count: options.orders ?? 1000, seed, bigIds: options.bigIds });
  const churnEveryMs =
    options.churnEveryMs === undefined ? undefined : positive('churnEveryMs', options.churnEveryMs);
  const startedAt = now();
  const churned: ChurnStep[] = [];
  const deprecated = (options.deprecate ?? []).map((spec) =>
    typeof spec === 'string' ? parseDeprecateSpec(spec) : spec,
  );
  const limiter = new RateLimiter({
    now,
    minuteMs,
    dayMs,
    banAfter: options.banAfter ?? 5,
    banMs: options.banMs ?? 15 * minuteMs,
  });
  const faults = new FaultInjector(options.faults, seed);
  let log: LoggedRequest[] = [];

  const record = (entry: LoggedRequest) => {
    log.push(entry);
    if (log.length > 2 * LOG_CAPACITY) log = log.slice(-LOG_CAPACITY);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = now();
    if (churnEveryMs !== undefined) {
      const steps = Math.floor((at - startedAt) / churnEveryMs);
      churned.push(...orders.churnTo(steps, (step) => startedAt + step * churnEveryMs));
      if (churned.length > CHURN_CAPACITY) churned.splice(0, churned.length - CHURN_CAPACITY);
    }
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const path = target.split('?', 1)[0] ?? '';
    const bearer = readBearer(req.headers.authorization);
    const key = bearer.kind === 'token' ? keysByToken.get(bearer.token) : undefined;
    const decision = key
      ? limiter.take(`key:${key.key}`, limitsOf(key.plan))
      : limiter.take(anonymousBucket(req.socket), ANONYMOUS_LIMITS);
    const headers: Record<string, string> = {
      ...rateLimitHeaders(decision),
      // From the sandbox clock, so Date and an HTTP-date Retry-After agree.
      Date: new Date(at).toUTCString(),
      'Cache-Control': 'no-store',
      ...deprecationHeaders(deprecated, path),
    };

    const entry = { method, path, plan: key?.plan, at };
    const underV1 = path === '/v1' || path.startsWith('/v1/');
    const roll: FaultRoll = underV1 && decision.outcome === 'allowed' ? faults.roll() : NO_FAULTS;
    if (roll.latencyMs > 0) await sleep(roll.latencyMs);

    let reply: Reply;
    if (decision.outcome !== 'allowed') {
      reply = limitedReply(decision, key !== undefined, at);
    } else if (roll.tooMany) {
      reply = {
        kind: 'error',
        error: apiError(429, 'rate_limited', 'Too many requests right now (injected fault)'),
        headers: { 'Retry-After': formatRetryAfter(at + 1000, at, retryAfterFormat) },
      };
    } else if (roll.serverError) {
      reply = errorReply(
        503,
        'service_unavailable',
        'The service is temporarily unavailable (injected fault)',
      );
    } else if (!path.startsWith('/')) {
      reply = errorReply(400, 'bad_request', 'The request target must be an absolute path');
    } else if (!underV1) {
      reply = notFound(path);
    } else if (!key) {
      reply = unauthorizedReply(bearer.kind);
    } else {
      reply = routeStoreRequest(orders, method, path);
    }

    const status = replyStatus(reply);
    if (roll.reset) {
      // The lost-response case: the request was processed, the answer never arrives.
      record({ ...entry, status, faults: roll.kinds, answered: false });
      req.socket.destroy();
      return;
    }
    record({ ...entry, status, faults: roll.kinds, answered: true });
    await send(res, method, reply, headers, roll.malformed, pace);
  }

  function limitedReply(decision: RateDecision, keyed: boolean, at: number): Reply {
    const retryAt = decision.retryAt ?? decision.resetAt;
    const retryAfter = formatRetryAfter(retryAt, at, retryAfterFormat);
    const until = new Date(Math.ceil(retryAt / 1000) * 1000).toUTCString();
    const headers = { 'Retry-After': retryAfter };
    if (decision.outcome === 'banned') {
      const error = keyed
        ? apiError(
            429,
            'api_key_banned',
            `API key temporarily banned for repeated requests after 429 Too Many Requests; retry after ${until}`,
          )
        : apiError(
            429,
            'address_banned',
            `Requests without a valid API key from this address are temporarily banned for repeated requests after 429 Too Many Requests; retry after ${until}`,
          );
      return { kind: 'error', error, headers };
    }
    const who = keyed ? 'this API key' : 'requests without a valid API key from this address';
    const message = `Rate limit exceeded for ${who}; retry after ${until} (see Retry-After)`;
    return { kind: 'error', error: apiError(429, 'rate_limited', message), headers };
  }

  function onClientError(failure: Error & { code?: string }, socket: Socket): void {
    if (failure.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const decision = limiter.peek(anonymousBucket(socket), ANONYMOUS_LIMITS);
    const error =
      failure.code === 'HPE_HEADER_OVERFLOW'
        ? apiError(431, 'headers_too_large', 'The request headers are too large')
        : apiError(400, 'bad_request', 'The request could not be parsed as HTTP/1.1');
    const body = errorBody(error);
    const head = [
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `Date: ${new Date(now()).toUTCString()}`,
      ...Object.entries(rateLimitHeaders(decision)).map(([name, value]) => `${name}: ${value}`),
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  }

  const onRequest: RequestListener = (req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A sandbox bug: answer it as such (with the headers every answer has) and keep serving.
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const body = errorBody(apiError(500, 'internal_error', `Sandbox failure: ${message}`));
      res.writeHead(500, {
        ...rateLimitHeaders(limiter.peek(anonymousBucket(req.socket), ANONYMOUS_LIMITS)),
        'Content-Type': 'application/json',
      });
      res.end(body);
    });
  };
  const server: Server = options.tls
    ? createTlsServer({ key: options.tls.key, cert: options.tls.cert }, onRequest)
    : createServer(onRequest);
  server.on('clientError', onClientError);
  await listen(server, port, options.host ?? '127.0.0.1');
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error('sandbox has no TCP address');
  const host = options.host ?? '127.0.0.1';

  let closing: Promise<void> | undefined;
  const orderId = (id: bigint | string): bigint | undefined =>
    typeof id === 'bigint' ? id : parseInt64Id(id);

  return {
    baseUrl: `${options.tls ? 'https' : 'http'}://${host}:${address.port}/v1`,
    port: address.port,
    keys,
    get requestLog() {
      return log;
    },
    clearRequestLog() {
      log = [];
    },
    orderStatus(id) {
      const parsed = orderId(id);
      return parsed === undefined ? undefined : orders.status(parsed);
    },
    setOrderStatus(id, status) {
      const parsed = orderId(id);
      if (parsed === undefined) throw new RangeError(`"${id}" is not an int64 order id`);
      orders.setStatus(parsed, status);
    },
    orderIds(filter) {
      return orders.orderIds(filter);
    },
    unreferencedPetId() {
      return orders.unreferencedPetId()?.toString();
    },
    get churned() {
      return churned;
    },
    get faults() {
      return faults.spec;
    },
    setFaults(spec) {
      faults.set(spec);
    },
    close() {
      // Idempotent: a test's own close and its cleanup may both call it.
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0))
    throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}

function anonymousBucket(socket: Socket): string {
  return `anonymous:${socket.remoteAddress ?? 'unknown'}`;
}

function errorReply(status: number, code: ApiError['code'], message: string): Reply {
  return { kind: 'error', error: apiError(status, code, message) };
}

function unauthorizedReply(kind: 'missing' | 'malformed' | 'token'): Reply {
  const message = {
    missing: 'Missing API key: send the header "Authorization: Bearer <API key>"',
    malformed: 'Malformed Authorization header: expected "Bearer <API key>"',
    token: 'Unknown API key',
  }[kind];
  // RFC 6750: a 401 names the scheme; an unknown token is "invalid_token".
  const challenge =
    kind === 'missing' ? 'Bearer realm="store"' : 'Bearer realm="store", error="invalid_token"';
  return {
    kind: 'error',
    error: apiError(401, 'unauthorized', message),
    headers: { 'WWW-Authenticate': challenge },
  };
}

function replyStatus(reply: Reply): number {
  switch (reply.kind) {
    case 'list':
      return 200;
    case 'error':
      return reply.error.status;
    default:
      return reply.status;
  }
}

/** A limited bandwidth: how fast, and the clock and sleep that pace it. */
interface Pace {
  readonly bytesPerSecond: number;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/** Until the response can take more, or the client went away (then no drain will come). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Bytes written at a time when the bandwidth is limited. */
const PACED_SLICE_BYTES = 64 * 1024;

/**
 * Writes the parts no faster than the pace allows: each slice is written when
 * its last byte is due, counted from the first, so timer delays do not add up.
 */
async function writePaced(
  res: ServerResponse,
  parts: readonly Buffer[],
  pace: Pace,
): Promise<void> {
  const start = pace.now();
  let sent = 0;
  for (const part of parts) {
    for (let at = 0; at < part.length; at += PACED_SLICE_BYTES) {
      if (res.destroyed) return;
      const slice = part.subarray(at, at + PACED_SLICE_BYTES);
      if (!res.write(slice)) await drained(res);
      sent += slice.length;
      const wait = start + (sent / pace.bytesPerSecond) * 1000 - pace.now();
      if (wait > 0) await pace.sleep(wait);
    }
  }
  res.end();
}

async function send(
  res: ServerResponse,
  method: string,
  reply: Reply,
  baseHeaders: Record<string, string>,
  malformed: boolean,
  pace?: Pace,
): Promise<void> {
  const headers = { ...baseHeaders, ...reply.headers };
  switch (reply.kind) {
    case 'empty':
      res.writeHead(reply.status, headers);
      res.end();
      return;
    case 'json':
      writeJson(res, reply.status, headers, Buffer.from(reply.json));
      return;
    case 'error':
      writeJson(res, reply.error.status, headers, Buffer.from(errorBody(reply.error)));
      return;
    case 'list': {
      const body = malformed ? truncate(reply.body) : reply.body;
      res.writeHead(200, {
        ...headers,
        'Content-Type': 'application/json',
        'Content-Length': String(body.length),
      });
      if (method === 'HEAD') {
        res.end();
        return;
      }
      // The parts are immutable snapshots: a cancel during the download rebuilds
      // its chunk for later requests and does not disturb this one.
      const sending = pace
        ? writePaced(res, body.parts, pace)
        : pipeline(Readable.from(body.parts, { objectMode: false }), res);
      await sending.catch(() => {
        // The client went away mid-download; nothing to answer.
      });
      return;
    }
  }
}

function writeJson(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
): void {
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': String(body.length),
  });
  res.end(body);
}

/** The malformed fault: the list cut in the middle, so it cannot parse as JSON. */
function truncate(body: ListBody): ListBody {
  const keep = Math.max(1, Math.floor(body.length / 2));
  const parts: Buffer[] = [];
  let length = 0;
  for (const part of body.parts) {
    if (length >= keep) break;
    const slice = part.subarray(0, keep - length);
    parts.push(slice);
    length += slice.length;
  }
  return { parts, length };
}

async function listen(server: Server, port: number, host: string): Promise<void> {
  server.listen(port, host);
  await once(server, 'listening');
}
