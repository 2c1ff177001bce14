// A domain's status badge in the list, from the checks main runs by itself:
// the status in words (the colour only beside them), when it was last
// checked, and when it is checked next or why the checks stopped.

import { DOMAIN_BADGE_WORDS, type DomainWatchView } from '../../../../shared/domain-watch.ts';
import { formatHourMinute } from '../../format.ts';
import { describeMoment } from './domain-words.ts';

export function DomainBadgeLine({ watch }: { watch: DomainWatchView | undefined }) {
  if (!watch) return null;
  const when =
    watch.checkedAt === undefined ? 'checking now' : `checked ${describeMoment(watch.checkedAt)}`;
  const next =
    watch.stopped === 'gave-up'
      ? 'stopped checking after 48 hours'
      : watch.nextCheckAt !== undefined
        ? `next check at ${formatHourMinute(watch.nextCheckAt)}`
        : undefined;
  return (
    <div className="domain-badge-line">
      {watch.badge && (
        <span className={`domain-badge domain-badge-${watch.badge}`}>
          {DOMAIN_BADGE_WORDS[watch.badge]}
        </span>
      )}
      <span className="muted">{[when, next].filter(Boolean).join(' · ')}</span>
    </div>
  );
}
