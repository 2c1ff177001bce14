// The orders of the active environment: refresh with progress, when it was
// last refreshed, the first rows, and the outcome of the last cancel.

import { useRef } from 'react';
import {
  ENVIRONMENT_LABELS,
  isRemoteEnvironment,
  type EnvironmentId,
} from '../../../../shared/environments.ts';
import type { Failure } from '../../../../shared/failures.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { formatBytes, formatClock, formatCount } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { failureNeedsSettings, OpenSettingsButton } from '../settings/open-settings-button.tsx';
import { CancelOrderDialog } from './cancel-order-dialog.tsx';
import { CancelOutcome } from './cancel-outcome.tsx';
import type { OrdersLoad } from './orders-slice.ts';
import { OrdersTable } from './orders-table.tsx';

export function OrdersScreen() {
  const environment = useAppStore((state) => state.activeEnvironment);
  const orders = useAppStore((state) => state.orders[environment]);
  const refreshOrders = useAppStore((state) => state.refreshOrders);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const load: OrdersLoad = orders?.load ?? { kind: 'idle' };
  const loading = load.kind === 'loading';
  const list = orders?.list;
  const label = ENVIRONMENT_LABELS[environment];

  return (
    <section aria-labelledby="orders-heading" className="screen">
      <div className="screen-head">
        <h2 id="orders-heading">Orders — {label}</h2>
        <button
          type="button"
          className="primary-button"
          aria-disabled={loading || undefined}
          onClick={() => void refreshOrders(environment)}
        >
          {loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>

      {list && (
        <p className="summary">
          {formatCount(list.total)} orders, last refreshed at {formatClock(list.receivedAt)}.
        </p>
      )}
      {/* Announces the milestones of a refresh; the summary above stays visible throughout. */}
      <StatusRegion label="Order list status" className="visually-hidden">
        {load.kind === 'loading'
          ? `Downloading the ${label} orders…`
          : load.kind === 'failed'
            ? `The ${label} orders were not refreshed.`
            : list
              ? `Refreshed: ${formatCount(list.total)} ${label} orders at ${formatClock(list.receivedAt)}.`
              : undefined}
      </StatusRegion>

      {load.kind === 'loading' && (
        <DownloadProgress receivedBytes={load.receivedBytes} totalBytes={load.totalBytes} />
      )}
      {load.kind === 'failed' && <LoadFailure environment={environment} failure={load.failure} />}

      <CancelOutcome ref={outcomeRef} />

      {list ? (
        <>
          <OrdersTable
            environment={environment}
            orders={list.shown}
            total={list.total}
            cancelledIds={orders?.cancelledIds ?? []}
          />
          {list.total > list.shown.length && (
            <p className="note">
              Showing {formatCount(list.shown.length)} of {formatCount(list.total)} orders.
            </p>
          )}
        </>
      ) : (
        load.kind === 'idle' && (
          <p className="empty">No orders loaded for {label} yet. Press Refresh to download them.</p>
        )
      )}

      <CancelOrderDialog fallbackFocus={outcomeRef} />
    </section>
  );
}

function DownloadProgress({
  receivedBytes,
  totalBytes,
}: {
  receivedBytes: number;
  totalBytes?: number;
}) {
  const known = totalBytes !== undefined && totalBytes > 0;
  const text = known
    ? `${formatBytes(receivedBytes)} of ${formatBytes(totalBytes)}`
    : `${formatBytes(receivedBytes)} received (total size not known)`;
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

function LoadFailure({ environment, failure }: { environment: EnvironmentId; failure: Failure }) {
  const hasBaseUrl = useAppStore(
    (state) =>
      !isRemoteEnvironment(environment) ||
      state.environments.some((view) => view.id === environment && view.baseUrl),
  );
  return (
    <div role="alert" className="message message-error">
      <p>{failure.message}</p>
      {failureNeedsSettings(failure, environment, hasBaseUrl) && (
        <OpenSettingsButton environment={environment} />
      )}
    </div>
  );
}
