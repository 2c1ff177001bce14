// A domain's status badge in the list, from the latest check (main's own, or
// one the clerk ran: main keeps one verdict): the status in words (the colour
// only beside them), why when it is not Ready, when it was last checked, and
// when it is checked next (soon: in minutes from now, since a time within the
// minute of the last check reads as stale) or why the checks stopped.

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

/**
 * The badge line in an assistant step, saying the checks run by themselves.
 * `resultShown`: the step shows a check's findings itself, so the badge's
 * reason is not said again here.
 */
export function OwnChecksLine({
  domain,
  what,
  resultShown,
}: {
  domain: string;
  what: string;
  resultShown: boolean;
}) {
  const watch = useOpenDomainWatch(domain);
  if (!watch) return null;
  return (
    <div className="own-checks">
      <p className="muted">Store Admin checks {what} by itself:</p>
      <DomainBadgeLine watch={watch} withReason={!resultShown} />
    </div>
  );
}

export function DomainBadgeLine({
  watch,
  withReason = true,
}: {
  watch: DomainWatchView | undefined;
  withReason?: boolean;
}) {
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
          : `next check ${whenNext(watch.nextCheckAt, now)}`;
  return (
    <div className="domain-badge-line">
      {watch.badge && (
        <span className={`domain-badge domain-badge-${watch.badge}`}>
          {DOMAIN_BADGE_WORDS[watch.badge]}
        </span>
      )}{' '}
      <span className="muted">{[when, next].filter(Boolean).join(' · ')}</span>
      {withReason && watch.reason && <p className="domain-badge-reason">{watch.reason}</p>}
    </div>
  );
}

/** "in less than a minute", "in about 4 minutes" within the hour; later, "at 6:30 PM". */
function whenNext(at: number, now: number): string {
  const minutes = Math.round((at - now) / 60_000);
  if (at - now < 60_000) return 'in less than a minute';
  if (minutes < 60) return `in about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `at ${formatMoment(at, now)}`;
}
