// When the domain checks ran and run next, in one form: today's times as the
// time alone wherever the assistant and the list say them, a next check soon
// as "in about N minutes" (never "checked at 5:01 PM · next check at 5:01 PM",
// which reads as stale), and a badge that is not Ready says why, without the
// clerk pressing Check DNS.

import { render, screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import type { RecheckSchedule } from '../../../../src/main/domains/recheck-schedule.ts';
import { DomainBadgeLine } from '../../../../src/renderer/src/features/domains/domain-badge.tsx';
import type { DomainWatchView } from '../../../../src/shared/domain-watch.ts';
import { clockAtTenThisMorning } from '../../support/morning-clock.ts';
import { startTestApp } from '../../support/test-app.tsx';
import { text } from '../orders/orders-test-kit.tsx';
import {
  dnsResult,
  expectStep,
  openDomains,
  saveCheckSettings,
  saveProgress,
} from './domains-kit.tsx';
import { startDnsServer, ZONE } from './dns-server.ts';

const MINUTE = 60_000;
/** A year, as a date with one would show it: today's times never carry one. */
const YEAR = /\b20\d\d\b/;
/** Main checks a domain at once, then again in an hour. */
const AT_ONCE_THEN_HOURLY: RecheckSchedule = ({ since, checkedAt }) =>
  checkedAt === undefined || checkedAt < since ? since : checkedAt + 60 * MINUTE;

const LEFTOVER = `leftover.${ZONE}`;

/**
 * The leftover domain (an A record at the name where its CNAME goes) saved at
 * Check DNS with `progress`, main checking it at once and then hourly: `body`
 * gets the Domains list's entry once its badge reads Misconfigured.
 */
async function withMisconfiguredDomain(
  progress: Partial<Parameters<typeof saveProgress>[1]>,
  body: (opened: {
    user: Awaited<ReturnType<typeof openDomains>>['user'];
    entry: HTMLElement;
  }) => Promise<void>,
): Promise<void> {
  const dns = await startDnsServer();
  const app = await startTestApp({ recheckSchedule: AT_ONCE_THEN_HOURLY });
  try {
    await saveCheckSettings(app, dns.address);
    await saveProgress(app, { domain: LEFTOVER, step: 'check-dns', ...progress });
    const { user } = await openDomains(app);
    const entry = (await screen.findByText(LEFTOVER, { selector: 'strong' })).closest('li')!;
    await waitFor(() => expect(within(entry).getByText('Misconfigured')).toBeTruthy());
    await body({ user, entry });
  } finally {
    await dns.close();
  }
}

test('a next check soon is said in minutes from now; one hours away by its time', () => {
  const now = clockAtTenThisMorning();
  const watch: DomainWatchView = {
    project: 'pet-shop',
    domain: `shop.${ZONE}`,
    phase: 'dns',
    badge: 'waiting-for-dns',
    checkedAt: now - 5_000,
    nextCheckAt: now + 40_000,
    troubleshoot: false,
  };
  const { container, rerender } = render(<DomainBadgeLine watch={watch} />);
  expect(text(container)).toMatch(/checked at \d\d:\d\d · next check in less than a minute$/);

  rerender(<DomainBadgeLine watch={{ ...watch, nextCheckAt: now + 4 * MINUTE + 10_000 }} />);
  expect(text(container)).toMatch(/· next check in about 4 minutes$/);
  rerender(<DomainBadgeLine watch={{ ...watch, nextCheckAt: now + 75_000 }} />);
  expect(text(container)).toMatch(/· next check in about 1 minute$/);
  rerender(<DomainBadgeLine watch={{ ...watch, nextCheckAt: now + 3 * 60 * MINUTE }} />);
  expect(text(container)).toMatch(/· next check at \d\d:\d\d$/);
});

test('a misconfigured domain says why in the list and in its step, before Check DNS is pressed; after it, once', async () => {
  await withMisconfiguredDomain({}, async ({ user, entry }) => {
    expect(text(entry)).toMatch(/has an A record \(192\.0\.2\.99\) at the same name/);

    await user.click(screen.getByRole('button', { name: `Resume ${LEFTOVER}` }));
    await expectStep(4, 'Check DNS');
    const own = document.querySelector<HTMLElement>('.own-checks')!;
    expect(text(own)).toMatch(/^Store Admin checks the DNS by itself: ?Misconfigured checked at/);
    expect(text(own)).toMatch(/has an A record \(192\.0\.2\.99\) at the same name/);

    // The clerk's check shows every finding: the reason is then said there, not twice.
    await user.click(screen.getByRole('button', { name: 'Check DNS' }));
    expect(await within(dnsResult()).findByText(/^Needs a change/)).toBeTruthy();
    const step = screen
      .getByRole('heading', { name: 'Step 4 of 7: Check DNS' })
      .closest('section')!;
    expect(text(step).split('has an A record (192.0.2.99)').length - 1).toBe(1);
  });
});

test('today’s times read the same in the list and in the assistant: the time alone', async () => {
  // The certificate's deadline, half an hour on, is today too.
  clockAtTenThisMorning();
  const dns = await startDnsServer();
  const app = await startTestApp({ recheckSchedule: () => Date.now() + 60 * MINUTE });
  try {
    await saveCheckSettings(app, dns.address);
    await saveProgress(app, {
      domain: `shop.${ZONE}`,
      step: 'certificate',
      verifiedAt: Date.now() - 2 * MINUTE,
      lastCheck: { status: 'ready', at: Date.now() - 3 * MINUTE },
    });
    const { user } = await openDomains(app);
    const entry = (await screen.findByText(`shop.${ZONE}`, { selector: 'strong' })).closest('li')!;
    expect(text(entry)).toMatch(
      /verified \d\d:\d\d · last DNS check \d\d:\d\d: ready · saved \d\d:\d\d/,
    );
    expect(text(entry)).not.toMatch(YEAR);

    await user.click(screen.getByRole('button', { name: `Resume shop.${ZONE}` }));
    const heading = await expectStep(6, 'Certificate');
    const step = heading.closest('section')!;
    expect(text(step)).toMatch(/Verified \d\d:\d\d\./);
    expect(text(step)).toMatch(/If there is still no certificate at \d\d:\d\d/);
    expect(text(step)).not.toMatch(YEAR);

    // Back to Verify, then to Check DNS.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await expectStep(5, 'Verify in the dashboard');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(await screen.findByRole('button', { name: 'Check DNS' }));
    await within(dnsResult()).findByText(/^Ready/);
    expect(text(dnsResult())).toMatch(/Checked \d\d:\d\d, asking/);
    expect(text(dnsResult())).not.toMatch(YEAR);
  } finally {
    await dns.close();
  }
});

test('step 4 says Verify waits for what Store Admin’s own check found, not for a first check', async () => {
  await withMisconfiguredDomain({}, async ({ user }) => {
    await user.click(screen.getByRole('button', { name: `Resume ${LEFTOVER}` }));
    const proceed = await screen.findByRole('button', { name: 'Continue to Verify' });
    expect(
      document.getElementById(proceed.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toBe('The last check found something to fix.');
  });
});

test('while DNS is what the badge is about, the list gives the verdict once: the badge', async () => {
  // A check the clerk ran earlier, saved with the progress; Store Admin's own check has
  // answered since: its badge is the verdict, said once.
  const lastCheck = { status: 'misconfigured', at: Date.now() - 2 * MINUTE } as const;
  await withMisconfiguredDomain({ lastCheck }, async ({ entry }) => {
    expect(text(entry)).toMatch(
      /^leftover\.\S+ ?Step 4 of 7: Check DNS · saved \d\d:\d\d ?Misconfigured checked at/,
    );
    expect(text(entry)).not.toMatch(/needs a change/);
  });
});
