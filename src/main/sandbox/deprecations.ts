// Endpoints the sandbox marks as deprecated (`--deprecate PATH[=SUNSET]`), so
// the app's and the CLI's handling of the service's deprecation notices can
// be seen and tested end to end. A marked endpoint answers with the headers
// RFC 9745 (Deprecation, a structured date: `@` epoch seconds) and RFC 8594
// (Sunset, an HTTP-date) define, and a Link to the changelog the interface
// says changes are announced in.

import { parseHttpDate } from '../store-api/http-date.ts';

/** The changelog a deprecation links to (the interface names none: this stands in for it). */
export const SANDBOX_CHANGELOG_URL = 'https://changelog.petstore.example/v1';

/** Since when a marked endpoint is deprecated (fixed, so answers repeat). */
export const DEPRECATED_SINCE = Date.UTC(2025, 0, 1);

export interface DeprecatedEndpoint {
  /** Path under /v1 as the interface writes it, e.g. `/store/orders/{orderId}`. */
  readonly path: string;
  /** Epoch ms of the sunset, if one was given. */
  readonly sunsetAt?: number;
}

export class DeprecationSpecError extends Error {
  override name = 'DeprecationSpecError';
}

/**
 * `PATH[=SUNSET]`: PATH under /v1 (`/store/orders`, `/pets/{petId}`; a
 * leading `/v1` is allowed), SUNSET a date (`2027-06-30`), an HTTP-date or
 * `@` epoch seconds.
 */
export function parseDeprecateSpec(text: string): DeprecatedEndpoint {
  const equals = text.indexOf('=');
  const rawPath = (equals < 0 ? text : text.slice(0, equals)).trim();
  const sunsetText = equals < 0 ? undefined : text.slice(equals + 1).trim();
  const path = rawPath.replace(/^\/v1(?=\/)/, '');
  if (!/^(\/([A-Za-z0-9._~-]+|\{[A-Za-z]+\}))+$/.test(path)) {
    throw new DeprecationSpecError(
      `"${rawPath}" is not an endpoint path such as /store/orders or /store/orders/{orderId}`,
    );
  }
  if (sunsetText === undefined) return { path };
  const sunsetAt = parseSunset(sunsetText);
  if (sunsetAt === undefined) {
    throw new DeprecationSpecError(
      `"${sunsetText}" is not a sunset date (write 2027-06-30, an HTTP-date, or @ and epoch seconds)`,
    );
  }
  return { path, sunsetAt };
}

function parseSunset(text: string): number | undefined {
  const epoch = /^@(-?\d{1,15})$/.exec(text);
  if (epoch) return Number(epoch[1]) * 1000;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (day) {
    const at = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    return new Date(at).toISOString().startsWith(text) ? at : undefined;
  }
  return parseHttpDate(text);
}

/** Whether a request path (under /v1, e.g. `/v1/store/orders/42`) is the endpoint's. */
function matches(endpoint: DeprecatedEndpoint, requestPath: string): boolean {
  if (!requestPath.startsWith('/v1/')) return false;
  const want = endpoint.path.split('/');
  const have = requestPath.slice(3).split('/');
  if (want.length !== have.length) return false;
  return want.every((part, i) => (part.startsWith('{') ? have[i] !== '' : part === have[i]));
}

/** The headers a request to `requestPath` is answered with; empty when it is not marked. */
export function deprecationHeaders(
  endpoints: readonly DeprecatedEndpoint[],
  requestPath: string,
): Record<string, string> {
  const endpoint = endpoints.find((candidate) => matches(candidate, requestPath));
  if (!endpoint) return {};
  const links = [`<${SANDBOX_CHANGELOG_URL}>; rel="deprecation"; type="text/html"`];
  if (endpoint.sunsetAt !== undefined)
    links.push(`<${SANDBOX_CHANGELOG_URL}>; rel="sunset"; type="text/html"`);
  return {
    Deprecation: `@${Math.floor(DEPRECATED_SINCE / 1000)}`,
    ...(endpoint.sunsetAt !== undefined
      ? { Sunset: new Date(endpoint.sunsetAt).toUTCString() }
      : {}),
    Link: links.join(', '),
  };
}
