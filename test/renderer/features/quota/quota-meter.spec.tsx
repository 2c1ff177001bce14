// The quota meter in the header, on the real app: the real main-process
// services and sandboxes over loopback HTTP. Limits and bans are real too: a
// raw client uses up a Free key's quota, or gets the key banned. The meter is
// one line (figures, a word, the reset); the plan, the local count and the
// chart are behind "Details"; a hold or a ban is one alert in the notice area,
// with the gate's time.
//
// The orders screen refreshes by itself, so Store Admin may send requests of
// its own at any time: the tests compare the meter with what the main process
// reports rather than with fixed counts, and the staging tests run on the
// Settings screen, which sends nothing by itself.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { formatClock, formatCount } from '../../../../src/renderer/src/format.ts';
import { formatCountdown } from '../../../../src/renderer/src/features/quota/quota-meter-model.ts';
// The notice's own form of a moment: the time alone today, with its date on another day.
import { formatMomentWithSeconds } from '../../../../src/shared/display-format.ts';
import { BAN_WARNING } from '../../../../src/renderer/src/features/quota/quota-text.ts';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import type { TestApp } from '../../support/test-app-shapes.ts';
import {
  farWindowMs,
  freeStaging,
  knownQuota,
  ManualClock,
  meter,
  notices,
  quotaOf,
  rawRequestsUntil,
  renderWithClock,
  switchTo,
  theAlert,
  type LimitSandboxOptions,
} from './quota-kit.tsx';

const UNKNOWN = 'Quota unknown';

/** The text of an element with runs of white space made single. */
const text = (element: Element | null) => (element?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** Opens "Quota details" and returns its panel. */
async function openDetails(user: ReturnType<typeof renderApp>['user']): Promise<HTMLElement> {
  const toggle = within(meter()).getByRole('button', { name: 'Quota details' });
  if (toggle.getAttribute('aria-expanded') !== 'true') await user.click(toggle);
  return within(meter()).getByRole('group', { name: 'Quota details' });
}

async function refresh(app: TestApp, environment: 'sandbox' | 'staging') {
  return app.api.orders.list(environment);
}

/** Waits until the meter shows the figures the main process has for the environment. */
async function expectMeterShowsMain(
  app: TestApp,
  environment: 'sandbox' | 'staging',
  perDay: number,
) {
  await waitFor(async () => {
    const quota = await quotaOf(app, environment);
    const { limit, remaining, resetAt } = quota;
    if (limit === undefined || remaining === undefined || resetAt === undefined)
      throw new Error('not known yet');
    const region = meter();
    within(region).getByText(`${formatCount(remaining)} of ${formatCount(limit)} left`);
    expect(within(region).getByRole('meter').getAttribute('aria-valuenow')).toBe(String(remaining));
    expect(within(region).getByRole('meter').getAttribute('aria-valuemax')).toBe(String(limit));
    expect(perDay).toBeGreaterThan(0);
  });
}

/** The header and a screen that sends nothing by itself, on the Free staging sandbox. */
async function stagingOnSettings(app: TestApp, options: LimitSandboxOptions = {}) {
  const view = renderApp(app);
  const staging = await freeStaging(app, options);
  await view.user.click(await screen.findByRole('button', { name: 'Settings' }));
  await switchTo(view.user, 'Staging');
  await screen.findByText('STAGING — test service');
  expect(within(meter()).getByText(UNKNOWN)).toBeTruthy();
  // Store Admin's first answer on staging.
  expect((await refresh(app, 'staging')).ok).toBe(true);
  await waitFor(() =>
    expect(within(meter()).getByRole('meter').getAttribute('aria-valuemax')).toBe('60'),
  );
  return { ...view, staging };
}

test('before the first answer the meter says the quota is unknown, and shows no figures', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);

  // At once, before any answer could have arrived.
  const region = screen.getByRole('region', { name: 'Quota' });
  expect(within(region).getByText(UNKNOWN)).toBeTruthy();
  expect(within(region).queryByRole('meter')).toBeNull();
  expect(region.textContent).not.toMatch(/\d/);

  // Staging has no key: nothing can be sent, so it stays unknown.
  await switchTo(user, 'Staging');
  await screen.findByText('STAGING — test service');
  expect(within(meter()).getByText(UNKNOWN)).toBeTruthy();
  expect((await quotaOf(app, 'staging')).known).toBe(false);
  expect(within(meter()).queryByRole('meter')).toBeNull();
  expect(meter().textContent).not.toMatch(/\d/);
  // What is said instead, once, as something to do rather than an error: it is not set up yet.
  await screen.findByText('Staging is not set up yet.');
  expect(screen.queryByRole('alert')).toBeNull();
  // Nothing is asked of it until then, and nothing is said to be paused: nothing ran.
  expect(text(document.querySelector('.refresh-line'))).toBe('');
});

