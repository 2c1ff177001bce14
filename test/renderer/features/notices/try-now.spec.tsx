// "Try now" on a hold: the notice offers it only when the window is given the
// way to (the noticeActions prop: window.storeAdmin.quota.tryNow once main has
// it), and calls it for the environment on show, then reads the quota again.

import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import { App } from '../../../../src/renderer/src/App.tsx';
import type { EnvironmentId } from '../../../../src/shared/environments.ts';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { freeStaging, rawRequestsUntil, theAlert } from '../quota/quota-kit.tsx';

async function heldStaging(withTryNow: boolean) {
  const app = await startTestApp();
  const tryNow = vi.fn(async (_environment: EnvironmentId) => undefined);
  const user = userEvent.setup({ delay: null });
  if (withTryNow) {
    window.storeAdmin = app.api;
    render(<App api={app.api} noticeActions={{ tryNow }} />);
  } else {
    renderApp(app);
  }
  const staging = await freeStaging(app);
  await user.click(await screen.findByRole('button', { name: 'Settings' }));
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));
  // Another client uses up the key's quota; Store Admin's next request gets 429.
  await rawRequestsUntil(staging, (answer) => answer.status === 429);
  expect((await app.api.orders.list('staging')).ok).toBe(false);
  const alert = await waitFor(theAlert);
  expect(within(alert).getByText(/Requests to Staging are paused until/)).toBeTruthy();
  return { app, user, alert, tryNow };
}

test('with the way to try now, the hold’s notice offers it and calls it for that environment', async () => {
  const { user, alert, tryNow } = await heldStaging(true);
  await user.click(within(alert).getByRole('button', { name: 'Try now' }));
  expect(tryNow).toHaveBeenCalledWith('staging');
});

test('without it, the notice offers no action it cannot take', async () => {
  const { alert } = await heldStaging(false);
  expect(within(alert).queryByRole('button', { name: 'Try now' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Try now' })).toBeNull();
});
