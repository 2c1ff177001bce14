// The service's deprecation notices, read from any answer's headers:
// `Deprecation` (RFC 9745: a structured-field date, `@` and epoch seconds),
// `Sunset` (RFC 8594: an HTTP-date) and `Link`s with rel="deprecation" or
// rel="sunset" (where to read about it). Both date forms are read in both
// headers, since services mix them up (and an early draft of Deprecation
// used an HTTP-date, or `true` for "deprecated, no date given").

import { parseHttpDate } from './http-date.ts';

export interface DeprecationHeaders {
  /** Epoch ms since (or from) when the endpoint is deprecated; undefined when no date was given. */
  readonly deprecatedAt?: number;
  /** Epoch ms from when the endpoint may stop answering. */
  readonly sunsetAt?: number;
  /** Where the service says to read about it (its rel="deprecation" link, else rel="sunset"). */
  readonly link?: string;
}

/** Dates past this are not believed (year 9999, beyond any HTTP-date). */
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59);

/** `@` epoch seconds (RFC 9651 Date) or an HTTP-date, as epoch ms. */
export function parseHeaderDate(value: string, now: number = Date.now()): number | undefined {
  const text = value.trim();
  const structured = /^@(-?\d{1,15})$/.exec(text);
  if (structured) {
    const ms = Number(structured[1]) * 1000;
    return Math.abs(ms) <= LATEST ? ms : undefined;
  }
  return parseHttpDate(text, now);
}

interface LinkValue {
  readonly target: string;
  readonly rels: readonly string[];
}

/**
 * The links of a Link header (RFC 8288): `<target>; param; param, <target>…`.
 * Targets may hold commas and semicolons; parameter values may be quoted
 * (with backslash escapes). Unreadable parts are skipped, never guessed at.
 */
export function parseLinkHeader(value: string): LinkValue[] {
  const links: LinkValue[] = [];
  let at = 0;
  const length = value.length;
  while (at < length) {
    const open = value.indexOf('<', at);
    if (open < 0) break;
    const close = value.indexOf('>', open + 1);
    if (close < 0) break;
    const target = value.slice(open + 1, close).trim();
    at = close + 1;
    const rels: string[] = [];
    // Parameters up to the next comma outside quotes.
    while (at < length) {
      while (at < length && (value[at] === ' ' || value[at] === '\t')) at++;
      if (value[at] === ',') {
        at++;
        break;
      }
      if (value[at] !== ';') {
        // Not a parameter: skip to the next link.
        const next = value.indexOf(',', at);
        at = next < 0 ? length : next + 1;
        break;
      }
      at++;
      const name = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*/.exec(value.slice(at));
      if (!name) continue;
      at += name[0].length;
      let parameter = '';
      if (value[at] === '=') {
        at++;
        while (value[at] === ' ' || value[at] === '\t') at++;
        if (value[at] === '"') {
          at++;
          while (at < length && value[at] !== '"') {
            if (value[at] === '\\' && at + 1 < length) at++;
            parameter += value[at];
            at++;
          }
          at++;
        } else {
          const token = /^[^,;\s]*/.exec(value.slice(at))![0];
          parameter = token;
          at += token.length;
        }
      }
      if (name[1]!.toLowerCase() === 'rel')
        rels.push(...parameter.toLowerCase().split(/\s+/).filter(Boolean));
    }
    links.push({ target, rels });
  }
  return links;
}

/**
 * What an answer's headers say of its endpoint's deprecation, or undefined
 * when they say nothing. A link counts only when it is an absolute https
 * address: main opens nothing else.
 */
export function readDeprecationHeaders(
  headers: Headers,
  now: number = Date.now(),
): DeprecationHeaders | undefined {
  const deprecation = headers.get('deprecation');
  const sunset = headers.get('sunset');
  const links = parseLinkHeader(headers.get('link') ?? '');
  // Anything unprintable in what the service sent is percent-encoded, as the URL parser writes it.
  const linkOf = (rel: string) => {
    const target = links.find((l) => l.rels.includes(rel) && isHttpsAddress(l.target))?.target;
    return target === undefined || /^[\x21-\x7e]*$/.test(target) ? target : new URL(target).href;
  };
  const link = linkOf('deprecation') ?? linkOf('sunset');
  const deprecatedAt =
    deprecation === null || deprecation.trim().toLowerCase() === 'true'
      ? undefined
      : parseHeaderDate(deprecation, now);
  const sunsetAt = sunset === null ? undefined : parseHeaderDate(sunset, now);
  // A Deprecation header whose date cannot be read still says the endpoint is deprecated.
  const said =
    deprecation !== null ||
    sunsetAt !== undefined ||
    links.some((l) => l.rels.includes('deprecation') || l.rels.includes('sunset'));
  if (!said) return undefined;
  return {
    ...(deprecatedAt !== undefined ? { deprecatedAt } : {}),
    ...(sunsetAt !== undefined ? { sunsetAt } : {}),
    ...(link !== undefined ? { link } : {}),
  };
}

function isHttpsAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && !url.username && !url.password && url.hostname !== '';
  } catch {
    return false;
  }
}
