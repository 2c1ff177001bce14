// A domain's status badge in the list, from the latest check (main's own, or
// one the clerk ran: main keeps one verdict): the status in words (the colour
// only beside them), when it was last checked, and when it is checked next
// or why the checks stopped.

import { DOMAIN_BADGE_WORDS, type DomainWatchView } from '../../../../shared/domain-watch.ts';
import { useAppStore } from '../../store-context.tsx';
import { formatMoment } from '../../format.ts';
import { useNow } from '../../components/use-now.ts';

/** What main's own checks found for the domain the assistant has open, if it watches it. */
export function useOpenDomainWatch(domain: string): DomainWatchView | undefined {
  return useAppStore((state) => {
    const project = state.domainSession?.project;
    return project === undefined ? undefined : state.domainWatches[project]?.[domain];
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
  // A next check whose time has come is under way (its result replaces this line): never a time gone by.
  const due = watch.nextCheckAt !== undefined && watch.nextCheckAt <= now;
  const when =
    watch.checkedAt === undefined
      ? 'checking now'
      : `checked at ${formatMoment(watch.checkedAt, now)}`;
  const next =
    watch.stopped === 'gave-up'
      ? 'stopped checking after 48 hours'
      : watch.nextCheckAt === undefined
        ? undefined
        : due
          ? watch.checkedAt === undefined
            ? undefined
            : 'checking again now'
          : `next check at ${formatMoment(watch.nextCheckAt, now)}`;
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
