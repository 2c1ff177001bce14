// The orders screen's status bar, under the grid: how many orders are shown
// of how many, when the list was refreshed (or saved) and when it refreshes
// next, and a download's progress (bytes, and orders read so far). One line; why a refresh
// waits (offline, a hold, the key) is the notice area's to say.

import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import {
  formatBytes,
  formatClock,
  formatCount,
  formatMomentWithSeconds,
  timeZoneName,
} from '../../format.ts';
import type { AutoRefreshPlan } from './auto-refresh.ts';
import { isSetUp, type LoadedOrders, type OrdersLoad } from './orders-slice.ts';
import { formatAge } from './time-words.ts';
import { useAppStore } from '../../store-context.tsx';

export interface OrdersStatusBarProps {
  readonly environment: EnvironmentId;
  readonly list: LoadedOrders | undefined;
  readonly load: OrdersLoad;
  /** Orders of the download under way read so far. */
  readonly downloaded: number | undefined;
  /** Orders in the view (after search and filters). */
  readonly shown: number;
  readonly plan: AutoRefreshPlan;
  readonly now: number;
}

/**
 * When the list on screen is from, and when the next automatic refresh is.
 * The next refresh's time is the plan's own: a hold that ends earlier is not
 * given this time (the notice area shows the hold's).
 */
export function refreshWords(
  list: LoadedOrders | undefined,
  plan: AutoRefreshPlan,
  now: number,
): string {
  const parts: string[] = [];
  if (list?.partial) {
    // The rows of a list still arriving: its time is that of its last byte, not known yet.
  } else if (list?.source === 'service') {
    parts.push(
      `Refreshed at ${formatClock(list.receivedAt)} (${formatAge(now - list.receivedAt)}).`,
    );
  } else if (list) {
    parts.push(
      `Saved copy from ${formatClock(list.receivedAt)} (${formatAge(now - list.receivedAt)}).`,
    );
  }
  if (plan.kind === 'at') {
    if (plan.at > now + 1000)
      parts.push(`Next automatic refresh at ${formatMomentWithSeconds(plan.at, now)}.`);
  } else if (plan.kind === 'waiting') {
    // Why then, only when it is then: a hold's end or a reset is the notice's and the meter's
    // time too, and the usual interval may end later.
    const why =
      plan.at !== plan.until
        ? ''
        : plan.reason === 'quota-low'
          ? ', when the quota resets'
          : ', when the pause ends';
    parts.push(`Next automatic refresh at ${formatMomentWithSeconds(plan.at, now)}${why}.`);
  } else if (plan.reason !== 'refreshing') {
    parts.push('Automatic refresh paused.');
  }
  return parts.join(' ');
}

export function OrdersStatusBar(props: OrdersStatusBarProps) {
  const { environment, list, load, downloaded, shown, plan, now } = props;
  const label = ENVIRONMENT_LABELS[environment];
  const total = list?.table.count;
  const setUp = useAppStore((state) => isSetUp(state, environment));
  // The gone orders are listed apart, from the list before.
  const gone = useAppStore((state) => {
    if (state.ordersQuery.changes !== 'gone') return undefined;
    const view = state.changes[environment]?.view;
    return view?.kind === 'compared' ? view.gone.length : 0;
  });
  return (
    <footer className="orders-status" aria-label={`${label} orders status`}>
      {total !== undefined && (
        <p role="status" className="view-count">
          {gone !== undefined
            ? `Showing ${formatCount(gone)} gone orders`
            : list?.partial
              ? // "737 of 737 so far" read as the whole list, while most of it was still coming.
                shown === total
                ? `Showing the ${formatCount(total)} orders received so far; the rest are on their way`
                : `Showing ${formatCount(shown)} of the ${formatCount(total)} orders received so far; the rest are on their way`
              : `Showing ${formatCount(shown)} of ${formatCount(total)} orders`}
        </p>
      )}
      {/* Not set up and nothing saved: nothing ran, so nothing is paused. */}
      <p className="refresh-line">{setUp || list ? refreshWords(list, plan, now) : ''}</p>
      {/* While a download shows its progress, the legend gives way, so the refresh line is not cut. */}
      {total !== undefined && load.kind !== 'loading' && (
        <p className="review-legend">
          <span className="review-mark">✓</span> reviewed · <span className="note-mark">✎</span> has
          a note ·{' '}
          {/* The Review column's New and Changed chips are not explained here: the line above the
              list says what changed since when, each chip says it on hover, and at 1100 to 1300 px
              the words cut the refresh line off. */}
          {/* Said once: every time on screen is the computer's local time. */}
          <span title="Every date and time is this computer's local time">
            times in {timeZoneName(now)}
          </span>
        </p>
      )}
      {load.kind === 'loading' && (
        <DownloadProgress
          receivedBytes={load.receivedBytes}
          totalBytes={load.totalBytes}
          orders={downloaded}
        />
      )}
    </footer>
  );
}

function DownloadProgress({
  receivedBytes,
  totalBytes,
  orders,
}: {
  receivedBytes: number;
  totalBytes?: number | undefined;
  orders: number | undefined;
}) {
  const known = totalBytes !== undefined && totalBytes > 0;
  const read = orders ? `, ${formatCount(orders)} orders` : '';
  // Nothing has come yet: the service has not answered (or is being tried again).
  const text =
    receivedBytes === 0 && !known
      ? 'waiting for the service to answer'
      : known
        ? `${formatBytes(receivedBytes)} of ${formatBytes(totalBytes)}${read}`
        : `${formatBytes(receivedBytes)} received${read} (total size not known)`;
  return (
    <div className="progress">
      <label htmlFor="orders-progress">Downloading orders</label>
      {known ? (
        <progress
          id="orders-progress"
          max={totalBytes}
          value={Math.min(receivedBytes, totalBytes)}
          aria-valuetext={text}
        />
      ) : (
        <progress id="orders-progress" aria-valuetext={text} />
      )}
      <span className="progress-text">{text}</span>
    </div>
  );
}
