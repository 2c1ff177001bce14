// What the Settings specs share: a Staging key that looks like a real one,
// and the window rendered with Settings open on one environment's tab.

import { screen, within } from '@testing-library/react';
import { renderApp } from '../../support/test-app.tsx';
import type { TestApp } from '../../support/test-app-shapes.ts';

export const STAGING_KEY = 'stg-Secret-7f3a9c41e2';

/** Renders the window, opens Settings and `environment`'s tab; resolves once its heading shows. */
export async function openSettings(
  app: TestApp,
  environment: 'Sandbox' | 'Staging' | 'Production' = 'Staging',
): Promise<ReturnType<typeof renderApp>> {
  const view = renderApp(app);
  await view.user.click(await screen.findByRole('button', { name: 'Settings' }));
  const nav = screen.getByRole('navigation', { name: 'Environment settings' });
  await view.user.click(within(nav).getByRole('button', { name: environment }));
  await screen.findByRole('heading', { name: `${environment} settings` });
  return view;
}
