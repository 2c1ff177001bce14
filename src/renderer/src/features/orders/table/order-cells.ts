// The orders grid's columns: each one's header, its width in the grid's
// tracks, and how its cell shows a row. Cells are plain elements that
// grid-rows.ts reuses for one order after another while the list scrolls, so
// a cell is filled in place: from a signature of what it shows, redrawn only
// when that changes. A column left out of GRID_COLUMNS (or given another
// width) is left out of the header and every row alike: the clerk's column
// chooser hides columns and the header's edges resize them (gridColumns,
// columnTracks). The digits a search matched are marked in the id cells.

import type { ReviewMark, ReviewMarks } from '../../../../../shared/orders-local.ts';
import type { RowSelection } from '../../bulk-cancel/row-selection.ts';
import type { ChangeMark } from '../../changes/change-lookup.ts';
import { CHANGE_MARK_WORDS } from '../../changes/change-mark.ts';
import { formatDateTime, formatShortDateTime } from '../../../format.ts';
import { ROW_STATUS_SHORT, ROW_STATUS_WORDS, statusOf, type RowStatus } from '../row-status.ts';
import type { OrderTable, SortColumn } from './order-table.ts';

/** What the rows show, handed over by the grid at each render; a new object whenever any part changes. */
export interface RowContent {
  readonly table: OrderTable;
  /** The rows of the view, in view order. */
  readonly rows: Uint32Array;
  /** Position of the selected order in `rows`; -1 when none. */
  readonly position: number;
  /** The position that is the grid's tab stop (the selected one, else the first). */
  readonly tabStop: number;
  readonly marks: ReviewMarks;
  readonly changeMarkOf: ((row: number) => ChangeMark | undefined) | undefined;
  readonly statuses: ReadonlyMap<string, RowStatus>;
  /** Why no cancel can be sent now; undefined when it can. */
  readonly cancelBlocked: string | undefined;
  readonly cancelBlockedId: string;
  readonly selection: RowSelection;
  /** The digits searched for, to mark where they are in the ids; undefined when nothing is searched. */
  readonly highlight?: SearchHighlight | undefined;
}

/** Where a search looks and how it matches, to mark the digits it found. */
export interface SearchHighlight {
  readonly text: string;
  readonly inId: boolean;
  readonly inPetId: boolean;
  /** Only at the start of an id ("Start of the ID"), else anywhere. */
  readonly atStart: boolean;
}

/** Where `highlight` finds its digits in `text` (the first place), as [start, end); undefined when not there. */
export function matchIn(
  text: string | undefined,
  highlight: SearchHighlight | undefined,
): readonly [number, number] | undefined {
  if (text === undefined || !highlight || highlight.text === '') return undefined;
  const at = highlight.atStart
    ? text.startsWith(highlight.text)
      ? 0
      : -1
    : text.indexOf(highlight.text);
  return at < 0 ? undefined : [at, at + highlight.text.length];
}

/** One order as its row shows it, read once per fill. */
export interface RowData {
  readonly row: number;
  readonly id: string | undefined;
  readonly petId: string | undefined;
  readonly quantity: number | undefined;
  readonly shipDate: string | undefined;
  readonly complete: boolean | undefined;
  readonly mark: ReviewMark | undefined;
  readonly change: ChangeMark | undefined;
  readonly status: RowStatus | undefined;
  readonly ticked: boolean;
  readonly cancelBlocked: string | undefined;
  readonly cancelBlockedId: string;
  readonly idMatch: readonly [number, number] | undefined;
  readonly petIdMatch: readonly [number, number] | undefined;
}

