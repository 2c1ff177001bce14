import { describe, expect, it } from 'vitest';
import {
  columnsMinWidth,
  columnTracks,
  gridColumns,
} from '../../../../../src/renderer/src/features/orders/table/order-cells.ts';

describe('the grid columns as CSS', () => {
  it('gives each column its share, or the width the clerk set', () => {
    const tracks = columnTracks(gridColumns([]), { status: 200 });
    expect(tracks).toContain(' minmax(var(--col-ship-date), 1.1fr) ');
    expect(tracks).toMatch(/ 200px$/);
  });

  it('adds up the least width of the columns shown, a set width being its own', () => {
    expect(columnsMinWidth(gridColumns(['petId', 'quantity', 'complete', 'review']))).toBe(
      'calc(var(--col-select) + var(--col-id) + var(--col-ship-date) + var(--col-status))',
    );
    expect(
      columnsMinWidth(gridColumns(['petId', 'quantity', 'complete', 'review']), { id: 90 }),
    ).toBe('calc(var(--col-select) + 90px + var(--col-ship-date) + var(--col-status))');
  });
});
