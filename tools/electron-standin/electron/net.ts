// Electron's net (docs/api/net.md, docs/api/client-request.md) as Chromium's
// network stack behaves on Linux without a desktop's proxy settings:
//
// - Proxy: from the environment, as Chromium reads it there
//   (net/proxy_resolution/proxy_config_service_linux.cc): all_proxy for every
//   scheme, else http_proxy for http:// and https_proxy for https:// (never
//   http_proxy for https://), each in lower or upper case; no_proxy names
//   hosts that go direct. Loopback and link-local hosts always go direct
//   (Chromium's implicit bypass rules) unless no_proxy holds `<-loopback>`.
//   https:// is tunnelled with CONNECT; http:// is sent to the proxy as an
//   absolute-form request.
// - Certificates: what Node trusts (its bundled authorities and
//   NODE_EXTRA_CA_CERTS) stands for the system's store.
// - Failures: Chromium's net errors as Electron gives them, an Error whose
//   message is the error's name ("net::ERR_CERT_AUTHORITY_INVALID").
// - Redirects: `follow` is followed (each hop routed again), `error` fails,
//   and `manual` fails with "Redirect was cancelled" unless a ClientRequest's
//   `redirect` listener calls followRedirect() at once
//   (lib/common/api/net-client-request.ts); net.fetch has no such listener.
//
// net.fetch is Node's fetch over undici dispatchers chosen per request;
// net.request is undici's request under Electron's ClientRequest events.

import { isIP } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { Agent, ProxyAgent, request as undiciRequest, type Dispatcher } from 'undici';
import { network } from './power-monitor.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Chromium's base::Environment: the variable as named, else in the other case. */
function envVar(env: Env, lower: string): string | undefined {
  const value = env[lower] ?? env[lower.toUpperCase()];
  return value?.trim() ? value.trim() : undefined;
}

/** A proxy variable's value as a URL; Chromium reads a bare host:port as an HTTP proxy. */
function proxyUrl(value: string | undefined): URL | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The implicit bypass rules (net/docs/proxy.md): localhost names, loopback and link-local addresses. */
function implicitlyBypassed(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.') || host.startsWith('169.254.');
  if (isIP(host) === 6) return host === '::1' || /^fe[89ab]/.test(host);
  return false;
}

interface BypassRules {
  readonly subtractImplicit: boolean;
  matches(url: URL): boolean;
}

/** no_proxy as Chromium reads it from the environment: suffix matching, `*`, `<local>`, `<-loopback>`, `:port`. */
export function parseNoProxy(text: string | undefined): BypassRules {
  const entries = (text ?? '')
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
  const subtractImplicit = entries.includes('<-loopback>');
  const rules = entries.filter((entry) => entry !== '<-loopback>');
  return {
    subtractImplicit,
    matches(url) {
      const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
      const port = url.port || (url.protocol === 'https:' ? '443' : '80');
      return rules.some((rule) => {
        if (rule === '*') return true;
        if (rule === '<local>') return !host.includes('.') && isIP(host) === 0;
        const withPort = /^(.*?)(?::(\d+))?$/.exec(rule.replace(/^\[(.*)\](:\d+)?$/, '$1$2'))!;
        const pattern = withPort[1]!.replace(/^\*?\./, '');
        if (withPort[2] !== undefined && withPort[2] !== port) return false;
        if (isIP(pattern) !== 0) return host === pattern;
        return host === pattern || host.endsWith(`.${pattern}`);
      });
    },
  };
}

/** Where a request to `url` goes: through which proxy, or direct (undefined). */
export function proxyFor(url: URL, env: Env = process.env): URL | undefined {
  const rules = parseNoProxy(envVar(env, 'no_proxy'));
  if (!rules.subtractImplicit && implicitlyBypassed(url.hostname)) return undefined;
  if (rules.matches(url)) return undefined;
  const all = proxyUrl(envVar(env, 'all_proxy'));
  if (all) return all;
  return proxyUrl(envVar(env, url.protocol === 'https:' ? 'https_proxy' : 'http_proxy'));
}

const direct = new Agent();
const throughProxy = new Map<string, ProxyAgent>();

function dispatcherFor(url: URL): { dispatcher: Dispatcher; proxied: boolean } {
  const proxy = proxyFor(url);
  if (!proxy) return { dispatcher: direct, proxied: false };
  let agent = throughProxy.get(proxy.href);
  if (!agent) {
    agent = new ProxyAgent({ uri: proxy.href, proxyTunnel: false });
    throughProxy.set(proxy.href, agent);
  }
  return { dispatcher: agent, proxied: true };
}

