// The whole order list as an ARIA grid, virtualized: only the rows in view
// (and the selected one) are in the page, each with its aria-rowindex, so a
// million orders scroll like a hundred and screen readers still know where
// they are. Past what a browser can lay out, the scroll position is scaled
// (grid-scroll.ts), so every row of any list can be scrolled to. React draws
// the frame and the header; the rows are a pool of elements filled in place
// (table/grid-rows.ts) in the scroll event itself, so each painted frame
// shows the rows of its scroll position. One row is the tab stop (roving
// focus); the arrow keys, Page Up/Down and Home/End move the selection and
// keep it in view; Enter opens the details; Delete asks to cancel; the
// context-menu key or Shift+F10 (or a right-click) opens the row's menu.
// The columns the clerk hid are left out and the widths set are kept (UI
// preferences); where the columns are wider than the window, the grid
// scrolls sideways with its header.

import {
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import type { ReviewMarks } from '../../../../shared/orders-local.ts';
import { useUiPreferences } from '../../ui-preferences.tsx';
import type { AllState, RowSelection } from '../bulk-cancel/row-selection.ts';
import type { ChangeMark } from '../changes/change-lookup.ts';
import '../changes/changes.css';
import { GridRows } from './table/grid-rows.ts';
import {
  gridScroll,
  isScaled,
  offsetAt,
  scrollCap,
  scrollTopAt,
  scrollTopToReveal,
  type GridScroll,
} from './table/grid-scroll.ts';
import {
  columnStyle,
  gridColumns,
  isSortable,
  type GridColumn,
  type RowContent,
  type SearchHighlight,
} from './table/order-cells.ts';
import { ColumnResizer } from './column-resizer.tsx';
import { RowMenu, type RowMenuAt } from './row-menu.tsx';
import type { OrderTable, SortColumn, SortSpec } from './table/order-table.ts';
import { canStillCancel, statusOf, type RowStatus } from './row-status.ts';

/** The row height: --row-height in tokens.css is the same 32px. */
export const ROW_HEIGHT = 32;
/** The scroll area's height where layout gives none (a hidden window, jsdom). */
export const FALLBACK_VIEWPORT_HEIGHT = 480;

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
  /**
   * A row was selected: by a click (`pointer`, which opens its details), by
   * the keyboard moving through the list, or for its menu (a right-click).
   */
  readonly onSelect: (position: number, how: 'pointer' | 'keyboard' | 'menu') => void;
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
  /** The digits searched for, marked in the ids. */
  readonly highlight?: SearchHighlight | undefined;
  /** A short message after the row's menu copied something. */
  readonly onCopied?: (message: string) => void;
}

