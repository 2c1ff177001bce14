// "Try now" on a hold: the notice offers it only when the window is given the
// way to (the noticeActions prop: window.storeAdmin.quota.tryNow, as main.tsx
// wires it), asks first, then sends exactly one request for the environment
// on show and says what came of it once, where the notice is.

import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import { App } from '../../../../src/renderer/src/App.tsx';
import { renderApp, startGatewayLimit, startTestApp } from '../../support/test-app.tsx';
import { text } from '../orders/orders-test-kit.tsx';
import { freeStaging, notices, rawRequestsUntil, theAlert } from '../quota/quota-kit.tsx';

async function heldStaging(withTryNow: boolean) {
  const app = await startTestApp();
  const tryNow = vi.fn(app.api.quota.tryNow);
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
  return { app, user, alert, tryNow, staging };
}

test('the hold’s notice asks first; keeping the wait sends nothing, sending sends one request for that environment', async () => {
  const { user, alert, tryNow, staging } = await heldStaging(true);
  const sent = () => staging.requestLog.length;
  const before = sent();

  await user.click(within(alert).getByRole('button', { name: 'Try now…' }));
  const dialog = screen.getByRole('dialog', { name: 'Send one request now?' });
  // The hold as the notice says it, and why a try is not free.
  expect(
    // The time alone today; with its date when the hold ends tomorrow (the suite run before midnight).
    within(dialog).getByText(
      /Requests to Staging are paused until (\d+ \w+( \d{4})?, )?\d\d:\d\d:\d\d/,
    ),
  ).toBeTruthy();
  expect(within(dialog).getByText(/repeated tries can get the key banned/)).toBeTruthy();
  // The safe choice has the focus.
  expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep waiting' }));
  await user.click(within(dialog).getByRole('button', { name: 'Keep waiting' }));
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(tryNow).not.toHaveBeenCalled();
  expect(sent()).toBe(before);

  await user.click(within(theAlert()).getByRole('button', { name: 'Try now…' }));
  await user.click(screen.getByRole('button', { name: 'Send one request' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(tryNow).toHaveBeenCalledTimes(1);
  expect(tryNow).toHaveBeenCalledWith('staging');
  expect(sent()).toBe(before + 1);
  // The quota is still used up: the service refuses again, said once beside the notice that stays.
  const outcome = within(notices()).getByRole('status', { name: 'Try now' });
  await waitFor(() =>
    expect(outcome.textContent).toBe(
      'The service refused the request again; Store Admin waits until the time the notice gives.',
    ),
  );
  expect(theAlert()).toBeTruthy();
  expect(screen.getAllByRole('status', { name: 'Try now' })).toHaveLength(1);
});

test('without it, the notice offers no action it cannot take', async () => {
  const { alert } = await heldStaging(false);
  expect(within(alert).queryByRole('button', { name: /Try now/ })).toBeNull();
  expect(screen.queryByRole('button', { name: /Try now/ })).toBeNull();
});

test('behind a gateway’s own limit, the dialog warns of no ban: a gateway has no key to ban', async () => {
  // Something between this computer and the service (nginx's limit_req) answers every request
  // with its own 429 page, as a real one does.
  const gateway = await startGatewayLimit();
  const app = await startTestApp();
  const tryNow = vi.fn(app.api.quota.tryNow);
  const user = userEvent.setup({ delay: null });
  window.storeAdmin = app.api;
  render(<App api={app.api} noticeActions={{ tryNow }} />);
  expect((await app.api.environments.setBaseUrl('staging', gateway.baseUrl)).ok).toBe(true);
  expect((await app.api.keys.set('staging', 'stg-key')).ok).toBe(true);
  await user.click(await screen.findByRole('button', { name: 'Settings' }));
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));
  expect((await app.api.orders.list('staging')).ok).toBe(false);
  const alert = await waitFor(theAlert);
  expect(
    within(alert).getByText(
      /Requests to Staging are paused until .*A gateway between this computer and the store service is limiting requests\./,
    ),
  ).toBeTruthy();

  await user.click(within(alert).getByRole('button', { name: 'Try now…' }));
  const dialog = screen.getByRole('dialog', { name: 'Send one request now?' });
  expect(text(dialog)).not.toMatch(/ban/i);
  expect(
    within(dialog).getByText(
      'Store Admin will send one request to check. If the gateway still refuses it, Store Admin waits again.',
    ),
  ).toBeTruthy();
  await user.click(within(dialog).getByRole('button', { name: 'Send one request' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(tryNow).toHaveBeenCalledTimes(1);
  const outcome = within(notices()).getByRole('status', { name: 'Try now' });
  await waitFor(() =>
    expect(outcome.textContent).toBe(
      'The request was refused again; Store Admin waits until the time the notice gives.',
    ),
  );
});