test('after a refresh: requests left of the limit on a gauge with its word; the plan, its daily limit and the local count in the details', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);

  expect((await refresh(app, 'sandbox')).ok).toBe(true);

  await expectMeterShowsMain(app, 'sandbox', 10_000);
  const quota = await quotaOf(app, 'sandbox');
  expect(quota).toMatchObject({ limit: 300, remaining: 300 - quota.sentToday });
  expect(quota.sentToday).toBeGreaterThanOrEqual(1);
  const region = meter();
  const gauge = within(region).getByRole('meter', { name: 'Requests left' });
  expect(gauge.getAttribute('aria-valuemin')).toBe('0');
  expect(gauge.getAttribute('aria-valuemax')).toBe('300');
  expect(gauge.getAttribute('aria-valuetext')).toBe(
    `${quota.remaining} of 300 requests left: plenty`,
  );
  expect(gauge.getAttribute('data-level')).toBe('plenty');
  expect(within(region).getByText('plenty')).toBeTruthy();
  expect(text(region.querySelector('.quota-reset'))).toMatch(/^· resets in \d+:\d\d$/);
  expect(within(region).queryByText(UNKNOWN)).toBeNull();
  // The sandbox's demo key is on the Pro plan; the local count is labelled as such.
  const details = await openDetails(user);
  expect(within(details).getByText('Pro plan · 10,000 a day')).toBeTruthy();
  const { sentToday } = await quotaOf(app, 'sandbox');
  expect(
    within(details).getByText(
      `This computer: ${formatCount(sentToday)} of 10,000 today (local count)`,
    ),
  ).toBeTruthy();
});

test('the reset countdown ticks every second and is never announced', async () => {
  const sandbox: LimitSandboxOptions = { minuteMs: farWindowMs() };
  const app = await startTestApp({ sandbox });
  const clock = new ManualClock(Date.now());
  renderWithClock(app, clock);

  await refresh(app, 'sandbox');
  const { resetAt, observedAt } = await knownQuota(app, 'sandbox');
  if (resetAt === undefined || observedAt === undefined) throw new Error('no reset time');

  // Later than any answer's time, so the clock alone sets the countdown.
  const start = Date.now() + 5_000;
  clock.set(start);
  const countdown = await within(meter()).findByText(formatCountdown(resetAt - start));
  clock.advance(1_000);
  expect(countdown.textContent?.trim()).toBe(formatCountdown(resetAt - start - 1_000));
  clock.advance(1_000);
  expect(countdown.textContent?.trim()).toBe(formatCountdown(resetAt - start - 2_000));
  clock.advance(60_000);
  expect(countdown.textContent?.trim()).toBe(formatCountdown(resetAt - start - 62_000));

  // Not inside a live region, and nothing is announced while it ticks.
  expect(countdown.closest('[aria-live]')).toBeNull();
  expect(countdown.closest('[role="alert"]')).toBeNull();
  expect(within(notices()).queryAllByRole('alert')).toHaveLength(0);
});

