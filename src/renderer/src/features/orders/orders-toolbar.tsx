// The orders screen's one toolbar row: the search field and "Filters" on the
// left, the bulk-cancel actions while orders are ticked, then the export, the
// cancel log and Refresh on the right. It never changes height: what it opens
// (the filters, the log) sits over or beside the grid.

import { memo, useMemo, type ReactNode } from 'react';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import { MoreMenu, useFold } from '../../components/fold-bar.tsx';
import { formatCount, formatMomentWithSeconds } from '../../format.ts';
import { useNow } from '../../components/use-now.ts';
import { useAppStore } from '../../store-context.tsx';
import { ColumnChooser } from './column-chooser.tsx';
import { OrderFilters, OrderSearch } from './order-filters.tsx';
import { isSetUp, type BulkOutcomeFilter } from './orders-slice.ts';
import { SHOWN_OUTCOME_LABELS } from '../../../../shared/bulk-cancel.ts';
import type { TickedOrders } from '../bulk-cancel/bulk-cancel-slice.ts';
import { rowsOfIds } from '../bulk-cancel/row-selection.ts';
import { ChangesSummary } from '../changes/changes-summary.tsx';
import { useCurrentHold } from '../quota/use-hold.ts';
import { WaitingButton } from '../../components/waiting-button.tsx';

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

/** What the toolbar folds into "More actions" when it has no room (zoom, a narrow window), first to last. */
const TOOLBAR_FOLDS = [
  'changes',
  'export',
  'columns',
  'log',
  'clear-ticks',
  'filters',
  'cancel-ticked',
  'refresh',
] as const;
type ToolbarItem = (typeof TOOLBAR_FOLDS)[number];
/** The same items as the bar shows them, left to right: the More panel lists them so too. */
const IN_BAR_ORDER: readonly ToolbarItem[] = [
  'filters',
  'cancel-ticked',
  'clear-ticks',
  'changes',
  'columns',
  'export',
  'log',
  'refresh',
];

/**
 * Kept from rendering again while its props stay (its handlers are stable): each render measures
 * the bar for folding, a layout of the whole page, and a keystroke in the search changes none of it.
 */
