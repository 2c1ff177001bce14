// A domain's status badge in the list, from the checks main runs by itself:
// the status in words (the colour only beside them), when it was last
// checked, and when it is checked next or why the checks stopped.

import { DOMAIN_BADGE_WORDS, type DomainWatchView } from '../../../../shared/domain-watch.ts';
import { useAppStore } from '../../store-context.tsx';
import { formatMoment } from '../../format.ts';
import { useNow } from '../../components/use-now.ts';

/** What main's own checks found for the domain the assistant has open, if it watches it. */
export function useOpenDomainWatch(domain: string): DomainWatchView | undefined {
  return useAppStore((state) => {
    const environment = state.domainSession?.environment;
    return environment === undefined ? undefined : state.domainWatches[environment]?.[domain];
  });
}

/** The badge line in an assistant step, saying the checks run by themselves. */
export function OwnChecksLine({ domain, what }: { domain: string; what: string }) {
  const watch = useOpenDomainWatch(domain);
  if (!watch) return null;
  return (
    <div className="own-checks">
      <p className="muted">Store Admin checks {what} by itself:</p>
      <DomainBadgeLine watch={watch} />
    </div>
  );
}

export function DomainBadgeLine({ watch }: { watch: DomainWatchView | undefined }) {
  const now = useNow(60_000);
  if (!watch) return null;
  const when =
    watch.checkedAt === undefined
      ? 'checking now'
      : `checked at ${formatMoment(watch.checkedAt, now)}`;
  const next =
    watch.stopped === 'gave-up'
      ? 'stopped checking after 48 hours'
      : watch.nextCheckAt !== undefined
        ? `next check at ${formatMoment(watch.nextCheckAt, now)}`
        : undefined;
  return (
    <div className="domain-badge-line">
      {watch.badge && (
        <span className={`domain-badge domain-badge-${watch.badge}`}>
          {DOMAIN_BADGE_WORDS[watch.badge]}
        </span>
      )}{' '}
      <span className="muted">{[when, next].filter(Boolean).join(' · ')}</span>
    </div>
  );
}
