// Host names as a clerk types them (Unicode or punycode, any case, a trailing
// dot), placed by the public suffix list, and the rules of the multi-domain
// configuration (`domains.primary`, `domains.redirects`). Pure, so the
// renderer can check as the user types and tests can pin every rule.

import { parse } from 'tldts';
import type { DomainsConfig } from './domain-assistant.ts';
import type { DomainKind } from './domains.ts';

/** The one redirect status the interface documents. */
export const REDIRECT_STATUS = 301;
/** As many redirects as the saved configuration may hold (domainsConfigSchema). */
export const MAX_REDIRECTS = 100;

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV6 = /^\[?[0-9a-f:.]*:[0-9a-f:.]*\]?$/i;
// Ideographic and full-width full stops: IDNA reads them as dots.
const OTHER_DOTS = /[\u3002\uff0e\uff61]/g;

export type HostNameCheck =
  | {
      readonly ok: true;
      /** What DNS uses: lower-case ASCII (punycode), no trailing dot. */
      readonly ascii: string;
      /** For people: lower-case, Unicode kept when it was typed so, no trailing dot. */
      readonly display: string;
    }
  | { readonly ok: false; readonly message: string };

/**
 * The name in what a clerk pastes from a browser's address bar or a link:
 * "https://Shop.Example.com/" is "shop.example.com" (scheme, user, port,
 * path, query and fragment dropped; lower case). Undefined when the text is
 * not such an address (a plain name, or anything else), so it is checked as
 * it is.
 */