export const OrdersToolbar = memo(function OrdersToolbar(props: OrdersToolbarProps) {
  const { environment, ticked, cancelBlocked, hasList } = props;
  const refreshOrders = useAppStore((state) => state.refreshOrders);
  const askBulkCancel = useAppStore((state) => state.askBulkCancel);
  const busy = useAppStore((state) => {
    const kind = state.orders[environment]?.load.kind;
    return kind === 'loading';
  });
  const logCount = useAppStore((state) => state.orders[environment]?.cancelLog.length ?? 0);
  const setUp = useAppStore((state) => isSetUp(state, environment));
  // A refresh during a long hold (a ban) would fail at once and leave the notice as it was:
  // Refresh is off then, and says why; near a hold's end it waits for it instead.
  const hold = useCurrentHold(environment);
  // Only to name the day of a hold that ends on another one.
  const now = useNow(60_000);
  const refreshBlocked = !setUp
    ? `${ENVIRONMENT_LABELS[environment]} is not set up yet.`
    : hold && (hold.reason === 'banned' || hold.failsAtOnce)
      ? hold.reason === 'banned'
        ? `Refresh waits until ${formatMomentWithSeconds(hold.until, now)}: the API key is banned.`
        : `Refresh waits until ${formatMomentWithSeconds(hold.until, now)}: requests to ${ENVIRONMENT_LABELS[environment]} are paused.`
      : undefined;
  const outcome = useAppStore((state) =>
    state.ordersQuery.bulkOutcome?.environment === environment
      ? state.ordersQuery.bulkOutcome
      : undefined,
  );
  // The changes line's place: the last bulk cancel's outcome while the grid shows only it.
  const changesLine = () =>
    outcome ? <BulkOutcomeShown outcome={outcome} /> : <ChangesSummary environment={environment} />;

  const present: Record<ToolbarItem, boolean> = {
    // While orders are ticked, their actions take the room.
    changes: hasList && ticked === 0,
    export: hasList,
    columns: hasList,
    log: true,
    'clear-ticks': ticked > 0,
    filters: hasList,
    'cancel-ticked': ticked > 0,
    refresh: true,
  };
  // The line that says the list shows only a bulk cancel's outcome is never folded away: without
  // it, "Showing 157 of 200,800" is all that says the list is filtered.
  const foldable = (item: ToolbarItem) => present[item] && !(item === 'changes' && outcome);
  const { attach, isFolded, anyFolded } = useFold(TOOLBAR_FOLDS.filter(foldable));
  const inBar = (item: ToolbarItem) => present[item] && !isFolded(item);
  const inMore = (item: ToolbarItem) => present[item] && isFolded(item);

  const parts: Record<ToolbarItem, () => ReactNode> = {
    changes: changesLine,
    export: () => (
      <button type="button" onClick={props.onExport}>
        Export CSV
      </button>
    ),
    columns: () => <ColumnChooser />,
    log: () => (
      <button type="button" aria-expanded={props.logOpen} onClick={props.onToggleLog}>
        Cancel log
        {logCount > 0 && <span className="count-badge"> {formatCount(logCount)}</span>}
      </button>
    ),
    'clear-ticks': () => (
      <button type="button" onClick={props.onClearTicks}>
        Clear ticks
      </button>
    ),
    filters: () => <OrderFilters />,
    'cancel-ticked': () => (
      <WaitingButton
        className="danger-button"
        waitsFor={cancelBlocked}
        reasonId={props.cancelBlockedId}
        onPress={() => {
          const { orderIds, ticks } = props.onCancelTicked();
          askBulkCancel(environment, orderIds, ticks);
        }}
      >
        Cancel ticked orders…
      </WaitingButton>
    ),
    refresh: () => (
      <button
        type="button"
        className={`primary-button refresh-button${busy ? ' refresh-busy' : ''}`}
        data-room="Refreshing…"
        aria-disabled={busy || refreshBlocked !== undefined || undefined}
        title={refreshBlocked}
        onClick={() => !refreshBlocked && !busy && void refreshOrders(environment)}
      >
        {/* The longer label, drawn unseen behind it (data-room), gives the button its width either way. */}
        <span>{busy ? 'Refreshing…' : 'Refresh'}</span>
      </button>
    ),
  };
  const slot = (item: ToolbarItem) => inBar(item) && <div data-fold={item}>{parts[item]()}</div>;

  return (
    <div className="orders-toolbar" ref={attach}>
      {hasList && <OrderSearch />}
      {slot('filters')}
      {ticked > 0 && (
        <div role="group" aria-label="Ticked orders" className="toolbar-group ticked-actions">
          <span role="status" className="ticked-count">
            {formatCount(ticked)} ticked
          </span>
          {slot('cancel-ticked')}
          {slot('clear-ticks')}
        </div>
      )}
      {slot('changes')}
      {/* Folded, the changes line still speaks: its live region stays, out of sight. */}
      {inMore('changes') && <div className="visually-hidden">{changesLine()}</div>}
      <div className="toolbar-spacer" data-fold-spacer="" />
      {slot('columns')}
      {slot('export')}
      {slot('log')}
      {slot('refresh')}
      {anyFolded && (
        <MoreMenu label="More actions" className="toolbar-more">
          {IN_BAR_ORDER.filter((item) => inMore(item) && item !== 'changes').map((item) => (
            <div key={item}>{parts[item]()}</div>
          ))}
          {/* A copy to read; the live one above is what screen readers hear. */}
          {inMore('changes') && <div aria-hidden="true">{changesLine()}</div>}
        </MoreMenu>
      )}
    </div>
  );
});

/** The grid shows one outcome of the last bulk cancel: which, and the way back to all orders. */
function BulkOutcomeShown({ outcome }: { outcome: BulkOutcomeFilter }) {
  const setQuery = useAppStore((state) => state.setOrdersQuery);
  const table = useAppStore((state) => state.orders[outcome.environment]?.list?.table);
  // Cancelled orders leave the list at the next refresh: the count says how many are still in it,
  // so it matches the status bar's "Showing …".
  const inList = useMemo(
    () => (table ? rowsOfIds(table, outcome.ids).size : 0),
    [table, outcome.ids],
  );
  const total = outcome.ids.size;
  const gone = total - inList;
  return (
    <p className="changes-line bulk-outcome-shown">
      Bulk cancel’s “{SHOWN_OUTCOME_LABELS[outcome.outcome]}” orders
      {gone === 0
        ? ` (${formatCount(total)})`
        : `: ${formatCount(inList)} in the list; ${formatCount(gone)} ${gone === 1 ? 'is' : 'are'} no longer in it`}{' '}
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
