// Every other answer to a cancel, in plain words, on the real app: the order
// no longer exists (404), the service limits or bans the key (the Cancel
// buttons wait, then come back), the request never left, the answer was lost.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startExtraSandbox, startTestApp } from '../../support/test-app.tsx';
import type { TestApp, TestSandbox } from '../../support/test-app-shapes.ts';
import { findGrid, firstOrderId, rowOf, text, type User } from './orders-test-kit.tsx';

async function cancelFromRow(user: User, grid: HTMLElement, id: string) {
  await user.click(within(rowOf(grid, id)).getByRole('button', { name: `Cancel order ${id}` }));
  await user.click(
    within(screen.getByRole('dialog')).getByRole('button', { name: `Cancel order ${id}` }),
  );
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  return screen.getByRole('status', { name: 'Cancel outcome' });
}

/** Staging pointed at its own sandbox with an Enterprise key of tiny limits. */
async function stagingWithLimits(
  app: TestApp,
  limits: Parameters<typeof startExtraSandbox>[0],
): Promise<TestSandbox> {
  const staging = await startExtraSandbox({
    keys: [{ plan: 'enterprise', key: 'tiny-key' }],
    orders: 50,
    ...limits,
  });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  await app.api.keys.set('staging', 'tiny-key');
  return staging;
}

