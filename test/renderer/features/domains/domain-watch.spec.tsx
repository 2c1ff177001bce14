// Domains that check themselves, in the window: main re-checks a domain
// waiting on DNS (here on a short schedule, against the loopback DNS server),
// the change to ready is said in the live region while the Orders screen is
// open, and the Domains list shows the badge with when it was last checked.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { text } from '../orders/orders-test-kit.tsx';
import { RECORDS, startDnsServer, TARGET, ZONE, type DnsRecord } from './dns-server.ts';
import { saveCheckSettings, saveProgress } from './domains-kit.tsx';

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
    const watch = await app.api.domainWatch.list('sandbox');
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
