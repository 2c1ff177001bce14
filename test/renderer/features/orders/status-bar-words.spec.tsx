// The status bar's small words: the legend names ✓ and ✎ and stays that short
// when a refresh brings New and Changed badges (the line above the list says
// what changed since when, each badge on hover), and the zone it gives times
// in is the one the ship-date filter names for its days (they read "times in
// UTC" and "local days").

import { screen, waitFor } from '@testing-library/react';
import { expect, test } from 'vitest';
import { timeZoneName } from '../../../../src/renderer/src/format.ts';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { findGrid, openFilters, text } from './orders-test-kit.tsx';

const STEP_MS = 60_000;

test('the legend stays short when a refresh brings changes (the line above the list says them), and the filter names the legend’s zone', async () => {
  let shift = 0;
  const app = await startTestApp({
    sandbox: { orders: 300, churnEveryMs: STEP_MS, now: () => Date.now() + shift },
  });
  const { user } = renderApp(app);
  await findGrid();
  const legend = () => text(document.querySelector('.review-legend'));
  const zone = timeZoneName(Date.now());
  expect(legend()).toBe(`✓ reviewed · ✎ has a note · times in ${zone}`);

  shift += STEP_MS;
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  // The chips are explained by the changes line above the list (and each on hover), not by a
  // longer legend, which cut the refresh line off at 1100 to 1300 px.
  await waitFor(() =>
    expect(text(screen.getByRole('status', { name: 'Changes since the last refresh' }))).toMatch(
      /new, .* changed since/,
    ),
  );
  expect(legend()).toBe(`✓ reviewed · ✎ has a note · times in ${zone}`);

  const filters = await openFilters(user);
  expect(text(filters.querySelector('legend'))).toBe(`Ship date (days in ${zone})`);
});