/** A request with the same key from somewhere else (another clerk, a script). */
function elsewhere(sandbox: TestSandbox, key: string, method = 'GET', path = '/store/orders') {
  return fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}` },
  });
}

test('an order cancelled elsewhere meanwhile: 404, said plainly, and the row marked as gone', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const grid = await findGrid();
  const id = firstOrderId(app.sandbox, 'pending');
  // Cancelled once from somewhere else; this list still shows it.
  expect((await elsewhere(app.sandbox, 'demo-pro', 'DELETE', `/store/orders/${id}`)).status).toBe(
    204,
  );

  const outcome = await cancelFromRow(user, grid, id);

  await waitFor(() =>
    expect(outcome.textContent).toMatch(
      new RegExp(
        `^Sandbox: Order ${id} was not found, so there was nothing to cancel\\. (The service said: “.*” )?The list marks it as no longer existing\\.$`,
      ),
    ),
  );
  expect(outcome.textContent).not.toContain('was cancelled');
  expect(within(rowOf(grid, id)).getByText('No longer exists')).toBeTruthy();
  expect(within(rowOf(grid, id)).queryByRole('button')).toBeNull();
});

test('rate-limited (429): the outcome says until when, and the Cancel buttons wait', async () => {
  const app = await startTestApp();
  // Two requests a day: the automatic refresh takes one, another client the other.
  const staging = await stagingWithLimits(app, {
    enterpriseLimits: { perMinute: 1000, perDay: 2 },
  });
  const { user } = renderApp(app);
  await findGrid();
  await user.click(screen.getByRole('radio', { name: 'Staging' }));
  const grid = await findGrid('Staging');
  expect((await elsewhere(staging, 'tiny-key')).status).toBe(200);
  const id = firstOrderId(staging, 'pending');
  const other = staging.orderIds({ status: 'pending', limit: 2 })[1]!;

  const outcome = await cancelFromRow(user, grid, id);

  await waitFor(() => expect(outcome.textContent).toMatch(/Rate-limited until (\d\d:\d\d:\d\d)/));
  const until = /Rate-limited until (\d\d:\d\d:\d\d)/.exec(outcome.textContent!)![1]!;
  expect(outcome.textContent).toContain(`Order ${id} was not cancelled.`);
  expect(outcome.textContent).toContain(`The Cancel buttons come back at ${until}.`);
  expect(staging.orderStatus(id)).toBe('pending');
  expect(staging.requestLog.filter((r) => r.method === 'DELETE').map((r) => r.status)).toEqual([
    429,
  ]);
  // Every Cancel button waits, saying until when; pressing one sends nothing.
  const button = within(rowOf(grid, other)).getByRole('button', { name: `Cancel order ${other}` });
  expect(button.getAttribute('aria-disabled')).toBe('true');
  expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(
    `Cancelling is paused until ${until}: the service rate-limited this API key. The Cancel buttons come back then.`,
  );
  await user.click(button);
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(text(document.querySelector('.refresh-line'))).toContain(`Automatic refresh waits until`);
});

test('a banned key: said plainly, and the Cancel buttons come back when the ban ends', async () => {
  const app = await startTestApp();
  const staging = await stagingWithLimits(app, {
    enterpriseLimits: { perMinute: 3, perDay: 1000 },
    banAfter: 1,
    banMs: 2500,
  });
  const { user } = renderApp(app);
  await findGrid();
  await user.click(screen.getByRole('radio', { name: 'Staging' }));
  const grid = await findGrid('Staging');
  // Another client ignores the limit until the service bans the key.
  for (let tries = 0; tries < 10; tries++) {
    const answer = await elsewhere(staging, 'tiny-key');
    const body = answer.status === 429 ? ((await answer.json()) as { code?: string }) : undefined;
    if (body?.code === 'api_key_banned') break;
  }
  const id = firstOrderId(staging, 'pending');

  const outcome = await cancelFromRow(user, grid, id);

  await waitFor(() =>
    expect(outcome.textContent).toContain('The service has temporarily banned this API key'),
  );
  expect(outcome.textContent).toContain(`Order ${id} was not cancelled.`);
  expect(outcome.textContent).toMatch(/The Cancel buttons come back at \d\d:\d\d:\d\d\.$/);
  const button = within(rowOf(grid, id)).getByRole('button', { name: `Cancel order ${id}` });
  expect(button.getAttribute('aria-disabled')).toBe('true');
  expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toMatch(
    /^Cancelling is paused until \d\d:\d\d:\d\d: the service has temporarily banned this API key\.$/,
  );

  // When the ban ends, the button works again, by itself.
  await waitFor(() => expect(button.getAttribute('aria-disabled')).toBeNull(), { timeout: 6000 });
  await user.click(button);
  expect(screen.getByRole('dialog', { name: `Cancel order ${id}?` })).toBeTruthy();
});

test('the service cannot be reached: the cancel was not sent, and cancelling is off until it answers', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const grid = await findGrid();
  const id = firstOrderId(app.sandbox, 'pending');
  await app.sandbox.close();

  const outcome = await cancelFromRow(user, grid, id);

  await waitFor(() =>
    expect(outcome.textContent).toMatch(
      new RegExp(
        `^Sandbox: Order ${id} was not cancelled: the request was not sent\\. Could not reach the store service at 127\\.0\\.0\\.1:\\d+: the connection was refused\\.$`,
      ),
    ),
  );
  const offline = screen.getByRole('status', { name: 'Offline review' });
  await waitFor(() => expect(text(offline)).toMatch(/^Offline review: Sandbox cannot be reached/));
  const button = within(rowOf(grid, id)).getByRole('button', { name: `Cancel order ${id}` });
  expect(button.getAttribute('aria-disabled')).toBe('true');
});

test('a lost answer: it may or may not have been cancelled, so the row says to check', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const grid = await findGrid();
  const id = firstOrderId(app.sandbox, 'pending');
  // The service acts, then the connection drops before the answer.
  app.sandbox.setFaults('reset@1');

  const outcome = await cancelFromRow(user, grid, id);

  await waitFor(() =>
    expect(outcome.textContent).toContain(
      `Order ${id} may or may not have been cancelled: the answer was lost. Refresh the list to check.`,
    ),
  );
  expect(outcome.textContent).not.toContain('was cancelled.');
  expect(within(rowOf(grid, id)).getByText('May be cancelled').getAttribute('title')).toBe(
    'May have been cancelled — refresh to check',
  );
  expect(app.sandbox.orderStatus(id)).toBe('cancelled');
});

test('a key the service refuses (401) on cancel: not cancelled, and the way to that environment’s key settings', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox({
    keys: [{ plan: 'pro', key: 'right-key' }],
    orders: 50,
  });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  await app.api.keys.set('staging', 'right-key');
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('radio', { name: 'Staging' }));
  const grid = await findGrid('Staging');
  // The key is replaced (say, on another screen) by one the service does not know.
  await app.api.keys.set('staging', 'revoked-key');
  const id = firstOrderId(staging, 'pending');

  const outcome = await cancelFromRow(user, grid, id);

  await waitFor(() => expect(outcome.textContent).toContain('(401)'));
  expect(outcome.textContent).toContain(`Order ${id} was not cancelled.`);
  expect(staging.orderStatus(id)).toBe('pending');
  await user.click(within(outcome).getByRole('button', { name: 'Open Staging settings' }));
  expect(document.activeElement).toBe(
    await screen.findByRole('heading', { name: 'Staging settings' }),
  );
  expect(screen.getByLabelText('Staging API key')).toBeTruthy();
});
