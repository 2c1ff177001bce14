// How the command line reaches the service from a company's network.
//
// Proxy: HTTPS_PROXY for https:// addresses, HTTP_PROXY for http:// (and for
// https:// when HTTPS_PROXY is not set), hosts in NO_PROXY go direct; each in
// upper or lower case, the lower winning, as npm, curl, gh and Node itself read
// them. undici's EnvHttpProxyAgent (the undici team's, made for exactly this)
// does the routing and the CONNECT tunnels; it is handed to Node's own fetch
// as its dispatcher. Node's built-in NODE_USE_ENV_PROXY does the same but is
// still marked "active development", must be set before Node starts (the bin
// cannot turn it on for itself) and is missing from some Node versions the
// bin runs on.
//
// Certificates: what Node trusts (its bundled authorities and those in
// NODE_EXTRA_CA_CERTS, or the system's with NODE_USE_SYSTEM_CA=1). When a
// certificate is refused as untrusted, the system's store is added (where
// Node can read it) and the request is tried once more: reading that store
// costs about half a second, so a run pays it only when it needs it. Nothing
// was sent on the refused try (the handshake failed first).

import { createSecureContext, getCACertificates, type ConnectionOptions } from 'node:tls';
import type * as Undici from 'undici';
import type { Dispatcher, EnvHttpProxyAgent } from 'undici';
import { certificateProblem, ProxyRefusal } from '../main/store-api/errors.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** The proxy settings of an environment, each as the first variable set of its pair. */
export interface ProxyEnvironment {
  readonly httpProxy?: ProxySetting;
  readonly httpsProxy?: ProxySetting;
  /** NO_PROXY as written: host names, `.domain`, `*.domain`, `host:port`, or `*`. */
  readonly noProxy?: string;
}

export interface ProxySetting {
  /** The proxy's URL, with any user name and password (sent to the proxy only). */
  readonly url: string;
  /** Its host and port, for messages. */
  readonly host: string;
  /** The variable it came from, e.g. `HTTPS_PROXY`. */
  readonly variable: string;
}

export class ProxySettingError extends Error {
  override name = 'ProxySettingError';
}

