// Plain words for what the checks report: the overall DNS status, the
// certificate status, and times and durations.

import type { CertificateStatus, DomainStatus } from '../../../../shared/domains.ts';
import type { Tone } from '../../components/status-region.tsx';
import { formatDateTime } from '../../format.ts';

export const DNS_STATUS_WORDS: Readonly<
  Record<DomainStatus, { readonly title: string; readonly next: string; readonly tone: Tone }>
> = {
  ready: {
    title: 'Ready: DNS is set up as the platform expects.',
    next: 'Next: press Verify in the dashboard (step 5).',
    tone: 'success',
  },
  pending: {
    title: 'Not there yet: the record cannot be seen yet.',
    next: 'If you have just created the record, wait and check again. If you have not created it yet, go back to step 3.',
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

/** "45 seconds", "5 minutes", "2 hours". */
export function describeDuration(seconds: number): string {
  const unit = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds < 120) return unit(seconds, 'second');
  if (seconds < 7200) return unit(Math.round(seconds / 60), 'minute');
  return unit(Math.round(seconds / 3600), 'hour');
}

/** A moment in local time, as the rest of the window shows dates. */
export function describeMoment(epochMs: number): string {
  return formatDateTime(new Date(epochMs).toISOString());
}