export function rowDataOf(content: RowContent, row: number): RowData {
  const { table, highlight } = content;
  const id = table.idAt(row);
  const petId = table.petIdAt(row);
  return {
    row,
    id,
    petId,
    quantity: table.quantityAt(row),
    shipDate: table.shipDateAt(row),
    complete: table.completeAt(row),
    mark: id === undefined ? undefined : content.marks[id],
    change: content.changeMarkOf?.(row),
    status: statusOf(content.statuses, id, table.completeAt(row)),
    ticked: content.selection.has(row),
    cancelBlocked: content.cancelBlocked,
    cancelBlockedId: content.cancelBlockedId,
    idMatch: highlight?.inId ? matchIn(id, highlight) : undefined,
    petIdMatch: highlight?.inPetId ? matchIn(petId, highlight) : undefined,
  };
}

export type ColumnKey = SortColumn | 'select' | 'review' | 'status';

export interface GridColumn {
  readonly key: ColumnKey;
  readonly label: string;
  readonly numeric?: boolean;
  /** Its track in the grid's `grid-template-columns` when the clerk has not set a width. */
  readonly width: string;
  readonly role: 'gridcell' | 'rowheader';
  /** Classes beside `orders-grid-cell`. */
  readonly className?: string;
  /** What the cell shows, as text: the cell is redrawn only when this changes. */
  signature(data: RowData): string;
  /** Draws the cell for `data`, replacing what it showed. */
  draw(cell: HTMLElement, data: RowData): void;
}

export function isSortable(key: ColumnKey): key is SortColumn {
  return key !== 'select' && key !== 'review' && key !== 'status';
}

const NOTHING = '\u0000';

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

/** A field the service left out: a dash on screen, words for screen readers (as MISSING in orders-grid.tsx). */
export function missingElement(): HTMLElement {
  const missing = element('span', 'missing');
  const dash = element('span', undefined, '—');
  dash.setAttribute('aria-hidden', 'true');
  missing.append(dash, element('span', 'visually-hidden', 'not given'));
  return missing;
}

/** The cell's only child, kept if it is already such an element, with these classes. */
function soleChild<K extends keyof HTMLElementTagNameMap>(
  cell: HTMLElement,
  tag: K,
  className: string,
  made?: (child: HTMLElementTagNameMap[K]) => void,
): HTMLElementTagNameMap[K] {
  const child = cell.firstElementChild;
  if (cell.childNodes.length === 1 && child?.localName === tag) {
    if (child.className !== className) child.className = className;
    return child as HTMLElementTagNameMap[K];
  }
  const fresh = element(tag, className);
  made?.(fresh);
  cell.replaceChildren(fresh);
  return fresh;
}

/** Sets an attribute only when its value changes (a write costs a style pass where a selector names it). */
function setAttribute(target: Element, name: string, value: string | undefined): void {
  if (value === undefined) {
    if (target.hasAttribute(name)) target.removeAttribute(name);
  } else if (target.getAttribute(name) !== value) target.setAttribute(name, value);
}

/** Text, or the missing mark. */
function drawText(cell: HTMLElement, text: string | undefined): void {
  if (text === undefined) cell.replaceChildren(missingElement());
  else if (cell.childNodes.length === 1 && cell.firstChild instanceof Text)
    cell.firstChild.data = text;
  else cell.textContent = text;
}

/** Text with the matched digits in a <mark>, or plain text when nothing matched. */
function drawHighlighted(
  cell: HTMLElement,
  text: string | undefined,
  match: readonly [number, number] | undefined,
): void {
  if (text === undefined || match === undefined) {
    drawText(cell, text);
    return;
  }
  const [start, end] = match;
  cell.replaceChildren(
    text.slice(0, start),
    element('mark', 'search-match', text.slice(start, end)),
    text.slice(end),
  );
}

/** An id column: its text, the digits a search found marked. */
function idColumn(
  key: 'id' | 'petId',
  label: string,
  width: string,
  text: (data: RowData) => string | undefined,
  match: (data: RowData) => readonly [number, number] | undefined,
  role: GridColumn['role'],
): GridColumn {
  return {
    key,
    label,
    width,
    role,
    numeric: true,
    className: 'numeric',
    signature: (data) => `${text(data) ?? NOTHING}\t${match(data)?.join(',') ?? ''}`,
    draw: (cell, data) => drawHighlighted(cell, text(data), match(data)),
  };
}