test('Quota details shows a chart of the last minutes with an accessible summary of the totals; Escape closes it', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  for (let i = 0; i < 3; i++) expect((await refresh(app, 'sandbox')).ok).toBe(true);
  await expectMeterShowsMain(app, 'sandbox', 10_000);

  const toggle = within(meter()).getByRole('button', { name: 'Quota details' });
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  const panel = await openDetails(user);
  expect(toggle.getAttribute('aria-expanded')).toBe('true');

  await waitFor(async () => {
    const { history, remaining, sentToday } = await quotaOf(app, 'sandbox');
    const sent = history.reduce((sum, point) => sum + point.sent, 0);
    expect(sent).toBe(sentToday);
    expect(sent).toBeGreaterThanOrEqual(3);
    const first = history.find((point) => point.remaining !== undefined)?.remaining;
    const label = within(panel).getByRole('img').getAttribute('aria-label');
    expect(label).toMatch(
      new RegExp(
        `^${sent} requests sent from this computer in the last 15 minutes, at most \\d+ in 10 seconds\\. `,
      ),
    );
    expect(label).toContain(
      `Requests left of 300: from ${first} to ${remaining}, lowest ${remaining}.`,
    );
  });
  expect(
    within(panel).getByRole('img').querySelectorAll('.quota-chart-sent').length,
  ).toBeGreaterThan(0);

  await user.keyboard('{Escape}');
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  expect(within(meter()).queryByRole('group', { name: 'Quota details' })).toBeNull();
  expect(document.activeElement).toBe(toggle);
});

test('after a 429 one alert says requests are paused until the gate opens, and why; the meter says paused', async () => {
  const app = await startTestApp();
  const { staging } = await stagingOnSettings(app);

  // Another client uses up the Free key's quota; Store Admin's next request gets 429.
  await rawRequestsUntil(staging, (answer) => answer.status === 429);
  expect((await refresh(app, 'staging')).ok).toBe(false);
  const { holdUntil, holdReason } = await quotaOf(app, 'staging');
  expect(holdReason).toBe('server-429');
  if (holdUntil === undefined) throw new Error('no hold');

  const alert = await waitFor(theAlert);
  expect(text(alert.querySelector('.notice-text'))).toMatch(
    new RegExp(
      `^Requests paused\\. Requests to Staging are paused until ${formatMomentWithSeconds(holdUntil, Date.now())}\\. The service asked Store Admin to slow down\\. \\(in \\d+(:\\d\\d){1,2}\\)$`,
    ),
  );
  // The why and the warning behind Details, not in the sentence.
  const details = alert.querySelector('details')!;
  expect(details.textContent).toContain('The service answered 429 Too Many Requests.');
  expect(details.textContent).toContain(BAN_WARNING);
  expect(text(alert.querySelector('.notice-text'))).not.toContain(BAN_WARNING);
  const region = meter();
  expect(within(region).getByRole('meter').getAttribute('aria-valuetext')).toBe(
    '0 of 60 requests left: used up',
  );
  expect(within(region).getByText('paused')).toBeTruthy();
  // The meter does not say it again.
  expect(region.textContent).not.toContain(formatClock(holdUntil));
});

test('when the quota is used up one alert says Store Admin holds requests back until the reset', async () => {
  const app = await startTestApp();
  const { user, staging } = await stagingOnSettings(app);

  // Another client leaves one request; Store Admin's next answer says none are left.
  await rawRequestsUntil(staging, (answer) => answer.remaining === 1);
  expect((await refresh(app, 'staging')).ok).toBe(true);
  const { resetAt, remaining, holdUntil, sentToday } = await quotaOf(app, 'staging');
  expect({ remaining, holdUntil, sentToday }).toEqual({
    remaining: 0,
    holdUntil: undefined,
    sentToday: 2,
  });
  if (resetAt === undefined) throw new Error('no reset');

  const alert = await waitFor(theAlert);
  expect(text(alert.querySelector('.notice-text'))).toContain(
    `Requests to Staging are paused until ${formatMomentWithSeconds(resetAt, Date.now())}. The quota for this period is used up.`,
  );
  expect(alert.querySelector('details')?.textContent).toContain(
    'The quota for this window is used up, so Store Admin holds requests back until it resets.',
  );
  const details = await openDetails(user);
  expect(within(details).getByText('This computer: 2 of 1,000 today (local count)')).toBeTruthy();
});

