// A data folder that takes nothing (here a full disk, through main's file
// layer) is one notice naming the folder, the code behind Details, while the
// list stays on screen from memory; it goes once a save gets through again.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';

test('a full disk: one alert naming the folder, ENOSPC behind Details, the refreshed list shown; gone once saving works', async () => {
  const app = await startTestApp({ sandbox: { orders: 30 } });
  const { user } = renderApp(app);
  const grid = await screen.findByRole('grid', { name: 'Sandbox orders' });
  await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('31'));

  app.disk.fail('ENOSPC');
  await user.click(await screen.findByRole('button', { name: 'Refresh' }));

  const alert = await screen.findByRole('alert');
  expect(screen.getAllByRole('alert')).toEqual([alert]);
  expect(within(alert).getByText('Not saving.')).toBeTruthy();
  const sentence = alert.querySelector('.notice-text')!.textContent;
  expect(sentence).toContain(
    `cannot save to its data folder ${app.dataDir} because the disk is full`,
  );
  expect(sentence).not.toContain('ENOSPC');
  expect(alert.querySelector('details')!.textContent).toContain('ENOSPC');
  // The refreshed list is on screen all the same (from memory).
  expect(screen.getByRole('grid', { name: 'Sandbox orders' }).getAttribute('aria-rowcount')).toBe(
    '31',
  );

  // Another refresh meets the same full disk: still one alert.
  await user.click(await screen.findByRole('button', { name: 'Refresh' }));
  await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(1));

  app.disk.fail(undefined);
  await user.click(await screen.findByRole('button', { name: 'Refresh' }));
  await waitFor(() => expect(screen.queryAllByRole('alert')).toHaveLength(0));
});