const CHROMIUM_ERRORS: Readonly<Record<string, string>> = {
  UNABLE_TO_GET_ISSUER_CERT: 'ERR_CERT_AUTHORITY_INVALID',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'ERR_CERT_AUTHORITY_INVALID',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'ERR_CERT_AUTHORITY_INVALID',
  SELF_SIGNED_CERT_IN_CHAIN: 'ERR_CERT_AUTHORITY_INVALID',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'ERR_CERT_AUTHORITY_INVALID',
  CERT_UNTRUSTED: 'ERR_CERT_AUTHORITY_INVALID',
  CERT_HAS_EXPIRED: 'ERR_CERT_DATE_INVALID',
  CERT_NOT_YET_VALID: 'ERR_CERT_DATE_INVALID',
  ERR_TLS_CERT_ALTNAME_INVALID: 'ERR_CERT_COMMON_NAME_INVALID',
  CERT_SIGNATURE_FAILURE: 'ERR_CERT_INVALID',
  ENOTFOUND: 'ERR_NAME_NOT_RESOLVED',
  EAI_AGAIN: 'ERR_NAME_NOT_RESOLVED',
  ECONNRESET: 'ERR_CONNECTION_RESET',
  UND_ERR_SOCKET: 'ERR_CONNECTION_CLOSED',
  ETIMEDOUT: 'ERR_CONNECTION_TIMED_OUT',
  UND_ERR_CONNECT_TIMEOUT: 'ERR_CONNECTION_TIMED_OUT',
};

/** Node's and undici's failure as the net error Chromium would have given. */
function chromiumError(error: unknown, proxied: boolean): Error {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof message === 'string' && /^Proxy response \(\d+\) !== 200/.test(message))
      return new Error('net::ERR_TUNNEL_CONNECTION_FAILED');
    if (code === 'ECONNREFUSED')
      return new Error(
        proxied ? 'net::ERR_PROXY_CONNECTION_FAILED' : 'net::ERR_CONNECTION_REFUSED',
      );
    const name = typeof code === 'string' ? CHROMIUM_ERRORS[code] : undefined;
    if (name) return new Error(`net::${name}`);
    current = (current as { cause?: unknown }).cause;
  }
  return new Error('net::ERR_FAILED');
}

const isAbort = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');

/** Chromium's limit on redirects in one request (net::ERR_TOO_MANY_REDIRECTS). */
const MAX_REDIRECTS = 20;

/** The method a redirect goes on with (the fetch standard, as Chromium applies it). */
function redirectMethod(status: number, method: string): string {
  if (status === 303 && method !== 'HEAD') return 'GET';
  if ((status === 301 || status === 302) && method === 'POST') return 'GET';
  return method;
}

async function fetchThroughChromium(
  input: string | Request,
  init?: RequestInit & { bypassCustomProtocolHandlers?: boolean },
): Promise<Response> {
  const first = new Request(input, init);
  if (first.body !== null)
    throw new Error('The Electron stand-in models net.fetch for requests without a body.');
  let url = new URL(first.url);
  let method = first.method;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(
        `The stand-in's net.fetch reaches http: and https: only (${url.protocol})`,
      );
    const { dispatcher, proxied } = dispatcherFor(url);
    let response: Response;
    try {
      const init: RequestInit & { dispatcher: Dispatcher } = {
        method,
        headers: first.headers,
        signal: first.signal,
        redirect: 'manual',
        dispatcher,
      };
      response = await fetch(url, init);
    } catch (error) {
      if (first.signal.aborted || isAbort(error)) throw error;
      throw chromiumError(error, proxied);
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    if (first.redirect === 'error')
      throw new Error("Attempted to redirect, but redirect policy was 'error'");
    if (first.redirect === 'manual') throw new Error('Redirect was cancelled');
    if (hop >= MAX_REDIRECTS) throw new Error('net::ERR_TOO_MANY_REDIRECTS');
    url = new URL(location, url);
    method = redirectMethod(response.status, method);
  }
}

/** The URL a ClientRequest's options name (Electron's parseOptions). */
function requestUrl(options: Electron.ClientRequestConstructorOptions | string): string {
  if (typeof options === 'string') return options;
  if (options.url) return options.url;
  const host =
    options.host ?? `${options.hostname ?? 'localhost'}${options.port ? `:${options.port}` : ''}`;
  return `${options.protocol ?? 'http:'}//${host}${options.path ?? '/'}`;
}

type ResponseHeaders = Record<string, string | string[]>;

/** Electron's IncomingMessage: a readable body with the status and headers. */
class StandinIncomingMessage extends Readable {
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly headers: ResponseHeaders;
  readonly httpVersion = '1.1';
  readonly httpVersionMajor = 1;
  readonly httpVersionMinor = 1;
  readonly #body: Readable;

  constructor(statusCode: number, headers: ResponseHeaders, body: Readable) {
    super();
    this.statusCode = statusCode;
    this.statusMessage = '';
    this.headers = headers;
    this.#body = body;
    body.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) body.pause();
    });
    body.on('end', () => this.push(null));
    body.on('error', (error) => this.destroy(error));
  }

  override _read(): void {
    this.#body.resume();
  }

  get rawHeaders(): string[] {
    return Object.entries(this.headers).flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value]).flatMap((one) => [name, one]),
    );
  }
}

