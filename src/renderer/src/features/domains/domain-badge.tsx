// A domain's status badge in the list, from the checks main runs by itself:
// the status in words (the colour only beside them), when it was last
// checked, and when it is checked next or why the checks stopped.

import { DOMAIN_BADGE_WORDS, type DomainWatchView } from '../../../../shared/domain-watch.ts';
import { formatMoment } from '../../format.ts';
import { useNow } from '../../components/use-now.ts';

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
