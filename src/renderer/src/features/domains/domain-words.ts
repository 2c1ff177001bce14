// Plain words for what the checks report: the overall DNS status, the
// certificate status, and moments.

import type { CertificateStatus, DomainStatus } from '../../../../shared/domains.ts';
import type { Tone } from '../../components/status-region.tsx';
import { formatMoment } from '../../format.ts';

export const DNS_STATUS_WORDS: Readonly<
  Record<DomainStatus, { readonly title: string; readonly next?: string; readonly tone: Tone }>
> = {
  ready: {
    title: 'Ready: DNS is set up as the platform expects.',
    next: 'Next: press Verify in the dashboard (step 5).',
    tone: 'success',
  },
  // What to do is the Waiting item's to say (how long DNS may take, which record to create).
  pending: {
    title: 'Not there yet: the record cannot be seen yet.',
    tone: 'warning',
  },
  misconfigured: {
    title: 'Needs a change: DNS is not yet as the platform expects.',
    next: 'Make the changes under Must fix at your DNS provider, then check again.',
    tone: 'error',
  },
  error: {
    title: 'The check could not finish: some DNS lookups got no answer.',
    next: 'Check again in a moment, or choose another DNS server under How to check.',
    tone: 'error',
  },
};

/** The status in a few words, for a line such as "Last DNS check …: needs a change". */
export const DNS_STATUS_SHORT: Readonly<Record<DomainStatus, string>> = {
  ready: 'ready',
  pending: 'not there yet',
  misconfigured: 'needs a change',
  error: 'could not finish',
};

export const CERTIFICATE_STATUS_WORDS: Readonly<Record<CertificateStatus, string>> = {
  valid: 'A valid certificate is in place.',
  invalid: 'A certificate is there, but it has a problem.',
  missing: 'The server answered without a certificate.',
  unreachable: 'The site could not be reached over https from this computer.',
};

/**
 * A moment as the rest of the domain screens say it: today's as the time
 * alone ("5:02 PM"), another day's with its date (formatMoment).
 */
export function describeMoment(epochMs: number, now: number): string {
  return formatMoment(epochMs, now);
}

/** The same for an ISO 8601 time from a check's report; the text as sent when it does not parse. */
export function describeIsoMoment(iso: string, now: number): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : describeMoment(at, now);
}
