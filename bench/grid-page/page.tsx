// The bench's page of grids (bench/grids.ts builds and serves it): one grid
// per load, named by ?grid=, showing the same order list, fetched from
// /orders.json. Ours is the app's own OrdersGrid on the app's columns (the
// list read by main's scanner, as main reads it); the peers take the list as
// a company would give it to them, JSON.parse's objects. The page exposes
// what the bench needs on window.benchGrid: the scroller, where each grid
// puts its rows, the order id shown at a point, and a frame-checked scroll.

import {
  AllCommunityModule,
  createGrid,
  ModuleRegistry,
  type ColDef,
  type GridApi,
} from 'ag-grid-community';
import { useVirtualizer } from '@tanstack/react-virtual';
import { StrictMode, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { RowSelection } from '../../src/renderer/src/features/bulk-cancel/row-selection.ts';
import { OrdersGrid, ROW_HEIGHT } from '../../src/renderer/src/features/orders/orders-grid.tsx';
import {
  gridScroll,
  offsetAt,
  scrollCap,
} from '../../src/renderer/src/features/orders/table/grid-scroll.ts';
import { OrderTable } from '../../src/renderer/src/features/orders/table/order-table.ts';
import { formatShortDateTime } from '../../src/renderer/src/format.ts';
import { OrderListScanner } from '../../src/shared/order-list-scanner.ts';
import '../../src/renderer/src/tokens.css';
import '../../src/renderer/src/styles.css';
import '../../src/renderer/src/features/orders/orders.css';
import './page.css';
import type { FrameReading } from './frame-reading.ts';
import { scrollFrames } from './scroll-frames.ts';

interface ParsedOrder {
  readonly id?: number;
  readonly petId?: number;
  readonly quantity?: number;
  readonly shipDate?: string;
  readonly complete?: boolean;
}

/** What the bench reads of a grid, whichever it is. */
export interface BenchGrid {
  readonly name: string;
  readonly count: number;
  /** The element that scrolls the rows vertically. */
  scroller(): HTMLElement;
  /** Where (client y) the first row's top is when the grid is scrolled to its top: below any header. */
  rowsTop(): number;
  /** The list offset (row i's top is i * ROW_HEIGHT) at the top of the rows' area for a scrollTop. */
  offsetAt(scrollTop: number): number;
  /** The order id of the row at list position `index`. */
  idOf(index: number): string;
  /** The order id the page shows at a point: '' for a row without its id drawn, undefined for no row. */
  idAt(x: number, y: number): string | undefined;
  /** The x of the id column's middle. */
  idX(): number;
  /** Sets a quick filter (AG Grid only); the displayed rows after it. */
  quickFilter?(text: string): number;
}

declare global {
  interface Window {
    benchGrid?: BenchGrid;
    benchError?: string;
    benchScroll?: (step: number, frames: number) => Promise<FrameReading[]>;
  }
}

const name = new URLSearchParams(location.search).get('grid') ?? 'ours';
const root = document.getElementById('root')!;

function rowIdAt(x: number, y: number, row: string, id: string): string | undefined {
  const found = document.elementFromPoint(x, y)?.closest(row);
  if (!found) return undefined;
  return found.querySelector(id)?.textContent?.trim() ?? '';
}

function columnMiddle(selector: string): number {
  const box = document.querySelector(selector)!.getBoundingClientRect();
  return box.left + box.width / 2;
}

// ---- Ours: the app's grid on the app's columns.

function Ours({ table }: { table: OrderTable }) {
  const rows = table.allRows();
  const [position, setPosition] = useState(-1);
  const [selection, setSelection] = useState(() => RowSelection.empty(table.count));
  return (
    <div className="bench-frame">
      {/* As in the orders screen: the body sets the columns' widths. */}
      <div className="orders-body">
        <OrdersGrid
          label="Orders"
          table={table}
          rows={rows}
          position={position}
          sort={undefined}
          marks={{}}
          statuses={new Map()}
          cancelBlocked={undefined}
          cancelBlockedId="blocked"
          onSort={() => undefined}
          onSelect={setPosition}
          onOpenDetails={() => undefined}
          onCancel={() => undefined}
          selection={selection}
          onTick={(at) => setSelection((s) => s.toggle(rows[at]!))}
          onTickAll={() => setSelection((s) => s.toggleAll(rows))}
          tickedState={selection.stateOf(rows)}
        />
      </div>
    </div>
  );
}

function ours(table: OrderTable): BenchGrid {
  createRoot(root).render(
    <StrictMode>
      <Ours table={table} />
    </StrictMode>,
  );
  const scroller = () => document.querySelector<HTMLElement>('.orders-grid-scroll')!;
  return {
    name,
    count: table.count,
    scroller,
    rowsTop: () => scroller().getBoundingClientRect().top,
    offsetAt: (scrollTop) =>
      offsetAt(
        gridScroll(
          table.count,
          ROW_HEIGHT,
          scroller().clientHeight,
          scrollCap(window.devicePixelRatio),
        ),
        scrollTop,
      ),
    idOf: (index) => table.idAt(index) ?? '',
    idAt: (x, y) => rowIdAt(x, y, '.orders-grid-item', '[role="rowheader"]'),
    idX: () => columnMiddle('[role="columnheader"]:nth-child(2)'),
  };
}

// ---- TanStack Virtual with plain rows (the same columns as text).

const PLAIN_COLUMNS = ['Order ID', 'Pet ID', 'Quantity', 'Ship date', 'Complete', 'Status'];

function TanStack({ orders }: { orders: readonly ParsedOrder[] }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: orders.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  return (
    <div className="bench-frame plain">
      <div className="plain-row plain-head">
        {PLAIN_COLUMNS.map((label) => (
          <div key={label} className="plain-cell">
            {label}
          </div>
        ))}
      </div>
      <div ref={scrollRef} className="plain-scroll">
        <div className="plain-body" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const order = orders[item.index]!;
            return (
              <div
                key={item.key}
                className="plain-row plain-item"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <div className="plain-cell plain-id">{order.id}</div>
                <div className="plain-cell">{order.petId}</div>
                <div className="plain-cell">{order.quantity}</div>
                <div className="plain-cell">
                  {order.shipDate ? formatShortDateTime(order.shipDate) : ''}
                </div>
                <div className="plain-cell">{order.complete ? 'Yes' : 'No'}</div>
                <div className="plain-cell">Cancel…</div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

function tanstack(orders: readonly ParsedOrder[]): BenchGrid {
  createRoot(root).render(
    <StrictMode>
      <TanStack orders={orders} />
    </StrictMode>,
  );
  return {
    name,
    count: orders.length,
    scroller: () => document.querySelector<HTMLElement>('.plain-scroll')!,
    rowsTop: () => document.querySelector('.plain-scroll')!.getBoundingClientRect().top,
    offsetAt: (scrollTop) => scrollTop,
    idOf: (index) => String(orders[index]?.id ?? ''),
    idAt: (x, y) => rowIdAt(x, y, '.plain-item', '.plain-id'),
    idX: () => columnMiddle('.plain-head .plain-cell:first-child'),
  };
}

// ---- AG Grid Community, client-side row model.

function agGrid(orders: ParsedOrder[]): BenchGrid {
  ModuleRegistry.registerModules([AllCommunityModule]);
  const frame = document.createElement('div');
  frame.className = 'bench-frame';
  root.append(frame);
  // The search looks in the ids only, as ours does.
  const notSearched = { getQuickFilterText: () => '' };
  const columnDefs: ColDef<ParsedOrder>[] = [
    { field: 'id', headerName: 'Order ID' },
    { field: 'petId', headerName: 'Pet ID' },
    { field: 'quantity', headerName: 'Quantity', ...notSearched },
    {
      field: 'shipDate',
      headerName: 'Ship date',
      valueFormatter: (p) => (p.value ? formatShortDateTime(p.value as string) : ''),
      ...notSearched,
    },
    { field: 'complete', headerName: 'Complete', ...notSearched },
    { headerName: 'Status', valueGetter: () => 'Cancel…', ...notSearched },
  ];
  const api: GridApi<ParsedOrder> = createGrid(frame, {
    columnDefs,
    rowData: orders,
    rowHeight: ROW_HEIGHT,
    rowBuffer: 10,
    defaultColDef: { flex: 1, sortable: true },
  });
  return {
    name,
    count: orders.length,
    // AG Grid 36 scrolls one viewport, its header sticking at the top inside it.
    scroller: () => frame.querySelector<HTMLElement>('.ag-grid-viewport')!,
    rowsTop: () => frame.querySelector('.ag-row[row-index="0"]')!.getBoundingClientRect().top,
    offsetAt: (scrollTop) => scrollTop,
    idOf: (index) => String(orders[index]?.id ?? ''),
    idAt: (x, y) => rowIdAt(x, y, '.ag-row', '[col-id="id"]'),
    idX: () => columnMiddle('.ag-header-cell[col-id="id"]'),
    quickFilter: (text) => {
      api.setGridOption('quickFilterText', text);
      return api.getDisplayedRowCount();
    },
  };
}

async function start(): Promise<void> {
  const response = await fetch('/orders.json');
  if (name === 'ours') {
    // As main reads it: the body's bytes into columns, then the renderer's table of them.
    const scanner = new OrderListScanner();
    scanner.push(new Uint8Array(await response.arrayBuffer()));
    window.benchGrid = ours(OrderTable.fromColumns(scanner.finish()));
    return;
  }
  const orders = JSON.parse(await response.text()) as ParsedOrder[];
  if (name === 'tanstack') window.benchGrid = tanstack(orders);
  else if (name === 'ag-grid') window.benchGrid = agGrid(orders);
  else throw new Error(`no grid named ${name}`);
}

window.benchScroll = (step, frames) => scrollFrames(window.benchGrid!, step, frames);

start().catch((error: unknown) => {
  window.benchError = String(error);
});
