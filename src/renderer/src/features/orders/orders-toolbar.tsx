// The orders screen's one toolbar row: the search field and "Filters" on the
// left, the bulk-cancel actions while orders are ticked, then the export, the
// cancel log and Refresh on the right. It never changes height: what it opens
// (the filters, the log) sits over or beside the grid.

import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import { formatCount } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { OrderFilters, OrderSearch } from './order-filters.tsx';
import { isSetUp, type BulkOutcomeFilter } from './orders-slice.ts';
import { OUTCOME_WORDS } from '../bulk-cancel/bulk-results-csv.ts';
import type { TickedOrders } from '../bulk-cancel/bulk-cancel-slice.ts';
import { ChangesSummary } from '../changes/changes-summary.tsx';

export interface OrdersToolbarProps {
  readonly environment: EnvironmentId;
  /** A list is on screen (saved or downloaded): search, filters and export apply to it. */
  readonly hasList: boolean;
  /** How many orders are ticked for a bulk cancel. */
  readonly ticked: number;
  /** Why no cancel can be sent now; undefined when one can. */
  readonly cancelBlocked: string | undefined;
  readonly cancelBlockedId: string;
  /** The ticked orders that can still be cancelled, by id, and what the ticks hold besides. */
  readonly onCancelTicked: () => { orderIds: readonly string[]; ticks: TickedOrders };
  readonly onClearTicks: () => void;
  readonly onExport: () => void;
  readonly logOpen: boolean;
  readonly onToggleLog: () => void;
}

export function OrdersToolbar(props: OrdersToolbarProps) {
  const { environment, ticked, cancelBlocked } = props;
  const refreshOrders = useAppStore((state) => state.refreshOrders);
  const askBulkCancel = useAppStore((state) => state.askBulkCancel);
  const busy = useAppStore((state) => {
    const kind = state.orders[environment]?.load.kind;
    return kind === 'loading';
  });
  const bulkRunning = useAppStore((state) => {
    const status = state.bulkJobs[environment]?.status;
    return status === 'running' || status === 'paused';
  });
  const logCount = useAppStore((state) => state.orders[environment]?.cancelLog.length ?? 0);
  const setUp = useAppStore((state) => isSetUp(state, environment));
  const outcome = useAppStore((state) =>
    state.ordersQuery.bulkOutcome?.environment === environment
      ? state.ordersQuery.bulkOutcome
      : undefined,
  );

  return (
    <div className="orders-toolbar">
      {props.hasList && (
        <>
          <OrderSearch />
          <OrderFilters />
        </>
      )}
      {ticked > 0 && (
        <div role="group" aria-label="Ticked orders" className="toolbar-group ticked-actions">
          <span role="status" className="ticked-count">
            {formatCount(ticked)} ticked
          </span>
          <button
            type="button"
            className="danger-button"
            aria-disabled={cancelBlocked || bulkRunning ? true : undefined}
            aria-describedby={cancelBlocked ? props.cancelBlockedId : undefined}
            title={
              bulkRunning
                ? 'A bulk cancel is already under way in this environment.'
                : cancelBlocked
            }
            onClick={() => {
              if (cancelBlocked || bulkRunning) return;
              const { orderIds, ticks } = props.onCancelTicked();
              askBulkCancel(environment, orderIds, ticks);
            }}
          >
            Cancel ticked orders…
          </button>
          <button type="button" onClick={props.onClearTicks}>
            Clear ticks
          </button>
        </div>
      )}
      {/* While orders are ticked, their actions take the room. */}
      {ticked === 0 &&
        props.hasList &&
        (outcome ? (
          <BulkOutcomeShown outcome={outcome} />
        ) : (
          <ChangesSummary environment={environment} />
        ))}
      <div className="toolbar-spacer" />
      {props.hasList && (
        <button type="button" onClick={props.onExport}>
          Export CSV
        </button>
      )}
      <button type="button" aria-expanded={props.logOpen} onClick={props.onToggleLog}>
        Cancel log
        {logCount > 0 && <span className="count-badge"> {formatCount(logCount)}</span>}
      </button>
      <button
        type="button"
        className="primary-button"
        aria-disabled={busy || !setUp || undefined}
        title={setUp ? undefined : `${ENVIRONMENT_LABELS[environment]} is not set up yet.`}
        onClick={() => setUp && !busy && void refreshOrders(environment)}
      >
        {busy ? 'Refreshing…' : 'Refresh'}
      </button>
    </div>
  );
}

/** The grid shows one outcome of the last bulk cancel: which, and the way back to all orders. */
function BulkOutcomeShown({ outcome }: { outcome: BulkOutcomeFilter }) {
  const setQuery = useAppStore((state) => state.setOrdersQuery);
  return (
    <p className="changes-line bulk-outcome-shown">
      Bulk cancel’s “{OUTCOME_WORDS[outcome.outcome]}” orders ({formatCount(outcome.ids.size)}){' '}
      <button
        type="button"
        className="small-button"
        onClick={() => setQuery({ bulkOutcome: undefined })}
      >
        Show all
      </button>
    </p>
  );
}
