// Whose settings Settings shows: the header's environment at first and after
// each switch there; another one's only when the clerk chooses it, and then
// the screen says plainly that the app still works in the header's one.

import { screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { text } from '../orders/orders-test-kit.tsx';

test('Settings says whose settings these are and follows the header', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('button', { name: 'Settings' }));
  await screen.findByRole('heading', { name: 'Sandbox settings' });
  expect(text(document.querySelector('.settings-whose'))).toBe(
    'The settings of Sandbox, the environment Store Admin is working in (chosen in the header).',
  );
  const tabs = screen.getByRole('navigation', { name: 'Environment settings' });
  // The tab of the environment in use says so, in words.
  expect(within(tabs).getByRole('button', { name: 'Sandbox' }).textContent).toBe(
    'Sandbox · in use',
  );

  // Another environment's settings, without working in it.
  await user.click(within(tabs).getByRole('button', { name: 'Production' }));
  await screen.findByRole('heading', { name: 'Production settings' });
  expect(text(document.querySelector('.settings-whose'))).toBe(
    'The settings of Production. Store Admin is working in Sandbox; what you set here does not switch to Production. Work in Production',
  );
  expect(document.querySelector('.app-header')?.textContent).toContain('SANDBOX — demo data');

  // A switch in the header brings that environment's settings.
  await user.click(screen.getByRole('radio', { name: 'Staging' }));
  await screen.findByRole('heading', { name: 'Staging settings' });
  expect(text(document.querySelector('.settings-whose'))).toMatch(
    /^The settings of Staging, the environment Store Admin is working in/,
  );

  // And "Work in …" switches the header to the one shown.
  await user.click(within(tabs).getByRole('button', { name: 'Sandbox' }));
  await user.click(screen.getByRole('button', { name: 'Work in Sandbox' }));
  await screen.findByText(/^The settings of Sandbox, the environment Store Admin is working in/);
  expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Sandbox' }).checked).toBe(true);
  expect(document.querySelector('.app-header')?.textContent).toContain('SANDBOX — demo data');
  expect(screen.getByRole('heading', { name: 'Sandbox settings' })).toBeTruthy();
});