test('a banned key is one alert, with the time the ban ends', async () => {
  const app = await startTestApp();
  const { staging } = await stagingOnSettings(app, { banAfter: 2, banMs: 30 * 60_000 });

  // Another client keeps sending after its 429 until the sandbox bans the key.
  const answers = await rawRequestsUntil(staging, (answer) => answer.code === 'api_key_banned');
  expect(answers.filter((answer) => answer.status === 429)).toHaveLength(3);
  expect((await refresh(app, 'staging')).ok).toBe(false);
  const { holdUntil, holdReason } = await quotaOf(app, 'staging');
  expect(holdReason).toBe('banned');
  if (holdUntil === undefined) throw new Error('no hold');

  const alert = await waitFor(theAlert);
  expect(text(alert.querySelector('.notice-text'))).toMatch(
    new RegExp(
      `^Key banned\\. The service has banned the Staging API key until ${formatMomentWithSeconds(holdUntil, Date.now())}\\. Store Admin sends nothing until then\\. \\(in (2\\d|30):\\d\\d\\)$`,
    ),
  );
  expect(alert.querySelector('details')?.textContent).toContain('A ban follows repeated requests');
  expect(within(meter()).getByText('banned')).toBeTruthy();
});

test('figures of an earlier answer are shown as such while the service cannot be reached: no colour, no "plenty"', async () => {
  const app = await startTestApp();
  const { staging } = await stagingOnSettings(app);
  const { observedAt } = await quotaOf(app, 'staging');
  if (observedAt === undefined) throw new Error('no answer');
  expect(within(meter()).getByText('plenty')).toBeTruthy();

  await staging.close();
  expect((await refresh(app, 'staging')).ok).toBe(false);

  const region = meter();
  await waitFor(() =>
    expect(text(region.querySelector('.quota-summary'))).toBe(
      `59 of 60 left at ${formatClock(observedAt).slice(0, 5)}`,
    ),
  );
  expect(within(region).queryByText('plenty')).toBeNull();
  const gauge = within(region).getByRole('meter');
  expect(gauge.getAttribute('data-level')).toBe('stale');
  expect(gauge.getAttribute('aria-valuetext')).toBe(
    `59 of 60 requests left at ${formatClock(observedAt).slice(0, 5)}`,
  );
  expect(text(theAlert())).toContain('Staging cannot be reached.');
});

test('switching environment switches the meter', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  await freeStaging(app);
  await refresh(app, 'sandbox');
  await expectMeterShowsMain(app, 'sandbox', 10_000);
  expect(within(await openDetails(user)).getByText('Pro plan · 10,000 a day')).toBeTruthy();

  await switchTo(user, 'Staging');
  await refresh(app, 'staging');
  await expectMeterShowsMain(app, 'staging', 1_000);
  expect(within(await openDetails(user)).getByText('Free plan · 1,000 a day')).toBeTruthy();
  expect(within(meter()).getByRole('meter').getAttribute('aria-valuemax')).toBe('60');
  expect(within(meter()).queryByText(/Pro plan/)).toBeNull();

  await switchTo(user, 'Sandbox');
  await expectMeterShowsMain(app, 'sandbox', 10_000);
  expect(within(await openDetails(user)).getByText('Pro plan · 10,000 a day')).toBeTruthy();
  expect(within(meter()).queryByText(/Free plan/)).toBeNull();
});
