// The grid's columns as the clerk shapes them: hidden from "Columns", resized
// from the header's edges, both kept as UI preferences (versioned, checked
// when read back) across a restart of the window; and the digits a search
// found, marked in the ids.

import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import {
  migrateUiPreferences,
  UI_PREFERENCES_KEY,
  UI_PREFERENCES_VERSION,
} from '../../../../src/renderer/src/ui-preferences.tsx';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { findGrid, text } from './orders-test-kit.tsx';

afterEach(() => localStorage.clear());

const headers = (grid: HTMLElement) =>
  within(grid)
    .getAllByRole('columnheader')
    .map((cell) => text(cell) || cell.querySelector('input')?.getAttribute('aria-label'));

describe('the columns', () => {
  test('"Columns" hides and shows them, in the header and every row; the choice outlives the window', async () => {
    const app = await startTestApp();
    const first = renderApp(app);
    let grid = await findGrid();
    expect(grid.getAttribute('aria-colcount')).toBe('8');

    await first.user.click(screen.getByRole('button', { name: 'Columns' }));
    const chooser = screen.getByRole('group', { name: 'Columns' });
    await first.user.click(within(chooser).getByRole('checkbox', { name: 'Pet ID' }));
    await first.user.click(within(chooser).getByRole('checkbox', { name: /^Review/ }));
    expect(headers(grid)).toEqual([
      'Select all shown',
      'Order ID',
      'Quantity',
      'Ship date',
      'Complete',
      'Status',
    ]);
    expect(grid.getAttribute('aria-colcount')).toBe('6');
    const row = within(grid).getAllByRole('row')[1]!;
    expect(within(row).getAllByRole('gridcell')).toHaveLength(5);
    expect(screen.getByRole('button', { name: 'Columns, 2 hidden' })).toBeTruthy();
    // Saved as a versioned UI preference.
    const saved = JSON.parse(localStorage.getItem(UI_PREFERENCES_KEY) ?? '{}') as {
      version: number;
      state: { hiddenColumns: string[] };
    };
    expect(saved.version).toBe(UI_PREFERENCES_VERSION);
    expect(saved.state.hiddenColumns).toEqual(['petId', 'review']);

    // A new window on the same page data: the same columns.
    first.unmount();
    const second = renderApp(app);
    grid = await findGrid();
    expect(grid.getAttribute('aria-colcount')).toBe('6');
    await second.user.click(screen.getByRole('button', { name: 'Columns, 2 hidden' }));
    await second.user.click(screen.getByRole('button', { name: 'Show all, at their own widths' }));
    expect(grid.getAttribute('aria-colcount')).toBe('8');
  });

  test("a column's edge resizes it from the keyboard; Enter gives it its share again", async () => {
    const app = await startTestApp();
    const { user } = renderApp(app);
    const grid = await findGrid();
    const tracks = () => grid.style.getPropertyValue('--orders-grid-columns');
    expect(tracks()).not.toMatch(/px/);

    const edge = within(grid).getByRole('separator', { name: 'Width of Quantity' });
    edge.focus();
    await user.keyboard('{Shift>}{ArrowRight}{/Shift}{ArrowRight}');
    // jsdom lays nothing out: from 0, four steps and one, at least the narrowest a column may be.
    await waitFor(() => expect(tracks()).toMatch(/ 80px /));
    expect(edge.getAttribute('aria-valuenow')).toBe('80');
    await user.keyboard('{ArrowLeft}');
    expect(tracks()).toMatch(/ 64px /);
    const saved = JSON.parse(localStorage.getItem(UI_PREFERENCES_KEY) ?? '{}') as {
      state: { columnWidths: Record<string, number> };
    };
    expect(saved.state.columnWidths).toEqual({ quantity: 64 });
    await user.keyboard('{Enter}');
    expect(tracks()).not.toMatch(/px/);
  });

  test('preferences read back are checked: unknown columns, bad widths and a later version are dropped', () => {
    expect(
      migrateUiPreferences(
        {
          hiddenColumns: ['petId', 'id', 'select', 'nonsense', 7],
          columnWidths: { quantity: 5000, petId: 'wide', id: 10, bogus: 100 },
          domainProject: 'pet-shop',
        },
        1,
      ),
    ).toEqual({
      hiddenColumns: ['petId'],
      columnWidths: { quantity: 640, id: 48 },
      domainProject: 'pet-shop',
    });
    expect(migrateUiPreferences('garbage', 0)).toEqual({ hiddenColumns: [], columnWidths: {} });
    expect(migrateUiPreferences({ hiddenColumns: ['petId'] }, 99)).toEqual({
      hiddenColumns: [],
      columnWidths: {},
    });
  });

  test('a hand-edited preference cannot break the grid', async () => {
    localStorage.setItem(
      UI_PREFERENCES_KEY,
      JSON.stringify({ version: 1, state: { hiddenColumns: 'all', columnWidths: { id: -3 } } }),
    );
    const app = await startTestApp();
    renderApp(app);
    const grid = await findGrid();
    expect(grid.getAttribute('aria-colcount')).toBe('8');
    expect(grid.style.getPropertyValue('--orders-grid-columns')).toMatch(
      /^var\(--col-select\) 48px /,
    );
  });
});

describe('search', () => {
  /** The id and pet id cells of each row in view: their text, and what is marked in them. */
  const idCells = (grid: HTMLElement) =>
    within(grid)
      .getAllByRole('row')
      .slice(1)
      .flatMap((row) => [
        within(row).getByRole('rowheader'),
        // The tick box's cell comes first, then the pet id.
        within(row).getAllByRole('gridcell')[1]!,
      ]);
  const marked = (text: string, digits: string) => {
    const at = text.indexOf(digits);
    return at < 0
      ? text
      : `${text.slice(0, at)}<mark class="search-match">${digits}</mark>${text.slice(at + digits.length)}`;
  };

  test('marks the digits it found in the ids, where it looked', async () => {
    const app = await startTestApp();
    const { user } = renderApp(app);
    const grid = await findGrid();
    const search = screen.getByRole('searchbox', { name: 'Search by order or pet ID' });
    await user.type(search, '12');
    await waitFor(() =>
      expect(grid.querySelectorAll('mark.search-match').length).toBeGreaterThan(0),
    );
    // Every id and pet id in view: the first place the digits are is marked, and nothing else.
    const cells = idCells(grid);
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) expect(cell.innerHTML).toBe(marked(text(cell), '12'));
    // Each row shown matched somewhere.
    for (const row of within(grid).getAllByRole('row').slice(1))
      expect(row.querySelector('mark.search-match'), text(row)).not.toBeNull();

    // Looking in the order ids only: the pet ids are left plain.
    await user.click(screen.getByRole('button', { name: /^Filters/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: /^Look in/ }), 'id');
    await waitFor(() => {
      for (const row of within(grid).getAllByRole('row').slice(1)) {
        const [header, petId] = [
          within(row).getByRole('rowheader'),
          within(row).getAllByRole('gridcell')[1]!,
        ];
        expect(header.innerHTML).toBe(marked(text(header), '12'));
        expect(petId.querySelector('mark')).toBeNull();
      }
    });

    // Nothing searched, nothing marked.
    await user.clear(search);
    await waitFor(() => expect(grid.querySelectorAll('mark').length).toBe(0));
  });
});
