// News from work that runs in the background, as the desktop gives it: a
// system notification when a bulk cancel finishes or a watched domain turns
// ready while the window is not in front (in front, the window shows it
// itself). A click brings the window forward on what it was about. Plain
// Node: Electron's Notification is behind NotificationPort (index.ts).

import type { BulkCancelSnapshot, BulkOutcome } from '../../shared/bulk-cancel.ts';
import type { DomainBadge, DomainWatchView } from '../../shared/domain-watch.ts';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../shared/environments.ts';
import type { EventPayloads } from '../../shared/ipc-contract.ts';

export interface BackgroundNews {
  readonly title: string;
  readonly body: string;
  /** What a click shows. */
  readonly show: EventPayloads['app:show'];
}

export interface NotificationPort {
  show(news: BackgroundNews, onClick: () => void): void;
}

export interface BackgroundNewsDeps {
  readonly windowFocused: () => boolean;
  readonly notifications: NotificationPort;
  /** Brings the window forward, showing `news.show`. */
  readonly showResult: (show: BackgroundNews['show']) => void;
}

export interface NewsSources {
  readonly bulkCancel: {
    onChange(listener: (environment: EnvironmentId) => void): () => void;
    snapshotNow(environment: EnvironmentId): BulkCancelSnapshot | undefined;
  };
  readonly watcher: {
    onChange(listener: (watch: DomainWatchView, previous?: DomainBadge) => void): () => void;
  };
}

const OUTCOME_WORDS: readonly [BulkOutcome, string][] = [
  ['cancelled', 'cancelled'],
  ['already-shipped', 'already shipped'],
  ['not-found', 'not found'],
  ['gone', 'gone'],
  ['failed', 'failed'],
];

/** "Staging: 30 cancelled, 5 already shipped, 2 not found." */
export function bulkCancelNews(snapshot: BulkCancelSnapshot): BackgroundNews {
  const counts = OUTCOME_WORDS.filter(([outcome]) => snapshot.counts[outcome] > 0).map(
    ([outcome, words]) => `${snapshot.counts[outcome].toLocaleString('en-US')} ${words}`,
  );
  const label = ENVIRONMENT_LABELS[snapshot.environment];
  return {
    title: 'Bulk cancel finished',
    body: `${label}: ${counts.length > 0 ? counts.join(', ') : 'nothing to cancel'}.`,
    show: { screen: 'orders', environment: snapshot.environment },
  };
}

export function domainReadyNews(watch: DomainWatchView): BackgroundNews {
  return {
    title: `${watch.domain} is ready`,
    body:
      watch.phase === 'dns'
        ? 'Its DNS is set up as the platform expects, so it can be verified now.'
        : 'Its certificate is in place.',
    show: { screen: 'domains', project: watch.project },
  };
}

/**
 * Tells the desktop about bulk cancels that finish and domains that turn
 * ready while the window is not in front. A bulk cancel counts only when this
 * run saw it unfinished (one restored finished from its journal is old news).
 * Returns the unsubscribe.
 */
export function watchForBackgroundNews(sources: NewsSources, deps: BackgroundNewsDeps): () => void {
  const unfinished = new Set<string>();
  const tell = (news: BackgroundNews) => {
    if (deps.windowFocused()) return;
    deps.notifications.show(news, () => deps.showResult(news.show));
  };
  const stopBulk = sources.bulkCancel.onChange((environment) => {
    const snapshot = sources.bulkCancel.snapshotNow(environment);
    if (!snapshot) return;
    const job = `${environment} ${snapshot.jobId}`;
    if (snapshot.status === 'finished') {
      if (unfinished.delete(job)) tell(bulkCancelNews(snapshot));
    } else if (snapshot.status === 'stopped') {
      // Stopped by the clerk: they know.
      unfinished.delete(job);
    } else {
      unfinished.add(job);
    }
  });
  const stopDomains = sources.watcher.onChange((watch, previous) => {
    if (watch.badge === 'ready' && previous !== 'ready') tell(domainReadyNews(watch));
  });
  return () => {
    stopBulk();
    stopDomains();
  };
}