/** The first of the variables that is set and not blank. */
function firstSet(env: Env, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

function proxySetting(env: Env, lower: string): ProxySetting | undefined {
  const found = firstSet(env, [lower, lower.toUpperCase()]);
  if (!found) return undefined;
  // As curl does, a bare host:port means an http:// proxy.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(found.value) ? found.value : `http://${found.value}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    url = new URL('invalid:');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
    throw new ProxySettingError(
      `${found.name} is not a proxy address: it should read http://host:port (or https://host:port).`,
    );
  return { url: url.href, host: url.host, variable: found.name };
}

/** Reads HTTP_PROXY, HTTPS_PROXY and NO_PROXY (either case); throws ProxySettingError for a proxy that is no address. */
export function proxyEnvironment(env: Env): ProxyEnvironment {
  const httpProxy = proxySetting(env, 'http_proxy');
  const httpsProxy = proxySetting(env, 'https_proxy');
  const noProxy = firstSet(env, ['no_proxy', 'NO_PROXY'])?.value;
  return {
    ...(httpProxy ? { httpProxy } : {}),
    ...(httpsProxy ? { httpsProxy } : {}),
    ...(noProxy ? { noProxy } : {}),
  };
}

export interface CliNetworkOptions {
  /** The system's CA certificates (PEM), where Node can read them; tests give their own. */
  readonly systemCertificates?: () => readonly string[];
}

export interface CliNetwork {
  /** For StoreClient's `fetch` option. */
  readonly fetch: typeof fetch;
  /** Whether this run has turned to the system's certificate store (at most once). */
  triedSystemStore(): boolean;
  /** Closes the proxy's connections, so the run can end. */
  close(): Promise<void>;
}

function readSystemCertificates(): readonly string[] {
  try {
    return getCACertificates('system');
  } catch {
    // Older Node: no system store to read.
    return [];
  }
}

/**
 * The command line's fetch: through the environment's proxy, trusting what
 * Node trusts and, once a certificate is refused as untrusted, the system's
 * store as well. Without a proxy it is Node's fetch as it is until then.
 */
export function cliNetwork(env: Env, options: CliNetworkOptions = {}): CliNetwork {
  const proxies = proxyEnvironment(env);
  const proxied = proxies.httpProxy !== undefined || proxies.httpsProxy !== undefined;
  const systemCertificates = options.systemCertificates ?? readSystemCertificates;
  // undici loads only when a run needs it (a proxy, or the system's store): a plain run starts as before.
  let undici: Promise<typeof Undici> | undefined;
  const loadUndici = (): Promise<typeof Undici> => (undici ??= import('undici'));
  const agents: Dispatcher[] = [];
  let direct: Promise<Dispatcher | undefined> | undefined;

  const agent = async (tls: ConnectionOptions | undefined): Promise<EnvHttpProxyAgent> => {
    const { EnvHttpProxyAgent } = await loadUndici();
    const secure = tls ? { connect: tls, requestTls: tls, proxyTls: tls } : {};
    // Empty strings, not undefined: undici would read process.env itself, and these come from `env`.
    const made = new EnvHttpProxyAgent({
      httpProxy: proxies.httpProxy?.url ?? '',
      httpsProxy: proxies.httpsProxy?.url ?? '',
      noProxy: proxies.noProxy ?? '',
      // http:// goes to the proxy as a plain forwarded request, as curl sends it; many
      // company proxies allow CONNECT only to port 443. https:// is always tunnelled.
      proxyTunnel: false,
      ...secure,
    });
    agents.push(made);
    return made;
  };
  const plain = (): Promise<Dispatcher | undefined> =>
    (direct ??= proxied ? agent(undefined) : Promise.resolve(undefined));
  const systemTrusting = async (): Promise<Dispatcher | undefined> => {
    const system = systemCertificates();
    if (system.length === 0) return undefined;
    // One context for the run: building it from some hundred certificates costs a good part of a second.
    const ca = [...new Set([...getCACertificates('default'), ...system])];
    return agent({ secureContext: createSecureContext({ ca }) });
  };
  let current: () => Promise<Dispatcher | undefined> = plain;
  let systemAdded = false;

  const send = async (
    input: string | URL | Request,
    init: RequestInit | undefined,
    dispatcher: Dispatcher | undefined,
  ): Promise<Response> => {
    try {
      return await fetch(input, dispatcher ? withDispatcher(init, dispatcher) : init);
    } catch (error) {
      throw proxyRefusal(error, urlOf(input), proxies) ?? error;
    }
  };

  const networkFetch = async (
    input: string | URL | Request,
    init?: RequestInit,
  ): Promise<Response> => {
    // A request without a body (all of the client's) can be sent again from a copy.
    const again =
      input instanceof Request ? (input.body === null ? input.clone() : undefined) : input;
    try {
      return await send(input, init, await current());
    } catch (error) {
      if (systemAdded || again === undefined || certificateProblem(error) !== 'untrusted')
        throw error;
      systemAdded = true;
      const trusting = await systemTrusting();
      if (!trusting) throw error;
      current = async () => trusting;
      return send(again, init, trusting);
    }
  };

  return {
    fetch: networkFetch,
    triedSystemStore: () => systemAdded,
    close: async () => {
      await Promise.all(agents.splice(0).map((made) => made.close()));
    },
  };
}

/** Node's fetch takes an undici dispatcher beside the standard options. */
function withDispatcher(init: RequestInit | undefined, dispatcher: Dispatcher): RequestInit {
  const withOne: RequestInit & { dispatcher: Dispatcher } = { ...init, dispatcher };
  return withOne;
}

function urlOf(input: string | URL | Request): URL {
  return new URL(input instanceof Request ? input.url : input);
}

/**
 * A failure the proxy caused, in words naming it: it could not be reached,
 * or it answered CONNECT with something other than 200.
 */
function proxyRefusal(
  error: unknown,
  url: URL,
  proxies: ProxyEnvironment,
): ProxyRefusal | undefined {
  const proxy =
    url.protocol === 'https:' ? (proxies.httpsProxy ?? proxies.httpProxy) : proxies.httpProxy;
  if (!proxy) return undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, address, port, message } = current as {
      code?: unknown;
      address?: unknown;
      port?: unknown;
      message?: unknown;
    };
    // The address refused is the proxy's, not the service's (a NO_PROXY host went direct).
    if (code === 'ECONNREFUSED' && typeof address === 'string') {
      return sameHostAndPort(proxy.url, address, port)
        ? new ProxyRefusal(proxy.host, undefined, { cause: error })
        : undefined;
    }
    const tunnel =
      typeof message === 'string' ? /^Proxy response \((\d+)\) !== 200/.exec(message) : null;
    if (tunnel) return new ProxyRefusal(proxy.host, Number(tunnel[1]), { cause: error });
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function sameHostAndPort(proxyUrl: string, address: string, port: unknown): boolean {
  const url = new URL(proxyUrl);
  const proxyPort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A proxy named by host name (localhost) connects to its address (127.0.0.1).
  const loopback = (h: string) => h === 'localhost' || h === '127.0.0.1' || h === '::1';
  return proxyPort === port && (host === address || (loopback(host) && loopback(address)));
}
