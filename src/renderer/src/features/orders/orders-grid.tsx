// The whole order list as an ARIA grid, virtualized: only the rows in view
// (and the selected one) are in the page, each with its aria-rowindex, so a
// million orders scroll like a hundred and screen readers still know where
// they are. Past what a browser can lay out, the scroll position is scaled
// (grid-scroll.ts), so every row of any list can be scrolled to. One row is
// the tab stop (roving focus); the arrow keys, Page Up/Down and Home/End move
// the selection and keep it in view; Enter opens the details; Delete asks to
// cancel.

import {
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import type { ReviewMarks } from '../../../../shared/orders-local.ts';
import type { AllState, RowSelection } from '../bulk-cancel/row-selection.ts';
import type { ChangeMark } from '../changes/change-lookup.ts';
import { ChangeMarkChip } from '../changes/change-mark.tsx';
import { formatDateTime, formatShortDateTime } from '../../format.ts';
import {
  gridScroll,
  offsetAt,
  rowsInView,
  rowTop,
  scrollTopAt,
  scrollTopToReveal,
} from './table/grid-scroll.ts';
import type { OrderTable, SortColumn, SortSpec } from './table/order-table.ts';
import {
  canStillCancel,
  ROW_STATUS_SHORT,
  ROW_STATUS_WORDS,
  statusOf,
  type RowStatus,
} from './row-status.ts';

/** The row height: --row-height in tokens.css is the same 32px. */
export const ROW_HEIGHT = 32;
/** The scroll area's height where layout gives none (a hidden window, jsdom). */
export const FALLBACK_VIEWPORT_HEIGHT = 480;
/** Rows rendered beyond the viewport on each side, so a quick scroll shows no gap. */
const OVERSCAN = 10;

interface ColumnSpec {
  readonly key: SortColumn | 'select' | 'review' | 'status';
  readonly label: string;
  readonly numeric?: boolean;
}

const COLUMNS: readonly ColumnSpec[] = [
  { key: 'select', label: 'Select' },
  { key: 'id', label: 'Order ID', numeric: true },
  { key: 'petId', label: 'Pet ID', numeric: true },
  { key: 'quantity', label: 'Quantity', numeric: true },
  { key: 'shipDate', label: 'Ship date' },
  { key: 'complete', label: 'Complete' },
  { key: 'review', label: 'Review' },
  { key: 'status', label: 'Status' },
];

function isSortable(key: ColumnSpec['key']): key is SortColumn {
  return key !== 'select' && key !== 'review' && key !== 'status';
}

/** A field the service left out: a dash on screen, words for screen readers. */
export const MISSING = (
  <span className="missing">
    <span aria-hidden="true">—</span>
    <span className="visually-hidden">not given</span>
  </span>
);

export interface OrdersGridProps {
  /** The grid's accessible name, e.g. "Sandbox orders". */
  readonly label: string;
  /** Only the first rows are in yet. */
  readonly busy?: boolean;
  readonly table: OrderTable;
  /** The rows of the view, in view order. */
  readonly rows: Uint32Array;
  /** Position of the selected order in `rows`; -1 when none is selected or it is not in the view. */
  readonly position: number;
  readonly sort: SortSpec | undefined;
  readonly marks: ReviewMarks;
  /** New or changed since the last refresh, by row (features/changes); undefined until known. */
  readonly changeMarkOf?: ((row: number) => ChangeMark | undefined) | undefined;
  readonly statuses: ReadonlyMap<string, RowStatus>;
  /** Why no cancel can be sent now; undefined when it can. */
  readonly cancelBlocked: string | undefined;
  /** Element describing `cancelBlocked`, for the disabled buttons. */
  readonly cancelBlockedId: string;
  readonly onSort: (column: SortColumn) => void;
  /** A row was selected: by a click (`pointer`), or by the keyboard moving through the list. */
  readonly onSelect: (position: number, how: 'pointer' | 'keyboard') => void;
  readonly onOpenDetails: () => void;
  readonly onCancel: (orderId: string) => void;
  /** Rows ticked for a bulk cancel. */
  readonly selection: RowSelection;
  /** Ticks or unticks the row at `position` (with Shift: the range from the last one ticked). */
  readonly onTick: (position: number, range: boolean) => void;
  readonly onTickAll: () => void;
  readonly tickedState: AllState;
  /** Shown in the grid's body when there are no rows (what matched nothing, and how to clear it). */
  readonly empty?: ReactNode;
}

export function OrdersGrid(props: OrdersGridProps) {
  const { label, table, rows, position, sort, marks, statuses, cancelBlocked, cancelBlockedId } =
    props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLDivElement>(null);
  const headLeft = useRef(0);
  const bodyRef = useRef<HTMLDivElement>(null);
  /** Set by the keyboard: the newly selected row takes the focus once rendered. */
  const focusWanted = useRef(false);
  const hintId = useId();
  const shown = rows.length;
  // The row that is the grid's tab stop: the selected one, else the first.
  const tabStop = position >= 0 && position < shown ? position : 0;
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(FALLBACK_VIEWPORT_HEIGHT);
  const scroll = useMemo(() => gridScroll(shown, ROW_HEIGHT, viewport), [shown, viewport]);
  /** The list offset at the viewport's top, kept while the list grows or the scale changes. */
  const offsetRef = useRef(0);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element || typeof ResizeObserver !== 'function') return undefined;
    const observer = new ResizeObserver(() => {
      const height = element.clientHeight;
      setViewport(height > 0 ? height : FALLBACK_VIEWPORT_HEIGHT);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // A list that grows past the cap changes the scale: the rows at the top of the view stay there.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const wanted = Math.round(scrollTopAt(scroll, offsetRef.current));
    if (Math.abs(element.scrollTop - wanted) >= 1) {
      element.scrollTop = wanted;
      setScrollTop(element.scrollTop);
    }
  }, [scroll]);

  useLayoutEffect(() => {
    if (!focusWanted.current) return;
    focusWanted.current = false;
    bodyRef.current
      ?.querySelector<HTMLElement>(`[data-position="${tabStop}"]`)
      ?.focus({ preventScroll: true });
  }, [tabStop]);

  const scrollTo = (next: number) => {
    const element = scrollRef.current;
    if (!element) return;
    element.scrollTop = next;
    offsetRef.current = offsetAt(scroll, element.scrollTop);
    setScrollTop(element.scrollTop);
  };

  const moveTo = (next: number) => {
    if (shown === 0) return;
    const target = Math.max(0, Math.min(shown - 1, next));
    // The focus is on the tab-stop row already; it moves with the tab stop.
    if (target !== tabStop) focusWanted.current = true;
    if (target !== position) props.onSelect(target, 'keyboard');
    const current = scrollRef.current?.scrollTop ?? scrollTop;
    const wanted = scrollTopToReveal(scroll, target, current);
    if (wanted !== current) scrollTo(wanted);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target instanceof HTMLElement && event.target.getAttribute('role') !== 'row') return;
    const page = Math.max(1, Math.floor(viewport / ROW_HEIGHT) - 1);
    const from = position >= 0 ? position : -1;
    switch (event.key) {
      case 'ArrowDown':
        moveTo(from + 1);
        break;
      case 'ArrowUp':
        moveTo(from < 0 ? 0 : from - 1);
        break;
      case 'PageDown':
        moveTo(Math.max(from, 0) + page);
        break;
      case 'PageUp':
        moveTo(from - page);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(shown - 1);
        break;
      case 'Enter':
        if (position < 0 && shown > 0) props.onSelect(0, 'keyboard');
        props.onOpenDetails();
        break;
      case ' ':
        if (position >= 0) props.onTick(position, event.shiftKey);
        break;
      case 'Delete': {
        const row = rows[position];
        const id = row === undefined ? undefined : table.idAt(row);
        const status =
          row === undefined ? undefined : statusOf(statuses, id, table.completeAt(row));
        if (id !== undefined && !cancelBlocked && canStillCancel(status)) props.onCancel(id);
        break;
      }
      default:
        return;
    }
    event.preventDefault();
  };

  // The rows in view and a few around them, and the tab stop wherever it is (so the focus never
  // falls out of the grid while scrolling); one far away sits out of sight above the content.
  const { first, last } = rowsInView(scroll, scrollTop);
  const positions: number[] = [];
  const from = Math.max(0, first - OVERSCAN);
  const to = Math.min(shown - 1, last + OVERSCAN);
  if (shown > 0 && tabStop < from) positions.push(tabStop);
  for (let at = from; at <= to; at++) positions.push(at);
  if (shown > 0 && tabStop > to) positions.push(tabStop);
  const topOf = (at: number) =>
    at < from || at > to ? -2 * ROW_HEIGHT : rowTop(scroll, at, scrollTop);

  return (
    <div className="orders-grid-wrap">
      <div
        role="grid"
        aria-label={label}
        aria-rowcount={rows.length + 1}
        aria-busy={props.busy || undefined}
        aria-colcount={COLUMNS.length}
        aria-describedby={hintId}
        className="orders-grid"
      >
        <div role="rowgroup" className="orders-grid-head" ref={headRef}>
          <div role="row" aria-rowindex={1} className="orders-grid-row">
            {COLUMNS.map((column) => {
              const sorted = sort?.column === column.key ? sort.direction : undefined;
              return (
                <div
                  key={column.key}
                  role="columnheader"
                  aria-sort={sorted}
                  className={`orders-grid-cell${column.numeric ? ' numeric' : ''}`}
                >
                  {column.key === 'select' ? (
                    <input
                      className="select-all"
                      type="checkbox"
                      aria-label="Select all shown"
                      checked={props.tickedState === 'all'}
                      ref={(box) => {
                        if (box) box.indeterminate = props.tickedState === 'some';
                      }}
                      onChange={props.onTickAll}
                    />
                  ) : isSortable(column.key) ? (
                    <button
                      type="button"
                      className="sort-button"
                      onClick={() => isSortable(column.key) && props.onSort(column.key)}
                    >
                      {column.label}
                      <span aria-hidden="true" className="sort-mark">
                        {sorted === 'ascending' ? ' ▲' : sorted === 'descending' ? ' ▼' : ''}
                      </span>
                    </button>
                  ) : (
                    column.label
                  )}
                </div>
              );
            })}
          </div>
        </div>
        <div
          ref={scrollRef}
          className="orders-grid-scroll"
          onScroll={(event) => {
            const element = event.currentTarget;
            if (element.scrollTop !== scrollTop) {
              offsetRef.current = offsetAt(scroll, element.scrollTop);
              setScrollTop(element.scrollTop);
            }
            // Where the window is too narrow for every column, the header follows the rows sideways.
            // Only a sideways move touches the header: a write per vertical frame would cost a layout.
            const left = element.scrollLeft;
            if (left === headLeft.current || !headRef.current) return;
            headLeft.current = left;
            headRef.current.scrollLeft = left;
          }}
        >
          {/* eslint-disable-next-line jsx-a11y-x/no-noninteractive-element-interactions -- the grid's arrow keys, handled once for all rows (the focused row has tabIndex 0) */}
          <div
            ref={bodyRef}
            role="rowgroup"
            className="orders-grid-body"
            style={{ height: scroll.contentHeight }}
            onKeyDown={onKeyDown}
          >
            {positions.map((at) => {
              const row = rows[at]!;
              return (
                <OrderRow
                  key={row}
                  table={table}
                  row={row}
                  position={at}
                  start={topOf(at)}
                  selected={at === position}
                  tabStop={at === tabStop}
                  marks={marks}
                  change={props.changeMarkOf?.(row)}
                  statuses={statuses}
                  cancelBlocked={cancelBlocked}
                  cancelBlockedId={cancelBlockedId}
                  onSelect={props.onSelect}
                  onOpenDetails={props.onOpenDetails}
                  onCancel={props.onCancel}
                  ticked={props.selection.has(row)}
                  onTick={props.onTick}
                />
              );
            })}
          </div>
        </div>
      </div>
      {/* Over the grid's empty body, outside the grid: a grid holds rows only. */}
      {rows.length === 0 && props.empty && <div className="orders-grid-empty">{props.empty}</div>}
      {/* Outside the grid: a grid holds rows only. */}
      <p id={hintId} className="visually-hidden">
        Arrow keys, Page Up, Page Down, Home and End move through the orders. Enter opens the
        order&rsquo;s details. Delete asks to cancel it. Space ticks it for a bulk cancel (with
        Shift, every order from the last one ticked).
      </p>
    </div>
  );
}