function textColumn(
  key: SortColumn,
  label: string,
  width: string,
  text: (data: RowData) => string | undefined,
  extra: Partial<Pick<GridColumn, 'numeric' | 'role'>> = {},
): GridColumn {
  return {
    key,
    label,
    width,
    role: extra.role ?? 'gridcell',
    ...(extra.numeric ? { numeric: true, className: 'numeric' } : {}),
    signature: (data) => text(data) ?? NOTHING,
    draw: (cell, data) => drawText(cell, text(data)),
  };
}

export const GRID_COLUMNS: readonly GridColumn[] = [
  {
    key: 'select',
    label: 'Select',
    width: 'var(--col-select)',
    role: 'gridcell',
    className: 'select-cell',
    signature: (data) => (data.id === undefined ? NOTHING : `${data.id}\t${data.ticked}`),
    draw: (cell, data) => {
      if (data.id === undefined) {
        cell.replaceChildren();
        return;
      }
      const input = soleChild(cell, 'input', '', (box) => {
        box.type = 'checkbox';
        box.tabIndex = -1;
      });
      setAttribute(input, 'aria-label', `Select order ${data.id}`);
      if (input.checked !== data.ticked) input.checked = data.ticked;
    },
  },
  idColumn(
    'id',
    'Order ID',
    'minmax(var(--col-id), 1fr)',
    (data) => data.id,
    (data) => data.idMatch,
    'rowheader',
  ),
  idColumn(
    'petId',
    'Pet ID',
    'minmax(var(--col-pet-id), 1fr)',
    (data) => data.petId,
    (data) => data.petIdMatch,
    'gridcell',
  ),
  textColumn(
    'quantity',
    'Quantity',
    'minmax(var(--col-quantity), 0.6fr)',
    (data) => (data.quantity === undefined ? undefined : String(data.quantity)),
    { numeric: true },
  ),
  {
    key: 'shipDate',
    label: 'Ship date',
    width: 'minmax(var(--col-ship-date), 1.1fr)',
    role: 'gridcell',
    signature: (data) => data.shipDate ?? NOTHING,
    draw: (cell, { shipDate }) => {
      if (shipDate === undefined) {
        cell.replaceChildren(missingElement());
        return;
      }
      const time = soleChild(cell, 'time', '');
      drawText(time, formatShortDateTime(shipDate));
      setAttribute(time, 'datetime', shipDate);
      setAttribute(time, 'title', formatDateTime(shipDate));
    },
  },
  textColumn('complete', 'Complete', 'minmax(var(--col-complete), 0.6fr)', (data) =>
    data.complete === undefined ? undefined : data.complete ? 'Yes' : 'No',
  ),
  {
    key: 'review',
    label: 'Review',
    width: 'minmax(var(--col-review), 0.5fr)',
    role: 'gridcell',
    className: 'review-cell',
    signature: ({ mark, change }) =>
      `${mark?.reviewed === true}\t${mark?.note ?? ''}\t${change ?? ''}`,
    draw: (cell, { mark, change }) => {
      // Marks, with their words for screen readers and a legend in the status bar.
      const parts: HTMLElement[] = [];
      if (mark?.reviewed) {
        const reviewed = element('span', 'review-mark', '✓');
        reviewed.setAttribute('role', 'img');
        reviewed.setAttribute('aria-label', 'Reviewed');
        reviewed.title = 'Reviewed on this computer';
        parts.push(reviewed);
      }
      if (mark?.note) {
        const note = element('span', 'note-mark', '✎');
        note.setAttribute('role', 'img');
        note.setAttribute('aria-label', 'Has a note');
        note.title = mark.note;
        parts.push(note);
      }
      if (change) {
        const chip = element(
          'span',
          `change-chip change-${change}`,
          CHANGE_MARK_WORDS[change].short,
        );
        chip.title = CHANGE_MARK_WORDS[change].full;
        parts.push(chip);
      }
      cell.replaceChildren(...parts);
    },
  },
  {
    key: 'status',
    label: 'Status',
    width: 'minmax(var(--col-status), 1fr)',
    role: 'gridcell',
    className: 'status-cell',
    signature: ({ status, id, cancelBlocked, cancelBlockedId }) =>
      status ?? (id === undefined ? NOTHING : `${id}\t${cancelBlocked ?? ''}\t${cancelBlockedId}`),
    draw: (cell, { status, id, cancelBlocked, cancelBlockedId }) => {
      // A status chip once this computer knows more than the list; until then, the way to cancel.
      // An order that may or may not be cancelled is sent again from its details (or with Delete).
      if (status) {
        const chip = soleChild(cell, 'span', `status-chip status-${status}`);
        drawText(chip, ROW_STATUS_SHORT[status]);
        setAttribute(chip, 'title', ROW_STATUS_WORDS[status]);
      } else if (id === undefined) {
        const muted = soleChild(cell, 'span', 'muted');
        drawText(muted, 'No ID to cancel');
        setAttribute(muted, 'title', undefined);
      } else {
        // The same button while the order stays: whoever holds it sees it change (blocked, then not).
        const button = soleChild(cell, 'button', 'small-button', (made) => {
          made.type = 'button';
          made.tabIndex = -1;
          made.textContent = 'Cancel…';
        });
        setAttribute(button, 'data-cancel', id);
        setAttribute(button, 'aria-label', `Cancel order ${id}`);
        setAttribute(button, 'aria-disabled', cancelBlocked ? 'true' : undefined);
        setAttribute(button, 'aria-describedby', cancelBlocked ? cancelBlockedId : undefined);
        setAttribute(button, 'title', cancelBlocked);
      }
    },
  },
];

