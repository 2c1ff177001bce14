// The domains Store Admin re-checks by itself (src/main/domains/domain-watcher.ts),
// as the renderer shows them: a status badge per domain with when it was last
// checked (by itself or by the clerk), and whether the certificate's
// troubleshooting is due.

import type { ProjectId } from './domain-projects.ts';

/**
 * ready: DNS is as the platform expects (before verification), or a valid
 * certificate is in place (after); waiting-for-dns: the record cannot be seen
 * yet; misconfigured: DNS must be changed; certificate-missing: verified, and
 * the site answers without a certificate; certificate-problem: there is one,
 * but it is not valid (expired, not for this name, not trusted);
 * site-unreachable: the site did not answer over https; could-not-check:
 * the lookups got no answer.
 */
export const DOMAIN_BADGES = [
  'ready',
  'waiting-for-dns',
  'misconfigured',
  'certificate-missing',
  'certificate-problem',
  'site-unreachable',
  'could-not-check',
] as const;
export type DomainBadge = (typeof DOMAIN_BADGES)[number];

/** What is checked: DNS until it is ready, then (once verified) the certificate. */
export type WatchPhase = 'dns' | 'certificate' | 'live';

export interface DomainWatchView {
  readonly project: ProjectId;
  /** The domain as saved in the assistant's progress. */
  readonly domain: string;
  readonly phase: WatchPhase;
  /** Undefined until the first check. */
  readonly badge?: DomainBadge;
  /** Epoch ms of the last check. */
  readonly checkedAt?: number;
  /**
   * Why the badge is not Ready: the last check's most pressing finding, in
   * its words (what is wrong and what to do), so the badge says why without
   * the clerk running the check again. Undefined when ready.
   */
  readonly reason?: string;
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
  'certificate-missing': 'No certificate yet',
  'certificate-problem': 'Certificate has a problem',
  'site-unreachable': 'Site not reachable',
  'could-not-check': 'Could not check',
};
