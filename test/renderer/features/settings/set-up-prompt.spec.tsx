// An environment that is not set up: its Orders screen offers the way to set
// it up where the orders would be, says nothing was paused (nothing ran), and
// its empty cancel log says so once.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';

test('the empty Orders screen of Staging has a "Set up Staging" button that opens its settings', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));

  const placeholder = await screen.findByText('Staging is not set up yet.');
  const empty = placeholder.closest<HTMLElement>('.orders-placeholder')!;
  await user.click(within(empty).getByRole('button', { name: 'Set up Staging' }));

  const heading = await screen.findByRole('heading', { name: 'Staging settings' });
  expect(document.activeElement).toBe(heading);
});

test('the way to set it up is offered once: where the orders would be, and by the notice elsewhere', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));
  await screen.findByText('Staging is not set up yet.');
  expect(screen.getAllByRole('button', { name: 'Set up Staging' })).toHaveLength(1);
  expect(document.querySelector('[data-notice="set-up"]')).toBeNull();

  await user.click(
    within(screen.getByRole('navigation', { name: 'Screens' })).getByRole('button', {
      name: 'Domains',
    }),
  );
  await waitFor(() => expect(document.querySelector('[data-notice="set-up"]')).not.toBeNull());
  expect(screen.getAllByRole('button', { name: 'Set up Staging' })).toHaveLength(1);
});

test('the empty state works on Production too, and opens Production’s settings', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: /^Production/ }));

  const placeholder = await screen.findByText('Production is not set up yet.');
  const empty = placeholder.closest<HTMLElement>('.orders-placeholder')!;
  await user.click(within(empty).getByRole('button', { name: 'Set up Production' }));
  expect(await screen.findByRole('heading', { name: 'Production settings' })).toBeTruthy();
});

test('nothing ran, so nothing is said to be paused', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));
  await screen.findByText('Staging is not set up yet.');

  expect(document.querySelector('.refresh-line')?.textContent ?? '').toBe('');
  expect(screen.queryByText(/Automatic refresh paused/)).toBeNull();
});

test('an empty cancel log says once that nothing was sent', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));
  await screen.findByText('Staging is not set up yet.');

  await user.click(screen.getByRole('button', { name: 'Cancel log' }));
  const log = await screen.findByRole('complementary', { name: 'Cancel log — Staging' });
  expect(
    within(log).getByText('No cancels have been sent to Staging from this computer.'),
  ).toBeTruthy();
  expect(log.textContent).not.toMatch(/0 cancels/);
});