export function hostNameFromAddress(input: string): string | undefined {
  const text = input.trim();
  const withScheme = /^(?:[a-z][a-z0-9+.-]*:)?\/\/([^/?#\s]*)(?:[/?#]\S*)?$/i.exec(text);
  const withPath = /^([^/?#\s:@]+(?::\d{1,5})?)[/?#]\S*$/.exec(text);
  const host = withScheme?.[1] ?? withPath?.[1];
  if (host === undefined) return undefined;
  // user:password@ goes, and so does a port (a custom domain is served on the usual ones).
  const name = host
    .replace(/^[^@]*@/, '')
    .replace(/:\d{0,5}$/, '')
    .toLowerCase();
  return name === '' || name.startsWith('[') ? undefined : name;
}

/**
 * A domain or subdomain name as typed, in the one ASCII spelling DNS uses.
 * `what` names the field in the message ("The domain", "The target").
 */
export function normaliseHostName(input: string, what = 'The domain'): HostNameCheck {
  const trimmed = input.trim();
  const fail = (message: string): HostNameCheck => ({ ok: false, message });
  if (trimmed === '') return fail(`${what} is empty. Enter a name such as shop.example.com.`);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || trimmed.includes('/')) {
    return fail(
      `${what} "${trimmed}" looks like a web address. Enter the name only, without https:// or a path, e.g. shop.example.com.`,
    );
  }
  if (IPV4.test(trimmed) || (IPV6.test(trimmed) && trimmed.includes(':'))) {
    return fail(`${what} "${trimmed}" is an IP address. Enter a name such as shop.example.com.`);
  }
  if (trimmed.includes(':')) {
    return fail(
      `${what} "${trimmed}" has a port number. Enter the name only, e.g. shop.example.com.`,
    );
  }
  if (/[\s?#@%\\[\]<>"'`|^{}*,;=+!$&()~]/.test(trimmed)) {
    return fail(
      `${what} "${trimmed}" is not a valid name: it contains spaces or signs a domain cannot have.`,
    );
  }
  const dotted = trimmed.replace(OTHER_DOTS, '.');
  const display = (dotted.endsWith('.') ? dotted.slice(0, -1) : dotted)
    .toLowerCase()
    .normalize('NFC');
  if (IPV4.test(display)) {
    return fail(`${what} "${trimmed}" is an IP address. Enter a name such as shop.example.com.`);
  }
  const labels = display.split('.');
  const empty = labels.some((label) => label === '');
  if (empty)
    return fail(`${what} "${trimmed}" is not a valid name: it has an empty part between dots.`);
  if (labels.length < 2) {
    return fail(`${what} "${trimmed}" needs at least two parts, e.g. shop.example.com.`);
  }
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) {
    return fail(`${what} "${trimmed}" is not a valid name: its last part cannot be only digits.`);
  }
  let ascii: string;
  try {
    // The WHATWG URL host parser does IDNA (UTS 46) in Node and in Chromium alike.
    ascii = new URL(`http://${display}/`).hostname;
  } catch {
    return fail(
      `${what} "${trimmed}" is not a valid name: it contains characters a domain cannot have.`,
    );
  }
  if (ascii.length > 253) {
    return fail(`${what} "${trimmed}" is too long for a domain (at most 253 characters).`);
  }
  // IDNA maps full-width digits and other look-alikes to ASCII ("１２７.０.０.１"):
  // an address in disguise is still an address.
  if (IPV4.test(ascii)) {
    return fail(`${what} "${trimmed}" is an IP address. Enter a name such as shop.example.com.`);
  }
  const bad = ascii.split('.').find((label) => !LABEL.test(label));
  if (bad !== undefined) {
    const why =
      bad === ''
        ? 'it has an empty part between dots'
        : bad.length > 63
          ? `the part "${bad}" is longer than 63 characters`
          : `the part "${bad}" may only hold letters, digits and hyphens inside (not at either end)`;
    return fail(`${what} "${trimmed}" is not a valid name: ${why}.`);
  }
  // What is accepted must come out the same when given again (normalising is
  // idempotent): a name whose ASCII form would itself be refused is refused now.
  if (ascii !== display) {
    const again = normaliseHostName(ascii, what);
    if (!again.ok || again.ascii !== ascii) {
      return fail(
        `${what} "${trimmed}" is not a valid name: it contains characters a domain cannot have.`,
      );
    }
  }
  return { ok: true, ascii, display };
}

export interface PlacedHostName {
  /** Lower-case ASCII (punycode), no trailing dot: what DNS and the dashboard use. */
  readonly ascii: string;
  /** Lower-case, Unicode kept when typed so. */
  readonly display: string;
  readonly kind: DomainKind;
  /** The registrable domain in ASCII (e.g. example.co.uk): the apex. */
  readonly registrableDomain: string;
  /** The public suffix (e.g. co.uk). */
  readonly publicSuffix: string;
  /** The labels left of the registrable domain in ASCII, as registrars ask for the host; empty for the apex. */
  readonly subdomain: string;
}

export type PlaceResult =
  | { readonly ok: true; readonly place: PlacedHostName }
  | { readonly ok: false; readonly message: string };

/**
 * Normalises a domain and places it by the public suffix list (tldts): the
 * apex is the registrable domain itself, anything left of it a subdomain. A
 * public suffix itself (com, co.uk) cannot be attached.
 */
export function placeHostName(input: string, what = 'The domain'): PlaceResult {
  const name = normaliseHostName(input, what);
  if (!name.ok) return name;
  const parsed = parse(name.ascii);
  if (parsed.domain === null || parsed.publicSuffix === null) {
    return {
      ok: false,
      message: `${what} "${name.display}" is a public suffix (like com or co.uk), not a domain that can be registered. Enter your own domain, e.g. example.com or shop.example.com.`,
    };
  }
  const subdomain = parsed.subdomain ?? '';
  return {
    ok: true,
    place: {
      ascii: name.ascii,
      display: name.display,
      kind: subdomain === '' ? 'apex' : 'subdomain',
      registrableDomain: parsed.domain,
      publicSuffix: parsed.publicSuffix,
      subdomain,
    },
  };
}

// ---- The multi-domain configuration ----

/** The configuration as edited: any text, any status, before the rules are applied. */
export interface DomainsConfigDraft {
  readonly primary: string;
  readonly redirects: readonly {
    readonly from: string;
    readonly to: string;
    readonly status: number;
  }[];
}

export type ConfigProblemCode =
  | 'invalid-host-name' // primary, from or to is not a domain
  | 'status-not-301' // the documented redirect status is 301
  | 'redirect-to-itself' // from and to are the same domain
  | 'duplicate-from' // the same domain is redirected twice
  | 'primary-redirected' // the primary is redirected away, so it is not served
  | 'redirect-loop' // following the redirects comes back to where it started
  | 'redirect-to-redirected' // `to` is itself redirected, so it is not a served domain
  | 'too-many-redirects';

export type ConfigField =
  | { readonly kind: 'primary' }
  | { readonly kind: 'redirects' }
  | { readonly kind: 'redirect'; readonly index: number; readonly part: 'from' | 'to' | 'status' };

export interface ConfigProblem {
  readonly code: ConfigProblemCode;
  readonly field: ConfigField;
  /** Plain words, naming the redirect by its number (1 for the first). */
  readonly message: string;
}

export type ConfigValidation =
  | { readonly ok: true; readonly config: DomainsConfig }
  | { readonly ok: false; readonly problems: readonly ConfigProblem[] };

/**
 * Applies every rule of the multi-domain configuration and returns either
 * the configuration in ASCII (as the dashboard takes it) or every problem
 * found, each tied to its field.
 */
export function validateDomainsConfig(draft: DomainsConfigDraft): ConfigValidation {
  const problems: ConfigProblem[] = [];
  const primaryField: ConfigField = { kind: 'primary' };
  const field = (index: number, part: 'from' | 'to' | 'status'): ConfigField => ({
    kind: 'redirect',
    index,
    part,
  });

  const primaryPlace = placeHostName(draft.primary, 'The primary domain');
  if (!primaryPlace.ok) {
    problems.push({
      code: 'invalid-host-name',
      field: primaryField,
      message: primaryPlace.message,
    });
  }
  const primary = primaryPlace.ok ? primaryPlace.place.ascii : undefined;

  if (draft.redirects.length > MAX_REDIRECTS) {
    problems.push({
      code: 'too-many-redirects',
      field: { kind: 'redirects' },
      message: `There are ${draft.redirects.length} redirects; at most ${MAX_REDIRECTS} can be saved.`,
    });
  }

  interface Row {
    readonly index: number;
    readonly from?: PlacedHostName;
    readonly to?: PlacedHostName;
  }
  const rows: Row[] = draft.redirects.map((redirect, index) => {
    const n = index + 1;
    const from = placeHostName(redirect.from, `Redirect ${n}: the domain to redirect`);
    const to = placeHostName(redirect.to, `Redirect ${n}: the destination`);
    if (!from.ok)
      problems.push({
        code: 'invalid-host-name',
        field: field(index, 'from'),
        message: from.message,
      });
    if (!to.ok)
      problems.push({ code: 'invalid-host-name', field: field(index, 'to'), message: to.message });
    if (redirect.status !== REDIRECT_STATUS) {
      problems.push({
        code: 'status-not-301',
        field: field(index, 'status'),
        message: `Redirect ${n}: the status is ${redirect.status}, but the documented redirect status is ${REDIRECT_STATUS} (moved permanently). Use ${REDIRECT_STATUS}.`,
      });
    }
    return {
      index,
      ...(from.ok ? { from: from.place } : {}),
      ...(to.ok ? { to: to.place } : {}),
    };
  });

  // Where each redirected domain goes: the first redirect that names it wins.
  const firstFrom = new Map<string, Row>();
  for (const row of rows) {
    if (!row.from) continue;
    const earlier = firstFrom.get(row.from.ascii);
    if (earlier) {
      problems.push({
        code: 'duplicate-from',
        field: field(row.index, 'from'),
        message: `Redirect ${row.index + 1}: ${row.from.display} is already redirected by redirect ${earlier.index + 1}. A domain can be redirected only once; remove one of them.`,
      });
    } else {
      firstFrom.set(row.from.ascii, row);
    }
  }
  const next = (ascii: string): PlacedHostName | undefined => firstFrom.get(ascii)?.to;

  for (const row of rows) {
    const { from, to } = row;
    const n = row.index + 1;
    if (from && primary !== undefined && from.ascii === primary) {
      problems.push({
        code: 'primary-redirected',
        field: field(row.index, 'from'),
        message: `Redirect ${n}: ${from.display} is the primary domain, so it cannot be redirected: it is the one that serves the project. Choose another primary or remove this redirect.`,
      });
    }
    if (!from || !to) continue;
    if (from.ascii === to.ascii) {
      problems.push({
        code: 'redirect-to-itself',
        field: field(row.index, 'to'),
        message: `Redirect ${n}: ${from.display} redirects to itself, so visitors would never arrive. Send it to the primary domain or to another domain that is served.`,
      });
      continue;
    }
    // Follow the redirects from the destination: coming back to a domain
    // already on the way is a loop; any further redirect means the
    // destination is not itself served.
    const path: PlacedHostName[] = [from];
    let current: PlacedHostName | undefined = to;
    let cycle: PlacedHostName[] | undefined;
    while (current) {
      const step: PlacedHostName = current;
      const seenAt = path.findIndex((place) => place.ascii === step.ascii);
      if (seenAt >= 0) {
        cycle = [...path.slice(seenAt), step];
        break;
      }
      path.push(step);
      current = next(step.ascii);
    }
    if (cycle) {
      problems.push({
        code: 'redirect-loop',
        field: field(row.index, 'to'),
        message: `Redirect ${n}: the redirects go round in a loop (${cycle.map((place) => place.display).join(' → ')}), so visitors would never arrive. Point one of them at the primary domain.`,
      });
      continue;
    }
    const onward = next(to.ascii);
    const final = path[path.length - 1];
    if (onward && final && to.ascii !== primary) {
      problems.push({
        code: 'redirect-to-redirected',
        field: field(row.index, 'to'),
        message: `Redirect ${n}: ${to.display} is itself redirected (to ${onward.display}), so it serves nothing. Redirect ${from.display} straight to ${final.display}, a domain that is served.`,
      });
    }
  }

  if (problems.length > 0 || primary === undefined) return { ok: false, problems };
  return {
    ok: true,
    config: {
      primary,
      redirects: rows.map((row) => ({
        from: row.from?.ascii ?? '',
        to: row.to?.ascii ?? '',
        status: REDIRECT_STATUS,
      })),
    },
  };
}

/** The configuration as the dashboard shows it: `{ "domains": { ... } }`, pretty-printed. */
export function domainsConfigJson(config: DomainsConfig): string {
  return JSON.stringify(
    {
      domains: {
        primary: config.primary,
        redirects: config.redirects.map(({ from, to, status }) => ({ from, to, status })),
      },
    },
    null,
    2,
  );
}
