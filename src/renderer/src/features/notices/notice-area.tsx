// The window's one notice area, under the header: each current condition of
// the active environment once (see notices.ts), as one alert with one
// sentence, at most one action, and the codes and the service's own words
// behind "Details". Empty, it takes no room.

import type { EnvironmentId } from '../../../../shared/environments.ts';
import { useAppStore } from '../../store-context.tsx';
import { OpenSettingsButton } from '../settings/open-settings-button.tsx';
import { useSecondTicks } from '../quota/meter-clock.tsx';
import { formatCountdown } from '../quota/quota-meter-model.ts';
import { noticesFor, type Notice } from './notices.ts';

export interface NoticeActions {
  /**
   * Asks main to try the held requests now, before a rate limit's time
   * (window.storeAdmin.quota.tryNow). Without it the notice offers no action.
   */
  readonly tryNow?: (environment: EnvironmentId) => unknown;
}

export function NoticeArea({ actions }: { actions?: NoticeActions | undefined }) {
  const environment = useAppStore((state) => state.activeEnvironment);
  const connectivity = useAppStore((state) => state.connectivity[environment]);
  const quota = useAppStore((state) => state.quotas[environment]);
  const orders = useAppStore((state) => state.orders[environment]);
  const bulkJob = useAppStore((state) => state.bulkJobs[environment]);
  const switchProblem = useAppStore((state) => state.switchProblem);
  const hasBaseUrl = useAppStore(
    (state) =>
      environment === 'sandbox' ||
      state.environments.some((view) => view.id === environment && view.baseUrl),
  );
  // Holds end and ages grow as time passes; the same clock as the quota meter's countdown.
  const now = useSecondTicks(true);

  const notices = noticesFor({
    environment,
    now,
    connectivity,
    quota,
    orders,
    bulkJob,
    hasBaseUrl,
    switchProblem,
  });

  return (
    <section aria-label="Notices" className="notice-area">
      {notices.map((notice) => (
        <NoticeItem key={notice.kind} notice={notice} now={now} actions={actions} />
      ))}
    </section>
  );
}

function NoticeItem({
  notice,
  now,
  actions,
}: {
  notice: Notice;
  now: number;
  actions: NoticeActions | undefined;
}) {
  return (
    <div role="alert" className={`notice notice-${notice.tone}`} data-notice={notice.kind}>
      <p className="notice-text">
        <strong>{notice.title}</strong> {notice.sentence}
        {notice.until !== undefined && (
          <span className="notice-countdown"> (in {formatCountdown(notice.until - now)})</span>
        )}
      </p>
      <NoticeActionButton notice={notice} actions={actions} />
      {notice.details.length > 0 && (
        <details className="notice-details">
          <summary>Details</summary>
          {notice.details.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </details>
      )}
    </div>
  );
}

function NoticeActionButton({
  notice,
  actions,
}: {
  notice: Notice;
  actions: NoticeActions | undefined;
}) {
  const refreshOrders = useAppStore((state) => state.refreshOrders);
  const loadQuota = useAppStore((state) => state.loadQuota);
  const { environment } = notice;
  switch (notice.action) {
    case 'retry':
      return (
        <button
          type="button"
          className="notice-action"
          onClick={() => void refreshOrders(environment)}
        >
          Retry
        </button>
      );
    case 'open-settings':
      return <OpenSettingsButton environment={environment} />;
    case 'try-now': {
      const tryNow = actions?.tryNow;
      if (!tryNow) return null;
      return (
        <button
          type="button"
          className="notice-action"
          onClick={() =>
            void Promise.resolve(tryNow(environment)).then(() => loadQuota(environment))
          }
        >
          Try now
        </button>
      );
    }
    default:
      return null;
  }
}