export function OrdersGrid(props: OrdersGridProps) {
  const { label, table, rows, position, sort, marks, statuses, cancelBlocked, cancelBlockedId } =
    props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const headRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const gridRows = useRef<GridRows | undefined>(undefined);
  /** Set by the keyboard: the newly selected row takes the focus once rendered. */
  const focusWanted = useRef(false);
  const hintId = useId();
  const [menu, setMenu] = useState<RowMenuAt | undefined>();
  const hidden = useUiPreferences((state) => state.hiddenColumns);
  const widths = useUiPreferences((state) => state.columnWidths);
  const hiddenKey = hidden.join(' ');
  // One set of columns per choice: the pool of rows is made for it.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for the list
  const columns = useMemo(() => gridColumns(hidden), [hiddenKey]);
  const tracks = useMemo(() => columnStyle(columns, widths) as CSSProperties, [columns, widths]);
  const gridRef = useRef<HTMLDivElement>(null);
  const shown = rows.length;
  // The row that is the grid's tab stop: the selected one, else the first.
  const tabStop = position >= 0 && position < shown ? position : 0;
  const [viewport, setViewport] = useState(FALLBACK_VIEWPORT_HEIGHT);
  /**
   * The scroll area's height as the last layout gave it. The state above
   * follows it a task later (for the page size); the rows follow this, at
   * once, so a resize never paints a frame with the rows of the old height.
   */
  const viewportRef = useRef(FALLBACK_VIEWPORT_HEIGHT);
  const pixelRatio = useDevicePixelRatio();
  const scroll = useMemo(
    () => gridScroll(shown, ROW_HEIGHT, viewport, scrollCap(pixelRatio)),
    [shown, viewport, pixelRatio],
  );
  /** The scroll model the rows are placed with: the latest render's, with the latest height. */
  const scrollModel = useRef<GridScroll>(scroll);
  /** The list offset at the viewport's top, kept while the list grows or the scale changes. */
  const offsetRef = useRef(0);
  /**
   * The scroller's scrollTop as the scroll events and our own writes left it:
   * read back from the page after React has changed it, it would lay the page
   * out at once, before the frame would.
   */
  const topRef = useRef(0);
  /** The latest props, for the rows' event handlers. */
  const latest = useRef(props);
  /** The sort the view was last placed for: a new one starts at the top, or at the selected row. */
  const sortKey = sort ? `${sort.column} ${sort.direction}` : '';
  const placedForSort = useRef(sortKey);

  const content: RowContent = useMemo(
    () => ({
      table,
      rows,
      position,
      tabStop,
      marks,
      changeMarkOf: props.changeMarkOf,
      statuses,
      cancelBlocked,
      cancelBlockedId,
      selection: props.selection,
      highlight: props.highlight,
    }),
    [
      table,
      rows,
      position,
      tabStop,
      marks,
      props.changeMarkOf,
      statuses,
      cancelBlocked,
      cancelBlockedId,
      props.selection,
      props.highlight,
    ],
  );

  // The scroll area's height, its scroll position and the pool of rows, as the effects below and
  // their listeners share them (refs: one object for the grid's life).
  const [placement] = useState<Placement>(() => ({
    viewport: viewportRef,
    model: scrollModel,
    offset: offsetRef,
    top: topRef,
    rows: gridRows,
  }));

  // The listeners are made outside this component (followHeight, attachRows), so that they hold
  // the refs they use and not this render's scope: a closure made here would keep every value of
  // the render it was made in (its table, the list it came with) for as long as it lives.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element || typeof ResizeObserver !== 'function') return undefined;
    return followHeight(element, placement, setViewport);
  }, [placement]);

  // The rows follow the scroll position in the scroll event itself: before the frame is painted.
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    const body = bodyRef.current;
    if (!scroller || !body) return undefined;
    return attachRows({
      scroller,
      body,
      head: headRef.current,
      columns,
      placement,
      latest,
      focusWanted,
      setMenu,
    });
  }, [columns, placement]);

  // A list that grows past the cap changes the scale: the rows at the top of the view stay there.
  // Then the rows show what the props say, at the scroll position the page has.
  useLayoutEffect(() => {
    latest.current = props;
    // A render that comes before the one for the new height still places rows for it.
    const model =
      scroll.viewport === viewportRef.current
        ? scroll
        : gridScroll(shown, ROW_HEIGHT, viewportRef.current, scrollCap(pixelRatio));
    scrollModel.current = model;
    const element = scrollRef.current;
    const pool = gridRows.current;
    if (!element || !pool) return;
    if (placedForSort.current !== sortKey) {
      // Kept where it was, a new order showed rows from the middle of the list.
      placedForSort.current = sortKey;
      offsetRef.current =
        position >= 0 && position < shown
          ? offsetAt(model, scrollTopToReveal(model, position, 0))
          : 0;
    }
    // Where the page has it: the last position, as the browser clamps it to the content now.
    let top = Math.min(topRef.current, maxScrollTop(model));
    const wanted = Math.round(scrollTopAt(model, offsetRef.current));
    if (Math.abs(top - wanted) >= 1) {
      element.scrollTop = wanted;
      top = wanted;
    }
    topRef.current = top;
    pool.setContent(content);
    pool.place(model, top);
    if (focusWanted.current) {
      focusWanted.current = false;
      pool.elementAt(tabStop)?.focus({ preventScroll: true });
    }
  });

  const scrollTo = (next: number) => {
    const element = scrollRef.current;
    if (!element) return;
    element.scrollTop = next;
    const model = scrollModel.current;
    const top = Math.max(0, Math.min(next, maxScrollTop(model)));
    topRef.current = top;
    offsetRef.current = offsetAt(model, top);
    gridRows.current?.place(model, top);
  };

  const moveTo = (next: number) => {
    if (shown === 0) return;
    const target = Math.max(0, Math.min(shown - 1, next));
    // The focus is on the tab-stop row already; it moves with the tab stop.
    if (target !== tabStop) focusWanted.current = true;
    if (target !== position) props.onSelect(target, 'keyboard');
    const current = topRef.current;
    const wanted = scrollTopToReveal(scrollModel.current, target, current);
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
      case 'ContextMenu':
      case 'F10': {
        if (event.key === 'F10' && !event.shiftKey) return;
        const at = position >= 0 ? position : 0;
        const element = gridRows.current?.elementAt(at);
        if (!element || shown === 0) return;
        if (position < 0) props.onSelect(0, 'keyboard');
        const box = element.getBoundingClientRect();
        setMenu({ position: at, x: box.left + 48, y: box.bottom, fromKeyboard: true });
        break;
      }
      default:
        return;
    }
    event.preventDefault();
  };

  const closeMenu = (focusRow: boolean) => {
    const at = menu?.position;
    setMenu(undefined);
    if (focusRow && at !== undefined)
      gridRows.current?.elementAt(at)?.focus({ preventScroll: true });
  };

  return (
    <div className="orders-grid-wrap">
      <div
        role="grid"
        aria-label={label}
        aria-rowcount={rows.length + 1}
        aria-busy={props.busy || undefined}
        aria-colcount={columns.length}
        aria-describedby={hintId}
        className="orders-grid"
        style={tracks}
        ref={gridRef}
      >
        <div role="rowgroup" className="orders-grid-head" ref={headRef}>
          <div role="row" aria-rowindex={1} className="orders-grid-row">
            {columns.map((column) => {
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
                    <SortButton
                      column={column.key}
                      label={column.label}
                      sorted={sorted}
                      onSort={props.onSort}
                    />
                  ) : (
                    column.label
                  )}
                  {isResizable(column) && (
                    <ColumnResizer
                      column={column}
                      columns={columns}
                      widths={widths}
                      gridRef={gridRef}
                    />
                  )}
                </div>
              );
            })}
          </div>
        </div>
        <div ref={scrollRef} className="orders-grid-scroll">
          {/* The rows are GridRows' elements (table/grid-rows.ts), not React's. */}
          {/* eslint-disable-next-line jsx-a11y-x/no-noninteractive-element-interactions -- the grid's arrow keys, handled once for all rows (the focused row has tabIndex 0) */}
          <div
            ref={bodyRef}
            role="rowgroup"
            className="orders-grid-body"
            style={{ height: scroll.contentHeight }}
            onKeyDown={onKeyDown}
          />
        </div>
      </div>
      {/* Over the grid's empty body, outside the grid: a grid holds rows only. */}
      {rows.length === 0 && props.empty && <div className="orders-grid-empty">{props.empty}</div>}
      {/* Outside the grid: a grid holds rows only. */}
      <p id={hintId} className="visually-hidden">
        Arrow keys, Page Up, Page Down, Home and End move through the orders. Enter opens the
        order&rsquo;s details. Delete asks to cancel it. Space ticks it for a bulk cancel (with
        Shift, every order from the last one ticked). The menu key or Shift+F10 opens the
        order&rsquo;s menu: copy, details, cancel.
      </p>
      {menu && (
        <RowMenu
          at={menu}
          table={table}
          row={rows[menu.position]}
          statuses={statuses}
          cancelBlocked={cancelBlocked}
          cancelBlockedId={cancelBlockedId}
          onOpenDetails={props.onOpenDetails}
          onCancel={props.onCancel}
          onCopied={(message) => props.onCopied?.(message)}
          onClose={closeMenu}
        />
      )}
    </div>
  );
}

