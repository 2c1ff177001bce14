// The domains Store Admin re-checks by itself (src/main/domains/domain-watcher.ts),
// as the renderer shows them: a status badge per domain with when it was last
// checked, and whether the certificate's troubleshooting is due.

import type { EnvironmentId } from './environments.ts';

/**
 * ready: DNS is as the platform expects (before verification), or the
 * certificate is in place (after); waiting-for-dns: the record cannot be seen
 * yet; misconfigured: DNS must be changed; certificate-missing: verified, and
 * no valid certificate yet; could-not-check: the lookups got no answer.
 */
export type DomainBadge =
  'ready' | 'waiting-for-dns' | 'misconfigured' | 'certificate-missing' | 'could-not-check';

/** What is checked: DNS until it is ready, then (once verified) the certificate. */
export type WatchPhase = 'dns' | 'certificate' | 'live';

export interface DomainWatchView {
  readonly environment: EnvironmentId;
  /** The domain as saved in the assistant's progress. */
  readonly domain: string;
  readonly phase: WatchPhase;
  /** Undefined until the first check. */
  readonly badge?: DomainBadge;
  /** Epoch ms of the last check. */
  readonly checkedAt?: number;
  /** Epoch ms of the next one; undefined once the checks stopped. */
  readonly nextCheckAt?: number;
  /** Why the checks stopped: the domain is ready, or 48 hours passed without it. */
  readonly stopped?: 'ready' | 'gave-up';
  /** Verified 30 minutes ago or more and still no valid certificate: the troubleshooting is due. */
  readonly troubleshoot: boolean;
}

/** The badge in a word or two, for the list. */
export const DOMAIN_BADGE_WORDS: Readonly<Record<DomainBadge, string>> = {
  ready: 'Ready',
  'waiting-for-dns': 'Waiting for DNS',
  misconfigured: 'Misconfigured',
  'certificate-missing': 'Certificate missing',
  'could-not-check': 'Could not check',
};