/** Electron's ClientRequest: a writable body, then `response`, `redirect`, `error`, `abort`. */
export class StandinClientRequest extends Writable {
  readonly #url: string;
  readonly #method: string;
  readonly #headers = new Map<string, { name: string; value: string }>();
  readonly #redirect: 'follow' | 'error' | 'manual';
  readonly #chunks: Buffer[] = [];
  readonly #abort = new AbortController();
  #started = false;
  #aborted = false;
  #follow: (() => void) | undefined;

  constructor(
    options: Electron.ClientRequestConstructorOptions | string,
    callback?: (message: Electron.IncomingMessage) => void,
  ) {
    super();
    if (callback) this.once('response', callback);
    this.#url = requestUrl(options);
    const protocol = new URL(this.#url).protocol;
    if (protocol !== 'http:' && protocol !== 'https:')
      throw new Error('ClientRequest only supports http: and https: protocols');
    const given = typeof options === 'string' ? {} : options;
    this.#method = (given.method ?? 'GET').toUpperCase();
    this.#redirect = given.redirect ?? 'follow';
    for (const [name, value] of Object.entries(given.headers ?? {}))
      this.setHeader(name, Array.isArray(value) ? value.join(', ') : value);
  }

  setHeader(name: string, value: string): void {
    if (this.#started) throw new Error("Can't set headers after they are sent");
    this.#headers.set(name.toLowerCase(), { name, value: String(value) });
  }

  /** Typed as Electron's; like Electron's, undefined for a header not set. */
  getHeader(name: string): string {
    const header = this.#headers.get(name.toLowerCase());
    return header ? header.value : (undefined as never);
  }

  removeHeader(name: string): void {
    if (this.#started) throw new Error("Can't remove headers after they are sent");
    this.#headers.delete(name.toLowerCase());
  }

  followRedirect(): void {
    if (!this.#follow)
      throw new Error('followRedirect() called, but was not waiting for a redirect');
    this.#follow();
  }

  abort(): void {
    if (!this.#aborted) process.nextTick(() => this.emit('abort'));
    this.#aborted = true;
    this.#abort.abort();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.#chunks.push(Buffer.from(chunk));
    callback();
  }

  override _final(callback: () => void): void {
    this.#started = true;
    callback();
    void this.#send(new URL(this.#url), this.#method, 0);
  }

  async #send(url: URL, method: string, hop: number): Promise<void> {
    const { dispatcher, proxied } = dispatcherFor(url);
    const headers = Object.fromEntries(
      [...this.#headers.values()].map(({ name, value }) => [name, value]),
    );
    const body = this.#chunks.length > 0 ? Buffer.concat(this.#chunks) : undefined;
    let answer: Dispatcher.ResponseData;
    try {
      answer = await undiciRequest(url, {
        method,
        headers,
        ...(body ? { body } : {}),
        dispatcher,
        signal: this.#abort.signal,
      });
    } catch (error) {
      if (!this.#aborted) this.#fail(chromiumError(error, proxied));
      return;
    }
    const discard = () => {
      // Its body is not read: an abort arriving later must not raise an error nobody hears.
      answer.body.on('error', () => undefined);
      answer.body.destroy();
    };
    if (this.#aborted) return discard();
    const location = answer.headers.location;
    if (answer.statusCode >= 300 && answer.statusCode < 400 && typeof location === 'string') {
      discard();
      const next = new URL(location, url);
      const nextMethod = redirectMethod(answer.statusCode, method);
      if (hop >= MAX_REDIRECTS) return this.#fail(new Error('net::ERR_TOO_MANY_REDIRECTS'));
      if (this.#redirect === 'error')
        return this.#fail(new Error("Attempted to redirect, but redirect policy was 'error'"));
      let followed = this.#redirect === 'follow';
      this.#follow = () => (followed = true);
      try {
        this.emit('redirect', answer.statusCode, nextMethod, next.href, responseHeaders(answer));
      } finally {
        this.#follow = undefined;
      }
      if (this.#aborted) return;
      if (!followed) return this.#fail(new Error('Redirect was cancelled'));
      return this.#send(next, nextMethod, hop + 1);
    }
    const message = new StandinIncomingMessage(
      answer.statusCode,
      responseHeaders(answer),
      answer.body,
    );
    this.emit('response', message);
  }

  #fail(error: Error): void {
    this.emit('error', error);
  }
}

function responseHeaders(answer: Dispatcher.ResponseData): ResponseHeaders {
  const headers: ResponseHeaders = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  return headers;
}

export const net = {
  fetch: fetchThroughChromium,
  request: (options: Electron.ClientRequestConstructorOptions | string) =>
    new StandinClientRequest(options),
  // The desktop's network as a test set it (power-monitor.ts).
  isOnline: (): boolean => network.ask(),
  get online(): boolean {
    return network.ask();
  },
};
