// Host names as the main process takes them: the shared normaliser
// (src/shared/domains-config.ts, which the assistant also uses in the
// renderer, so both sides accept exactly the same names), with failures
// thrown as DomainInputError.

import type { DomainKind } from '../../shared/domains.ts';
import { normaliseHostName as normalise, placeHostName } from '../../shared/domains-config.ts';

export class DomainInputError extends Error {
  override readonly name = 'DomainInputError';
}

/**
 * Lower-case, one trailing dot removed, Unicode (IDN) turned into punycode.
 * Throws DomainInputError, in words a clerk can act on, for anything that
 * is not a host name. `what` names the field in the message.
 */
export function normaliseHostName(input: string, what = 'The domain'): string {
  const name = normalise(input, what);
  if (!name.ok) throw new DomainInputError(name.message);
  return name.ascii;
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
 * Normalises a customer domain and places it by the public suffix list: a
 * name that is itself a public suffix, or under none, cannot be attached.
 */
export function placeDomain(input: string): PlacedDomain {
  const placed = placeHostName(input);
  if (!placed.ok) throw new DomainInputError(placed.message);
  const { ascii, kind, registrableDomain, publicSuffix, subdomain } = placed.place;
  return { domain: ascii, kind, registrableDomain, publicSuffix, subdomain };
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