interface OrderRowProps {
  readonly table: OrderTable;
  readonly row: number;
  readonly position: number;
  readonly start: number;
  readonly selected: boolean;
  readonly tabStop: boolean;
  readonly marks: ReviewMarks;
  readonly change: ChangeMark | undefined;
  readonly statuses: ReadonlyMap<string, RowStatus>;
  readonly cancelBlocked: string | undefined;
  readonly cancelBlockedId: string;
  readonly onSelect: (position: number, how: 'pointer' | 'keyboard') => void;
  readonly onOpenDetails: () => void;
  readonly onCancel: (orderId: string) => void;
  readonly ticked: boolean;
  readonly onTick: (position: number, range: boolean) => void;
}

function OrderRow(props: OrderRowProps) {
  const { table, row, position, selected, marks, statuses, cancelBlocked } = props;
  const id = table.idAt(row);
  const petId = table.petIdAt(row);
  const quantity = table.quantityAt(row);
  const shipDate = table.shipDateAt(row);
  const complete = table.completeAt(row);
  const mark = id === undefined ? undefined : marks[id];
  const status = statusOf(statuses, id, complete);

  return (
    // eslint-disable-next-line jsx-a11y-x/click-events-have-key-events -- keys reach the row through the rowgroup's handler
    <div
      role="row"
      aria-rowindex={position + 2}
      aria-selected={selected}
      tabIndex={props.tabStop ? 0 : -1}
      data-position={position}
      className={`orders-grid-row orders-grid-item${status ? ` row-${status}` : ''}`}
      // top, not a transform: a row never sits far down the content (see grid-scroll.ts), and top stays crisp.
      style={{ top: props.start }}
      onClick={() => props.onSelect(position, 'pointer')}
      onFocus={(event) =>
        event.target === event.currentTarget && !selected && props.onSelect(position, 'keyboard')
      }
      onDoubleClick={props.onOpenDetails}
    >
      <div role="gridcell" className="orders-grid-cell select-cell">
        {id !== undefined && (
          <input
            type="checkbox"
            tabIndex={-1}
            aria-label={`Select order ${id}`}
            checked={props.ticked}
            onChange={() => undefined}
            onClick={(event) => {
              event.stopPropagation();
              props.onTick(position, event.shiftKey);
            }}
          />
        )}
      </div>
      <div role="rowheader" className="orders-grid-cell numeric">
        {id ?? MISSING}
      </div>
      <div role="gridcell" className="orders-grid-cell numeric">
        {petId ?? MISSING}
      </div>
      <div role="gridcell" className="orders-grid-cell numeric">
        {quantity ?? MISSING}
      </div>
      <div role="gridcell" className="orders-grid-cell">
        {shipDate ? (
          <time dateTime={shipDate} title={formatDateTime(shipDate)}>
            {formatShortDateTime(shipDate)}
          </time>
        ) : (
          MISSING
        )}
      </div>
      <div role="gridcell" className="orders-grid-cell">
        {complete === undefined ? MISSING : complete ? 'Yes' : 'No'}
      </div>
      <div role="gridcell" className="orders-grid-cell review-cell">
        {/* Marks, with their words for screen readers and a legend in the status bar. */}
        {mark?.reviewed && (
          <span
            role="img"
            aria-label="Reviewed"
            title="Reviewed on this computer"
            className="review-mark"
          >
            ✓
          </span>
        )}
        {mark?.note && (
          <span role="img" aria-label="Has a note" title={mark.note} className="note-mark">
            ✎
          </span>
        )}
        <ChangeMarkChip mark={props.change} />
      </div>
      <div role="gridcell" className="orders-grid-cell status-cell">
        {/* A status chip once this computer knows more than the list; until then, the way to cancel.
            An order that may or may not be cancelled is sent again from its details (or with Delete). */}
        {status ? (
          <span className={`status-chip status-${status}`} title={ROW_STATUS_WORDS[status]}>
            {ROW_STATUS_SHORT[status]}
          </span>
        ) : id === undefined ? (
          <span className="muted">No ID to cancel</span>
        ) : (
          <button
            type="button"
            className="small-button"
            tabIndex={-1}
            aria-label={`Cancel order ${id}`}
            aria-disabled={cancelBlocked ? true : undefined}
            aria-describedby={cancelBlocked ? props.cancelBlockedId : undefined}
            title={cancelBlocked}
            onClick={() => !cancelBlocked && props.onCancel(id)}
          >
            Cancel…
          </button>
        )}
      </div>
    </div>
  );
}