/** The columns shown: every one but those the clerk hid (the tick box and the order id always show). */
export function gridColumns(hidden: readonly ColumnKey[]): readonly GridColumn[] {
  if (hidden.length === 0) return GRID_COLUMNS;
  return GRID_COLUMNS.filter(
    (column) => column.key === 'select' || column.key === 'id' || !hidden.includes(column.key),
  );
}

/** A column's track: the width the clerk set, else its share. */
function trackOf(column: GridColumn, widths: Partial<Record<ColumnKey, number>>): string {
  const width = widths[column.key];
  return width === undefined ? column.width : `${width}px`;
}

/** The grid's `grid-template-columns`, header and rows alike: a width the clerk set, else the column's share. */
export function columnTracks(
  columns: readonly GridColumn[],
  widths: Partial<Record<ColumnKey, number>> = {},
): string {
  return columns.map((column) => trackOf(column, widths)).join(' ');
}

/**
 * The tracks' least width in all, as CSS: a row is at least this wide, so its
 * line, hover and selection reach the last column where the window is too
 * narrow for every column (a row as wide as the window stopped short of them).
 */
export function columnsMinWidth(
  columns: readonly GridColumn[],
  widths: Partial<Record<ColumnKey, number>> = {},
): string {
  const least = columns.map((column) => {
    const track = trackOf(column, widths);
    return /^minmax\((.+), [\d.]+fr\)$/.exec(track)?.[1] ?? track;
  });
  return `calc(${least.join(' + ')})`;
}

/** What the grid's style says of its columns (set by a render, or by a column's edge as it is dragged). */
export function columnStyle(
  columns: readonly GridColumn[],
  widths: Partial<Record<ColumnKey, number>> = {},
): Record<'--orders-grid-columns' | '--orders-grid-min-width', string> {
  return {
    '--orders-grid-columns': columnTracks(columns, widths),
    '--orders-grid-min-width': columnsMinWidth(columns, widths),
  };
}
