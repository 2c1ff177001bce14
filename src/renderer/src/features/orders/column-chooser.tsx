// "Columns" in the orders toolbar: which of the grid's columns are shown (the
// tick box and the order id always are) and a way back to the widths the
// grid gives by itself. Hiding what is not needed leaves room for the rest in
// a narrow or zoomed window; the choice is a UI preference, kept across starts.

import { Popover } from '../../components/popover.tsx';
import { OPTIONAL_COLUMNS, useUiPreferences } from '../../ui-preferences.tsx';
import { GRID_COLUMNS } from './table/order-cells.ts';

const LABELS = new Map(GRID_COLUMNS.map((column) => [column.key, column.label]));

export function ColumnChooser() {
  const hidden = useUiPreferences((state) => state.hiddenColumns);
  const widths = useUiPreferences((state) => state.columnWidths);
  const setShown = useUiPreferences((state) => state.setColumnShown);
  const reset = useUiPreferences((state) => state.resetColumns);
  const changed = hidden.length > 0 || Object.keys(widths).length > 0;
  return (
    <Popover
      label="Columns"
      button={
        <>
          Columns
          {hidden.length > 0 && <span className="count-badge"> {hidden.length} hidden</span>}
        </>
      }
      {...(hidden.length > 0 ? { buttonName: `Columns, ${hidden.length} hidden` } : {})}
      className="column-chooser"
      panelClassName="column-chooser-panel"
    >
      <fieldset>
        <legend>Columns shown</legend>
        {OPTIONAL_COLUMNS.map((key) => (
          <label key={key} className="checkbox">
            <input
              type="checkbox"
              checked={!hidden.includes(key)}
              onChange={(event) => setShown(key, event.target.checked)}
            />
            {LABELS.get(key)}
            {key === 'status' && <span className="muted"> (with Cancel)</span>}
          </label>
        ))}
      </fieldset>
      <p className="hint">
        The order ID always shows. Drag a column’s edge in the header to resize it, or focus the
        edge and use the arrow keys.
      </p>
      <button
        type="button"
        aria-disabled={!changed || undefined}
        onClick={() => changed && reset()}
      >
        Show all, at their own widths
      </button>
    </Popover>
  );
}
