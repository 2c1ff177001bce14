// Domains that check themselves, in the window: main re-checks a domain
// waiting on DNS (here on a short schedule, against the loopback DNS server),
// the change to ready is said in the live region while the Orders screen is
// open, and the Domains list shows the badge with when it was last checked;
// a check the clerk runs by hand is the badge's word too.

import { render, screen, waitFor, within } from '@testing-library/react';
import type { DomainWatchView } from '../../../../src/shared/domain-watch.ts';
import { DomainBadgeLine } from '../../../../src/renderer/src/features/domains/domain-badge.tsx';
import { expect, test } from 'vitest';
import { clockAtTenThisMorning } from '../../support/morning-clock.ts';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { text } from '../orders/orders-test-kit.tsx';
import { RECORDS, startDnsServer, TARGET, ZONE, type DnsRecord } from './dns-server.ts';
import { openDomains, PROJECT, saveCheckSettings, saveProgress } from './domains-kit.tsx';

const DOMAIN = `soon.${ZONE}`;
const RECHECK_MS = 200;

test('a domain waiting for DNS turns ready by itself: said once while Orders is open, then its badge in Domains', async () => {
  // The record is not there yet; the test creates it once the first check has seen it missing.
  const records: DnsRecord[] = [...RECORDS];
  const dns = await startDnsServer(records);
  const app = await startTestApp({
    recheckSchedule: ({ since, checkedAt }) =>
      checkedAt === undefined || checkedAt < since ? since : checkedAt + RECHECK_MS,
  });
  try {
    await saveCheckSettings(app, dns.address);
    await saveProgress(app, { domain: DOMAIN, step: 'check-dns' });
    const { user } = renderApp(app);
    await screen.findByRole('grid', { name: 'Sandbox orders' });
    await waitFor(() => expect(dns.asked.some((q) => q.name === DOMAIN)).toBe(true));
    const live = screen.getByRole('status', { name: 'Domain checks' });
    expect(text(live)).toBe('');

    records.push({ name: DOMAIN, type: 'CNAME', data: TARGET });
    await waitFor(() =>
      expect(text(live)).toBe(
        `${DOMAIN} is ready: DNS is set up as the platform expects. Next: press Verify in the dashboard.`,
      ),
    );
    // Still on the Orders screen: the message came to it.
    expect(screen.getByRole('grid', { name: 'Sandbox orders' })).toBeTruthy();
    // Said once: the checks stop at ready (main schedules none after it), so nothing
    // more is asked or said.
    const watch = await app.api.domainWatch.list(PROJECT);
    const view = watch.ok ? watch.value.find((w) => w.domain === DOMAIN) : undefined;
    expect(view).toMatchObject({ badge: 'ready', stopped: 'ready' });
    expect(view?.nextCheckAt).toBeUndefined();

    await user.click(screen.getByRole('button', { name: 'Domains' }));
    const item = await screen.findByText(DOMAIN, { selector: 'strong' });
    const entry = item.closest('li') ?? item.parentElement!;
    await waitFor(() => expect(within(entry).getByText('Ready')).toBeTruthy());
    expect(text(entry)).toMatch(/Ready checked at \d\d:\d\d/);
  } finally {
    await dns.close();
  }
});

test('a certificate check by hand and the badge give one verdict', async () => {
  const dns = await startDnsServer([...RECORDS]);
  // Main's own check waits an hour: the badge's word comes from the clerk's check.
  const app = await startTestApp({ recheckSchedule: () => Date.now() + 60 * 60_000 });
  try {
    await saveCheckSettings(app, dns.address);
    // Loopback, where nothing answers on 443: the site cannot be reached.
    await saveProgress(app, {
      domain: `local.${ZONE}`,
      step: 'certificate',
      verifiedAt: Date.now(),
    });
    const { user } = await openDomains(app);
    await user.click(screen.getByRole('button', { name: `Resume local.${ZONE}` }));
    await user.click(await screen.findByRole('button', { name: 'Check certificate' }));
    const result = screen.getByRole('status', { name: 'Certificate check result' });
    await within(result).findByText('The site could not be reached over https from this computer.');
    const own = document.querySelector<HTMLElement>('.own-checks')!;
    await waitFor(() => expect(text(own)).toMatch(/Site not reachable checked at \d\d:\d\d/));
    // Back in the list, the same word.
    await user.click(screen.getByRole('button', { name: 'Back to all domains' }));
    const item = await screen.findByText(`local.${ZONE}`, { selector: 'strong' });
    expect(text(item.parentElement)).toMatch(/Site not reachable checked at \d\d:\d\d/);
  } finally {
    await dns.close();
  }
});

test('a check whose time has come reads "checking again now", never a time gone by', () => {
  const now = clockAtTenThisMorning();
  const watch: DomainWatchView = {
    project: 'pet-shop',
    domain: `shop.${ZONE}`,
    phase: 'certificate',
    badge: 'certificate-missing',
    checkedAt: now - 10 * 60_000,
    nextCheckAt: now - 60_000,
    troubleshoot: false,
  };
  const { container, rerender } = render(<DomainBadgeLine watch={watch} />);
  expect(text(container)).toMatch(/^No certificate yet checked at \d\d:\d\d · checking again now$/);
  rerender(<DomainBadgeLine watch={{ ...watch, nextCheckAt: now + 10 * 60_000 }} />);
  expect(text(container)).toMatch(/· next check in about 10 minutes$/);
});
