// Every other answer to a cancel, in plain words, on the real app: the order
// no longer exists (404), the service limits or bans the key (the Cancel
// buttons wait, then come back), the request never left, the answer was lost.
// The outcome is one short message; a condition behind it (a hold, a ban, no
// connection, a refused key) is one alert in the notice area, with the gate's
// real time wherever a time is given.

import { act, screen, waitFor, within } from '@testing-library/react';
import { expect, onTestFinished, test, vi } from 'vitest';
import { renderApp, startExtraSandbox, startTestApp } from '../../support/test-app.tsx';
import type { TestApp, TestSandbox } from '../../support/test-app-shapes.ts';
import { formatClock } from '../../../../src/renderer/src/format.ts';
import { formatMomentWithSeconds } from '../../../../src/shared/display-format.ts';
import { findGrid, firstOrderId, rowOf, text, type User } from './orders-test-kit.tsx';

/** The sandbox's ban, on the test's clock. */
const BAN_MS = 10 * 60_000;

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

/** The one alert on screen (the test fails if there are more). */
function theAlert(): HTMLElement {
  const alerts = screen.getAllByRole('alert');
  expect(alerts.map((alert) => text(alert))).toHaveLength(1);
  return alerts[0]!;
}

/** Every "until HH:MM:SS" the window shows, with the day when it names one. */
function untilTimes(): string[] {
  return [
    ...(document.body.textContent ?? '').matchAll(/until ((?:[\w ]+, )?\d\d:\d\d:\d\d)/g),
  ].map((match) => match[1]!);
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
        `^Sandbox: Order ${id} no longer exists: it was in the list of \\d\\d:\\d\\d and has been cancelled or removed since \\(perhaps by this very cancel, if the network sent it twice\\)\\. The list marks it as gone\\.$`,
      ),
    ),
  );
  expect(outcome.textContent).not.toContain('was cancelled');
  // The service's words add nothing to a 404: they stay in the cancel log. No alert either.
  expect(outcome.textContent).not.toContain('The service said');
  expect(screen.queryAllByRole('alert')).toHaveLength(0);
  expect(within(rowOf(grid, id)).getByText('Gone')).toBeTruthy();
  expect(within(rowOf(grid, id)).queryByRole('button')).toBeNull();
});

test('rate-limited (429): one alert says until when (the gate’s time), the outcome says not cancelled, and the Cancel buttons wait', async () => {
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

  await waitFor(() =>
    expect(text(outcome)).toBe(
      `Staging: Order ${id} was not cancelled: requests to Staging are paused.`,
    ),
  );
  const quota = await app.api.quota.get('staging');
  // The day is named when the hold ends on another one (the sandbox's day ends at midnight UTC);
  // the countdown is m:ss in the last hour before it.
  const until = formatMomentWithSeconds(quota.ok ? quota.value.holdUntil! : 0, Date.now());
  const alert = await waitFor(theAlert);
  expect(text(alert.querySelector('.notice-text'))).toMatch(
    new RegExp(
      `^Requests paused\\. Requests to Staging are paused until ${until}\\. The service asked Store Admin to slow down\\. \\(in \\d+(:\\d\\d){1,2}\\)$`,
    ),
  );
  expect(alert.querySelector('details')?.textContent).toContain('HTTP 429');
  expect(staging.orderStatus(id)).toBe('pending');
  expect(staging.requestLog.filter((r) => r.method === 'DELETE').map((r) => r.status)).toEqual([
    429,
  ]);
  // Every Cancel button waits, saying until when; pressing one sends nothing.
  const button = within(rowOf(grid, other)).getByRole('button', { name: `Cancel order ${other}` });
  expect(button.getAttribute('aria-disabled')).toBe('true');
  expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(
    `Cancelling waits until ${until}: requests to Staging are paused.`,
  );
  await user.click(button);
  expect(screen.queryByRole('dialog')).toBeNull();
  // Every time the window gives for the hold is the gate's.
  expect(new Set(untilTimes())).toEqual(new Set([until]));
});

