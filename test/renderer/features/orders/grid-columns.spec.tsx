// The grid's columns as the clerk shapes them: hidden from "Columns", resized
// from the header's edges, both kept as UI preferences (versioned, checked
// when read back) across a restart of the window.

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
