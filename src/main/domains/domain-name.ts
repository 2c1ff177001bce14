// Turns what a clerk types or pastes into the one ASCII spelling DNS uses,
// and places it in the public suffix list: apex (the registrable domain
// itself) or a subdomain of it.

import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { getDomain, getPublicSuffix, getSubdomain } from 'tldts';
import type { DomainKind } from '../../shared/domains.ts';

export class DomainInputError extends Error {
  override readonly name = 'DomainInputError';
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Lower-case, one trailing dot removed, Unicode (IDN) turned into punycode.
 * Throws DomainInputError, in words a clerk can act on, for anything that
 * is not a host name. `what` names the field in the message.
 */
export function normaliseHostName(input: string, what = 'The domain'): string {
  const trimmed = input.trim();
  if (trimmed === '') throw new DomainInputError(`${what} is empty.`);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || trimmed.includes('/')) {
    throw new DomainInputError(
      `${what} "${trimmed}" looks like a web address. Enter the name only, without https:// or a path, e.g. shop.example.com.`,
    );
  }
  if (isIP(trimmed) !== 0 || isIP(trimmed.replace(/^\[|\]$/g, '')) !== 0) {
    throw new DomainInputError(
      `${what} "${trimmed}" is an IP address. Enter a name such as shop.example.com.`,
    );
  }
  const withoutDot = trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
  const ascii = domainToASCII(withoutDot.toLowerCase());
  if (ascii === '')
    throw new DomainInputError(
      `${what} "${trimmed}" is not a valid name: it contains characters a domain cannot have.`,
    );
  if (ascii.length > 253)
    throw new DomainInputError(
      `${what} "${trimmed}" is too long for a domain (at most 253 characters).`,
    );
  const labels = ascii.split('.');
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad !== undefined) {
    const why =
      bad === ''
        ? 'it has an empty part between dots'
        : bad.length > 63
          ? `the part "${bad}" is longer than 63 characters`
          : `the part "${bad}" may only hold letters, digits and inner hyphens`;
    throw new DomainInputError(`${what} "${trimmed}" is not a valid name: ${why}.`);
  }
  if (labels.length < 2)
    throw new DomainInputError(
      `${what} "${trimmed}" needs at least two parts, e.g. shop.example.com.`,
    );
  return ascii;
}

export interface PlacedDomain {
  /** ASCII, lower-case, no trailing dot. */
  readonly domain: string;
  readonly kind: DomainKind;
  /** The registrable domain (e.g. example.co.uk), which is the apex. */
  readonly registrableDomain: string;
  /** The public suffix (e.g. co.uk). */
  readonly publicSuffix: string;
  /** The labels left of the registrable domain; empty for the apex. */
  readonly subdomain: string;
}

/**
 * Normalises a customer domain and places it by the public suffix list
 * (ICANN section): a name that is itself a public suffix, or under none,
 * cannot be attached.
 */
export function placeDomain(input: string): PlacedDomain {
  const domain = normaliseHostName(input);
  const registrableDomain = getDomain(domain);
  const publicSuffix = getPublicSuffix(domain);
  if (registrableDomain === null || publicSuffix === null) {
    throw new DomainInputError(
      `"${domain}" is a public suffix (like com or co.uk), not a domain that can be registered. Enter your own domain, e.g. example.com or shop.example.com.`,
    );
  }
  const subdomain = getSubdomain(domain) ?? '';
  return {
    domain,
    kind: subdomain === '' ? 'apex' : 'subdomain',
    registrableDomain,
    publicSuffix,
    subdomain,
  };
}

/** Equal as DNS names: case-insensitive, trailing dot ignored. */
export function sameHostName(a: string, b: string): boolean {
  return a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');
}

/** A deadline in whole milliseconds, 1 ms to 10 minutes. */
export function validTimeout(ms: number): number {
  if (!Number.isInteger(ms) || ms < 1 || ms > 600_000) {
    throw new DomainInputError(
      `The timeout must be a whole number of milliseconds from 1 to 600000, not ${ms}.`,
    );
  }
  return ms;
}