test('a banned key: one alert with the ban’s end (the gate’s time), and the Cancel buttons come back when it ends', async () => {
  // One clock for the window, main and both sandboxes, which the test moves on past the
  // ban's end: it keeps real time's pace until then, so requests and timeouts behave.
  vi.useFakeTimers({
    shouldAdvanceTime: true,
    toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
  });
  onTestFinished(() => void vi.useRealTimers());
  const app = await startTestApp();
  const staging = await stagingWithLimits(app, {
    enterpriseLimits: { perMinute: 3, perDay: 1000 },
    banAfter: 1,
    // Ten minutes of the clock: however slow the machine, the window is checked while the
    // ban holds, and only the test moves the clock past its end.
    banMs: BAN_MS,
    now: () => Date.now(),
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
    expect(text(outcome)).toBe(
      `Staging: Order ${id} was not cancelled: the Staging API key is banned for a while.`,
    ),
  );
  const quota = await app.api.quota.get('staging');
  const until = formatMomentWithSeconds(quota.ok ? quota.value.holdUntil! : 0, Date.now());
  const alert = theAlert();
  expect(text(alert.querySelector('.notice-text'))).toContain(
    `Key banned. The service has banned the Staging API key until ${until}.`,
  );
  expect(alert.querySelector('details')?.textContent).toContain('api_key_banned');
  const button = within(rowOf(grid, id)).getByRole('button', { name: `Cancel order ${id}` });
  expect(button.getAttribute('aria-disabled')).toBe('true');
  expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(
    `Cancelling waits until ${until}: the API key is banned.`,
  );
  // No line of the window gives another time (the next automatic refresh, say) as the
  // end of the ban.
  expect(new Set(untilTimes())).toEqual(new Set([until]));

  // When the ban ends, the alert goes and the button works again, by itself.
  const holdUntil = quota.ok ? quota.value.holdUntil! : 0;
  await act(() => vi.advanceTimersByTimeAsync(holdUntil - Date.now() - 2000));
  expect(button.getAttribute('aria-disabled')).toBe('true');
  await act(() => vi.advanceTimersByTimeAsync(3000));
  await waitFor(() => expect(button.getAttribute('aria-disabled')).toBeNull());
  await waitFor(() => expect(screen.queryAllByRole('alert')).toHaveLength(0));
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
    expect(text(outcome)).toBe(
      `Sandbox: Order ${id} was not cancelled: the request never reached Sandbox, as the connection failed before anything was sent. It is safe to try again once Sandbox answers.`,
    ),
  );
  // One alert: offline review of the list on screen, the reason behind Details, and Retry.
  const alert = await waitFor(theAlert);
  expect(text(alert.querySelector('.notice-text'))).toMatch(
    /^Offline review\. Sandbox cannot be reached, so the list shown is the last one saved\./,
  );
  expect(alert.querySelector('details')?.textContent).toContain('the connection was refused');
  expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy();
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
      `Order ${id} may or may not have been cancelled: the request was sent, but the connection ended before Sandbox answered. Refresh the list to check: if order ${id} is still in it, cancel it again.`,
    ),
  );
  expect(outcome.textContent).not.toContain('was cancelled.');
  expect(within(rowOf(grid, id)).getByText('May be cancelled').getAttribute('title')).toBe(
    'May have been cancelled — refresh to check',
  );
  expect(app.sandbox.orderStatus(id)).toBe('cancelled');
});

test('gone: the first answer was lost and the retry met 404, so it may or may not have been this cancel; said once, the row marked as gone', async () => {
  // The cancel is held up, then done and its answer dropped; the faults end with it, so the
  // client's retry meets the 404 of an order that is no longer there.
  const held: { sandbox?: TestSandbox } = {};
  const app = await startTestApp({
    sandbox: { sleep: async () => held.sandbox?.setFaults(undefined) },
  });
  held.sandbox = app.sandbox;
  const { user } = renderApp(app);
  const grid = await findGrid();
  const id = firstOrderId(app.sandbox, 'pending');
  app.sandbox.setFaults('latency=1@1,reset@1');

  const outcome = await cancelFromRow(user, grid, id);

  await waitFor(() =>
    expect(text(outcome)).toBe(
      `Sandbox: Order ${id} is gone: the first try was sent, but the connection ended before the store service at ${new URL(app.sandbox.baseUrl).host} answered, so this cancel may or may not have removed it. The list marks it as gone.`,
    ),
  );
  expect(app.sandbox.requestLog.filter((r) => r.method === 'DELETE').map((r) => r.status)).toEqual([
    204, 404,
  ]);
  expect(screen.queryAllByRole('alert')).toHaveLength(0);
  expect(within(rowOf(grid, id)).getByText('Gone')).toBeTruthy();
  expect(within(rowOf(grid, id)).queryByRole('button')).toBeNull();
});

test('already cancelled from this computer: the 404 says when, and the row says cancelled, not gone', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const grid = await findGrid();
  const id = firstOrderId(app.sandbox, 'pending');
  // Cancelled through main (as a bulk cancel or another window would): the window has not heard.
  const first = await app.api.orders.cancel('sandbox', id);
  expect(first.ok && first.value.kind).toBe('cancelled');
  const log = await app.api.cancelLog.list('sandbox');
  const at = formatClock(log.ok ? log.value.at(-1)!.at : 0).slice(0, 5);

  const outcome = await cancelFromRow(user, grid, id);

  await waitFor(() =>
    expect(text(outcome)).toBe(
      `Sandbox: Order ${id} was already cancelled at ${at}, so there was nothing left to cancel. The list shows it as cancelled.`,
    ),
  );
  expect(text(outcome)).not.toContain('no longer');
  expect(within(rowOf(grid, id)).getByText('Cancelled')).toBeTruthy();
  expect(within(rowOf(grid, id)).queryByText('Gone')).toBeNull();
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

  await waitFor(() =>
    expect(text(outcome)).toBe(
      `Staging: Order ${id} was not cancelled: the service did not accept the Staging API key.`,
    ),
  );
  expect(staging.orderStatus(id)).toBe('pending');
  // The key stays refused after the message goes: one alert, with the way to the key.
  await user.click(screen.getByRole('button', { name: 'Dismiss' }));
  const alert = theAlert();
  expect(text(alert)).toContain('The service did not accept the Staging API key.');
  expect(alert.querySelector('details')?.textContent).toContain('HTTP 401');
  await user.click(within(alert).getByRole('button', { name: 'Open Staging settings' }));
  expect(document.activeElement).toBe(
    await screen.findByRole('heading', { name: 'Staging settings' }),
  );
  expect(screen.getByLabelText('API key')).toBeTruthy();
});
