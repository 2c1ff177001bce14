// The orders gone since the last refresh (the Changes filter's "Gone"), as
// they were in the list before: they are no longer in the service, so they
// are listed from the saved copy, each with how it left (cancelled from this
// computer, or elsewhere or removed). Read-only and virtualized, laid out
// like the grid so the columns read the same.

import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import {
  departuresFromLog,
  goneBy,
  type GoneHow,
  type GoneOrder,
} from '../../../../shared/order-changes.ts';
import { formatCount, formatDateTime, formatMoment, formatShortDateTime } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { isFiltered } from '../orders/order-filters.tsx';
import { DEFAULT_ORDERS_QUERY } from '../orders/orders-slice.ts';
import { FALLBACK_VIEWPORT_HEIGHT, MISSING, ROW_HEIGHT } from '../orders/orders-grid.tsx';
import { goneTitle, goneWords } from './change-words.ts';
import './changes.css';

const HEADERS = ['Order ID', 'Pet ID', 'Quantity', 'Ship date', 'Complete', 'Left the service'];
const NUMERIC = new Set([0, 1, 2]);
const NO_GONE: readonly GoneOrder[] = [];
/** How far a cancel log has come on an order: a later entry only ever moves it on. */
const GONE_RANK: Readonly<Record<GoneHow, number>> = {
  left: 0,
  'maybe-cancelled-here': 1,
  'cancelled-here': 2,
};

export function GoneOrders({ environment, now }: { environment: EnvironmentId; now: number }) {
  const changes = useAppStore((state) => state.changes[environment]);
  const list = useAppStore((state) => state.orders[environment]?.list);
  // The search and the other filters work on the list's columns; gone orders are not in it.
  const otherFilters = useAppStore((state) =>
    isFiltered({ ...state.ordersQuery, changes: DEFAULT_ORDERS_QUERY.changes }),
  );
  const view = changes?.view;
  const compared =
    view?.kind === 'compared' && list && view.summary.at === list.receivedAt ? view : undefined;
  const cancelLog = useAppStore((state) => state.orders[environment]?.cancelLog);
  // How each left, from the cancel log as it is now: a cancel whose answer came after main worked
  // the changes out (a bulk cancel going on) changes its order's label at once. Main read its log
  // then (which may hold what this window has not read: a cancel from elsewhere), and a log only
  // grows, so the label is the further on of the two.
  const gone = useMemo(() => {
    if (!compared || !cancelLog) return compared?.gone ?? NO_GONE;
    const departures = departuresFromLog(cancelLog, compared.summary.since);
    return compared.gone.map((order): GoneOrder => {
      const departure = departures.get(order.order.id);
      if (!departure || GONE_RANK[departure.how] <= GONE_RANK[order.how]) return order;
      return goneBy(order.order, departure);
    });
  }, [compared, cancelLog]);
  const label = ENVIRONMENT_LABELS[environment];
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- as in the orders grid
  const virtualizer = useVirtualizer({
    count: gone.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // As in the grid: where layout gives no height (a hidden window), a screenful still shows.
    initialRect: { width: 0, height: FALLBACK_VIEWPORT_HEIGHT },
    observeElementRect: (instance, report) =>
      observeElementRect(instance, (rect) =>
        report(rect.height > 0 ? rect : { width: rect.width, height: FALLBACK_VIEWPORT_HEIGHT }),
      ),
  });

  const caption = !compared
    ? 'What left the service is known once this list has been compared with the one before (after the next refresh).'
    : gone.length === 0
      ? `No order left the service since ${formatMoment(compared.summary.since, now)}.`
      : `${formatCount(gone.length)} orders no longer in the service since ${formatMoment(compared.summary.since, now)}, as they were then. “Not cancelled here”: cancelled elsewhere or removed.`;

  return (
    <div className="orders-grid-wrap gone-orders">
      <p className="gone-caption">
        {caption}
        {otherFilters && ' The search and the other filters apply to the orders in the list only.'}
      </p>
      <div
        role="table"
        aria-label={`${label} orders gone since the last refresh`}
        aria-rowcount={gone.length + 1}
        className="orders-grid"
      >
        <div role="rowgroup" className="orders-grid-head">
          <div role="row" aria-rowindex={1} className="gone-row">
            {HEADERS.map((header, i) => (
              <div
                key={header}
                role="columnheader"
                className={`orders-grid-cell${NUMERIC.has(i) ? ' numeric' : ''}`}
              >
                {header}
              </div>
            ))}
          </div>
        </div>
        {/* No tab stop of its own: a focusable element between the table and its rows breaks the
            table for screen readers (Chromium lets the keyboard scroll a scroller by itself). */}
        <div ref={scrollRef} className="orders-grid-scroll">
          <div
            role="rowgroup"
            className="orders-grid-body"
            style={{ height: virtualizer.getTotalSize() }}
          >
            {virtualizer.getVirtualItems().map((item) => {
              const { order, how, cancelledAt, maybe } = gone[item.index]!;
              return (
                <div
                  key={item.key}
                  role="row"
                  aria-rowindex={item.index + 2}
                  className="gone-row orders-grid-item"
                  style={{ top: item.start }}
                >
                  <div role="rowheader" className="orders-grid-cell numeric">
                    {order.id}
                  </div>
                  <div role="cell" className="orders-grid-cell numeric">
                    {order.petId ?? MISSING}
                  </div>
                  <div role="cell" className="orders-grid-cell numeric">
                    {order.quantity ?? MISSING}
                  </div>
                  <div role="cell" className="orders-grid-cell">
                    {order.shipDate ? (
                      <time dateTime={order.shipDate} title={formatDateTime(order.shipDate)}>
                        {formatShortDateTime(order.shipDate)}
                      </time>
                    ) : (
                      MISSING
                    )}
                  </div>
                  <div role="cell" className="orders-grid-cell">
                    {order.complete === undefined ? MISSING : order.complete ? 'Yes' : 'No'}
                  </div>
                  <div role="cell" className="orders-grid-cell">
                    <span className={`status-chip gone-${how}`} title={goneTitle(how, maybe)}>
                      {goneWords(how, cancelledAt)}
                    </span>
                  </div>
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