/** What the grid's effects and listeners share: refs, kept for the grid's life. */
interface Placement {
  /** The scroll area's height as the last layout gave it. */
  readonly viewport: { current: number };
  /** The scroll model the rows are placed with. */
  readonly model: { current: GridScroll };
  /** The list offset at the viewport's top. */
  readonly offset: { current: number };
  /** The scroller's scrollTop as the scroll events and our own writes left it. */
  readonly top: { current: number };
  readonly rows: { current: GridRows | undefined };
}

/**
 * A new height places the rows in the observer's callback: after the layout
 * that changed the size and before that frame is painted. A state update
 * alone renders a task later, after the frame, and until then the rows are
 * those of the old height (none at all below them). Returns the disconnect.
 */
function followHeight(
  element: HTMLElement,
  placement: Placement,
  setViewport: (height: number) => void,
): () => void {
  const observer = new ResizeObserver(() => {
    const measured = element.clientHeight;
    const height = measured > 0 ? measured : FALLBACK_VIEWPORT_HEIGHT;
    setViewport(height);
    if (height === placement.viewport.current) return;
    placement.viewport.current = height;
    const was = placement.model.current;
    // The content's height stands for the cap: the list's height, capped.
    const model = gridScroll(was.rows, was.rowHeight, height, was.contentHeight);
    placement.model.current = model;
    // Read from the page, fresh from layout: the browser has clamped it to the new height, and
    // a scroll whose event is still to come has moved it.
    const actual = element.scrollTop;
    if (actual !== placement.top.current) placement.offset.current = offsetAt(was, actual);
    // A scaled list keeps the row at the top of the view (the scale changes with the height).
    let top = actual;
    const wanted = Math.round(scrollTopAt(model, placement.offset.current));
    if (isScaled(model) && Math.abs(actual - wanted) >= 1) {
      element.scrollTop = wanted;
      top = wanted;
    }
    placement.top.current = top;
    placement.offset.current = offsetAt(model, top);
    placement.rows.current?.place(model, top);
  });
  observer.observe(element);
  return () => observer.disconnect();
}

