// The window's one notice area, under the header: each current condition of
// the active environment once (see notices.ts), and the data folder's, which
// holds for all; each as one alert with one sentence, at most one action, and
// the codes and the service's own words behind "Details". Empty, it takes no
// room.

import { useEffect, useRef, useState, type RefObject } from 'react';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import { Toast } from '../../components/toast.tsx';
import { useAppStore } from '../../store-context.tsx';
import { OpenSettingsButton } from '../settings/open-settings-button.tsx';
import { useSecondTicks } from '../quota/meter-clock.tsx';
import { formatCountdown } from '../quota/quota-meter-model.ts';
import { TryNowButton, type TryNow, type TryNowOutcome } from '../quota/try-now.tsx';
import { noticesFor, type Notice } from './notices.ts';

export interface NoticeActions {
  /**
   * Sends one request through a rate limit's hold, after the clerk confirms
   * (window.storeAdmin.quota.tryNow). Without it the notice offers no action.
   */
  readonly tryNow?: TryNow;
}

/** What a try came to; `seq` restarts the message's time when the same words come again. */
type TriedOutcome = TryNowOutcome & { readonly seq: number };

export function NoticeArea({ actions }: { actions?: NoticeActions | undefined }) {
  const environment = useAppStore((state) => state.activeEnvironment);
  const connectivity = useAppStore((state) => state.connectivity[environment]);
  const quota = useAppStore((state) => state.quotas[environment]);
  const orders = useAppStore((state) => state.orders[environment]);
  const bulkJob = useAppStore((state) => state.bulkJobs[environment]);
  const switchProblem = useAppStore((state) => state.switchProblem);
  const storageProblem = useAppStore((state) => state.storageProblem);
  const keyStatus = useAppStore(
    (state) => state.environments.find((view) => view.id === environment)?.key,
  );
  const keySettingsShown = useAppStore(
    (state) => state.screen.kind === 'settings' && state.screen.environment === environment,
  );
  const setUpOfferedOnScreen = useAppStore(
    (state) => state.screen.kind === 'orders' && state.orders[environment]?.list === undefined,
  );
  const baseUrl = useAppStore(
    (state) => state.environments.find((view) => view.id === environment)?.baseUrl,
  );
  const hasBaseUrl = environment === 'sandbox' || baseUrl !== undefined;
  const deprecations = useAppStore((state) => state.deprecations[environment]);
  const loadDeprecations = useAppStore((state) => state.loadDeprecations);
  useEffect(() => {
    void loadDeprecations(environment);
  }, [environment, loadDeprecations]);
  // Holds end and ages grow as time passes; the same clock as the quota meter's countdown.
  const now = useSecondTicks(true);

  // A try's outcome stays where the hold's notice was, for a while, even when the hold has ended.
  const [tried, setTried] = useState<TriedOutcome | undefined>();
  const triedRef = useRef<HTMLDivElement>(null);
  const onTried = (outcome: TryNowOutcome) =>
    setTried((previous) => ({ ...outcome, seq: (previous?.seq ?? 0) + 1 }));

  const notices = noticesFor({
    environment,
    now,
    connectivity,
    quota,
    orders,
    bulkJob,
    hasBaseUrl,
    baseUrl,
    switchProblem,
    keyStatus,
    keySettingsShown,
    setUpOfferedOnScreen,
    storageProblem,
    ...(deprecations ? { deprecations } : {}),
  });

  return (
    <section aria-label="Notices" className="notice-area">
      {notices.map((notice) => (
        <NoticeItem
          key={notice.kind}
          notice={notice}
          now={now}
          actions={actions}
          outcomeRef={triedRef}
          onTried={onTried}
        />
      ))}
      <Toast
        ref={triedRef}
        inPlace
        label="Try now"
        tone={tried?.ok ? 'success' : 'warning'}
        messageKey={tried?.seq}
        onDone={() => setTried(undefined)}
      >
        {tried?.environment === environment && <p>{tried.message}</p>}
      </Toast>
    </section>
  );
}

interface NoticeItemProps {
  readonly notice: Notice;
  readonly now: number;
  readonly actions: NoticeActions | undefined;
  /** The try's outcome, where the focus goes when the hold ended with the try. */
  readonly outcomeRef: RefObject<HTMLElement | null>;
  readonly onTried: (outcome: TryNowOutcome) => void;
}

function NoticeItem({ notice, now, ...rest }: NoticeItemProps) {
  return (
    // Something to do, not something wrong, is no alert.
    <div
      role={notice.tone === 'info' ? 'status' : 'alert'}
      className={`notice notice-${notice.tone}`}
      data-notice={notice.kind}
    >
      <p className="notice-text">
        <strong>{notice.title}</strong> {notice.sentence}
        {notice.until !== undefined && (
          <span className="notice-countdown"> (in {formatCountdown(notice.until - now)})</span>
        )}
      </p>
      <NoticeActionButton notice={notice} {...rest} />
      {notice.endpoints && <DismissButton notice={notice} />}
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

/** Puts a deprecation notice away: it stays away for these endpoints and sunset dates. */
function DismissButton({ notice }: { notice: Notice }) {
  const dismiss = useAppStore((state) => state.dismissDeprecations);
  return (
    <button
      type="button"
      className="notice-action"
      onClick={() => void dismiss(notice.environment, notice.endpoints ?? [])}
    >
      Dismiss
    </button>
  );
}

function NoticeActionButton({
  notice,
  actions,
  outcomeRef,
  onTried,
}: Omit<NoticeItemProps, 'now'>) {
  const refreshOrders = useAppStore((state) => state.refreshOrders);
  const openLink = useAppStore((state) => state.openDeprecationLink);
  const { environment } = notice;
  switch (notice.action) {
    case 'read-more': {
      const endpoint = notice.endpoints?.[0];
      if (endpoint === undefined) return null;
      return (
        <button
          type="button"
          className="notice-action"
          title="Opens the service’s notice in your browser"
          onClick={() => void openLink(environment, endpoint)}
        >
          Read more
        </button>
      );
    }
    case 'retry':
      return (
        <RetryButton environment={environment} onRetry={() => void refreshOrders(environment)} />
      );
    case 'open-settings':
      return <OpenSettingsButton environment={environment} />;
    case 'set-up':
      return (
        <OpenSettingsButton
          environment={environment}
          label={`Set up ${ENVIRONMENT_LABELS[environment]}`}
        />
      );
    case 'try-now': {
      const tryNow = actions?.tryNow;
      if (!tryNow) return null;
      return (
        <TryNowButton
          environment={environment}
          hold={notice.sentence}
          gateway={notice.holdReason === 'gateway-429'}
          tryNow={tryNow}
          fallbackFocus={outcomeRef}
          onTried={onTried}
        />
      );
    }
    default:
      return null;
  }
}

/** Tries the refresh again, and shows that it is trying until the answer (or none) comes. */
function RetryButton({
  environment,
  onRetry,
}: {
  environment: EnvironmentId;
  onRetry: () => void;
}) {
  const trying = useAppStore((state) => state.orders[environment]?.load.kind === 'loading');
  return (
    <button
      type="button"
      className="notice-action"
      aria-disabled={trying || undefined}
      aria-busy={trying || undefined}
      onClick={() => !trying && onRetry()}
    >
      {trying ? 'Trying…' : 'Retry'}
    </button>
  );
}
