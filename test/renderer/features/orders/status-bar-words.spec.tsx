// The status bar's small words: the legend explains the Review column's New
// and Changed badges while any show (it named only ✓ and ✎), and the zone it
// gives times in is the one the ship-date filter names for its days (they
// read "times in UTC" and "local days").

import { screen, waitFor } from '@testing-library/react';
import { expect, test } from 'vitest';
import { timeZoneName } from '../../../../src/renderer/src/format.ts';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { findGrid, openFilters, text } from './orders-test-kit.tsx';

const STEP_MS = 60_000;

test('the legend explains New and Changed once a refresh brought some, and the filter names the legend’s zone', async () => {
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
  await waitFor(() =>
    expect(legend()).toBe(
      `✓ reviewed · ✎ has a note · New, Changed since the last refresh · times in ${zone}`,
    ),
  );

  const filters = await openFilters(user);
  expect(text(filters.querySelector('legend'))).toBe(`Ship date (days in ${zone})`);
});