/**
 * The pool of rows for `columns` in `body`, placed in the scroll event, and
 * the body's listeners (clicks, the menu, focus), which read the latest
 * props from `latest`. Returns what takes them away again.
 */
function attachRows({
  scroller,
  body,
  head,
  columns,
  placement,
  latest,
  focusWanted,
  setMenu,
}: {
  scroller: HTMLElement;
  body: HTMLElement;
  head: HTMLElement | null;
  columns: readonly GridColumn[];
  placement: Placement;
  latest: { readonly current: OrdersGridProps };
  focusWanted: { current: boolean };
  setMenu: (menu: RowMenuAt) => void;
}): () => void {
  const pool = new GridRows(body, columns, ROW_HEIGHT);
  placement.rows.current = pool;
  // Where the window is too narrow for every column, the header follows the rows sideways,
  // moved rather than scrolled: a header scrolling itself stopped a scroll bar's width short
  // of the rows' right end (its range is its own). Only a sideways move touches it: a write
  // per vertical frame would cost a layout.
  const headRow = head?.firstElementChild instanceof HTMLElement ? head.firstElementChild : null;
  let headLeft = -1;
  const followSideways = (left: number) => {
    if (left === headLeft || !headRow) return;
    headLeft = left;
    headRow.style.transform = left === 0 ? '' : `translateX(${-left}px)`;
  };
  followSideways(scroller.scrollLeft);
  const onScroll = () => {
    // Both read before the rows are written: a read after a write would lay the page out again, at once.
    const top = scroller.scrollTop;
    const left = scroller.scrollLeft;
    placement.top.current = top;
    placement.offset.current = offsetAt(placement.model.current, top);
    pool.place(placement.model.current, top);
    followSideways(left);
  };
  // A header control reached by Tab (or Shift+Tab) while out of view, on either side: the rows
  // scroll to it and the header with them, before the browser would scroll the header alone
  // (leaving its columns over the wrong rows; what it still scrolls is handed to the rows).
  const revealSideways = (by: number) => {
    if (by === 0) return;
    scroller.scrollLeft += by;
    followSideways(scroller.scrollLeft);
  };
  const onHeadFocus = (event: FocusEvent) => {
    if (!head || !(event.target instanceof Element)) return;
    const box = head.getBoundingClientRect();
    const control = event.target.getBoundingClientRect();
    const right = box.left + head.clientWidth;
    if (control.left < box.left) revealSideways(control.left - box.left);
    else if (control.right > right)
      revealSideways(Math.min(control.right - right, control.left - box.left));
  };
  const onHeadScroll = () => {
    if (!head || head.scrollLeft === 0) return;
    const by = head.scrollLeft;
    head.scrollLeft = 0;
    revealSideways(by);
  };
  const onClick = (event: MouseEvent) => {
    const at = pool.positionOf(event.target);
    if (at === undefined || !(event.target instanceof Element)) return;
    const current = latest.current;
    const box = event.target.closest('input[type="checkbox"]');
    if (box) {
      current.onTick(at, event.shiftKey);
      return;
    }
    // The row's Cancel asks about that order and nothing else: a click on the row around it
    // would open its details under the dialog (and a blocked Cancel does nothing at all).
    const cancel = event.target.closest<HTMLElement>('button[data-cancel]');
    if (cancel) {
      if (!current.cancelBlocked) current.onCancel(cancel.dataset.cancel!);
      return;
    }
    current.onSelect(at, 'pointer');
  };
  // A double-click on the row opens its details; on a control in it (the tick box, Cancel), it is
  // that control's two clicks and nothing more.
  const onDoubleClick = (event: MouseEvent) => {
    if (pool.positionOf(event.target) === undefined || !(event.target instanceof Element)) return;
    if (event.target.closest('input, button')) return;
    latest.current.onOpenDetails();
  };
  // The row's own menu instead of the page's (which has nothing for a row). The row is selected
  // for it, and the details wait for the menu's "Open details".
  const onContextMenu = (event: MouseEvent) => {
    const at = pool.positionOf(event.target);
    if (at === undefined) return;
    event.preventDefault();
    latest.current.onSelect(at, 'menu');
    setMenu({ position: at, x: event.clientX, y: event.clientY });
  };
  const onFocus = (event: FocusEvent) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || target.getAttribute('role') !== 'row') return;
    const at = pool.positionOf(target);
    if (at === undefined) return;
    // A row that takes the focus out of view (Tab to the selected row after the list changed under
    // it) comes into view: it was drawn behind the toolbar.
    const top = placement.top.current;
    const wanted = scrollTopToReveal(placement.model.current, at, top);
    if (wanted !== top) {
      scroller.scrollTop = wanted;
      onScroll();
    }
    if (at !== latest.current.position) latest.current.onSelect(at, 'keyboard');
  };
  scroller.addEventListener('scroll', onScroll, { passive: true });
  head?.addEventListener('scroll', onHeadScroll, { passive: true });
  head?.addEventListener('focusin', onHeadFocus);
  body.addEventListener('click', onClick);
  body.addEventListener('dblclick', onDoubleClick);
  body.addEventListener('contextmenu', onContextMenu);
  body.addEventListener('focusin', onFocus);
  return () => {
    scroller.removeEventListener('scroll', onScroll);
    head?.removeEventListener('scroll', onHeadScroll);
    head?.removeEventListener('focusin', onHeadFocus);
    body.removeEventListener('click', onClick);
    body.removeEventListener('dblclick', onDoubleClick);
    body.removeEventListener('contextmenu', onContextMenu);
    body.removeEventListener('focusin', onFocus);
    // Focus on a row that goes with its pool comes back to the new pool's tab stop.
    if (body.contains(body.ownerDocument.activeElement)) focusWanted.current = true;
    body.replaceChildren();
    placement.rows.current = undefined;
  };
}

