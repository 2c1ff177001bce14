// A column's right edge in the grid's header, which resizes it: dragged with
// the pointer (the columns follow as it moves, written straight to the grid's
// tracks, and the width is kept when it is let go), or with the arrow keys on
// the focused edge (a window splitter). Double-click or Enter gives the column
// its share of the room again. Widths are UI preferences, kept across starts.

import { useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import {
  COLUMN_WIDTH_BOUNDS,
  useUiPreferences,
  type ResizableColumn,
} from '../../ui-preferences.tsx';
import { columnStyle, type ColumnKey, type GridColumn } from './table/order-cells.ts';

/** How far one arrow key moves the edge, in CSS pixels (with Shift, four times). */
const KEY_STEP = 16;

export function ColumnResizer({
  column,
  columns,
  widths,
  gridRef,
}: {
  column: GridColumn;
  columns: readonly GridColumn[];
  widths: Partial<Record<ColumnKey, number>>;
  gridRef: RefObject<HTMLDivElement | null>;
}) {
  const setColumnWidth = useUiPreferences((state) => state.setColumnWidth);
  const key = column.key as ResizableColumn;
  const set = widths[key];
  const handleRef = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; width: number; last: number } | undefined>(undefined);
  // The width on screen when it takes its share, read when the edge is focused (not at every render).
  const [measured, setMeasured] = useState<number | undefined>();
  const shown = set ?? measured;

  const measure = () =>
    Math.round(handleRef.current?.parentElement?.getBoundingClientRect().width ?? 0);

  const clamp = (width: number) =>
    Math.round(Math.min(COLUMN_WIDTH_BOUNDS.max, Math.max(COLUMN_WIDTH_BOUNDS.min, width)));
  /** The tracks with this column at `width`, written to the grid without a render. */
  const preview = (width: number | undefined) => {
    const style = gridRef.current?.style;
    for (const [name, value] of Object.entries(columnStyle(columns, { ...widths, [key]: width })))
      style?.setProperty(name, value);
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    const width = set ?? measure();
    drag.current = { x: event.clientX, width, last: width };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    start.last = clamp(start.width + event.clientX - start.x);
    preview(start.last);
  };
  const onPointerUp = () => {
    const start = drag.current;
    drag.current = undefined;
    if (start && start.last !== start.width) setColumnWidth(key, start.last);
  };
  const onPointerCancel = () => {
    drag.current = undefined;
    preview(set);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? KEY_STEP * 4 : KEY_STEP;
    const from = set ?? measure();
    if (event.key === 'ArrowRight') setColumnWidth(key, from + step);
    else if (event.key === 'ArrowLeft') setColumnWidth(key, from - step);
    else if (event.key === 'Enter' || event.key === 'Delete') setColumnWidth(key, undefined);
    else return;
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    // A focusable separator is ARIA's window splitter, a widget the rules take for static.
    // eslint-disable-next-line jsx-a11y-x/no-noninteractive-element-interactions
    <div
      ref={handleRef}
      role="separator"
      aria-orientation="vertical"
      aria-label={`Width of ${column.label}`}
      aria-valuenow={shown ?? COLUMN_WIDTH_BOUNDS.min}
      aria-valuemin={COLUMN_WIDTH_BOUNDS.min}
      aria-valuemax={COLUMN_WIDTH_BOUNDS.max}
      aria-valuetext={`${shown ?? '?'} pixels${set === undefined ? ', its share of the room' : ''}`}
      title="Drag to resize; double-click for its share of the room"
      // eslint-disable-next-line jsx-a11y-x/no-noninteractive-tabindex -- a window splitter takes the focus
      tabIndex={0}
      className="column-resizer"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
      onDoubleClick={() => setColumnWidth(key, undefined)}
      onFocus={() => setMeasured(measure())}
      onKeyDown={onKeyDown}
    />
  );
}