/** The tick box is a fixed width; every other column's header edge resizes it. */
const isResizable = (column: GridColumn) => column.key !== 'select';

/** The largest scrollTop the scroller's content allows. */
const maxScrollTop = (scroll: GridScroll) => Math.max(0, scroll.contentHeight - scroll.viewport);

function SortButton(props: {
  column: SortColumn;
  label: string;
  sorted: 'ascending' | 'descending' | undefined;
  onSort: (column: SortColumn) => void;
}) {
  return (
    <button type="button" className="sort-button" onClick={() => props.onSort(props.column)}>
      {props.label}
      <span aria-hidden="true" className="sort-mark">
        {props.sorted === 'ascending' ? ' ▲' : props.sorted === 'descending' ? ' ▼' : ''}
      </span>
    </button>
  );
}

/**
 * The window's device pixel ratio (zoom times the screen's scale), followed
 * as it changes: zooming or moving to another screen changes what Chromium
 * can lay out (grid-scroll.ts).
 */
function useDevicePixelRatio(): number {
  const [ratio, setRatio] = useState(() =>
    typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1,
  );
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return undefined;
    const query = window.matchMedia(`(resolution: ${ratio}dppx)`);
    const changed = () => setRatio(window.devicePixelRatio || 1);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, [ratio]);
  return ratio;
}
