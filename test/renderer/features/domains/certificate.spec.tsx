// After verification: the certificate, and the interface's troubleshooting
// when there is none 30 minutes after verification (confirm DNS still
// verifies, CAA must not block the authority, press Re-verify).

import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { text } from '../orders/orders-test-kit.tsx';
import { startDnsServer, ZONE, type DnsServer } from './dns-server.ts';
import { expectStep, openDomains, saveCheckSettings, saveProgress } from './domains-kit.tsx';

const MINUTE = 60_000;

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(() => dns.close());

test('31 minutes after verification without a certificate: the three troubleshooting steps, CAA shown', async () => {
  // Main's own check waits: the clerk opens the domain from the list (main's opening it is the next test).
  const app = await startTestApp({ recheckSchedule: () => Date.now() + 60 * MINUTE });
  await saveCheckSettings(app, dns.address);
  await saveProgress(app, {
    domain: 'shop.caa-pets.invalid',
    step: 'certificate',
    verifiedAt: Date.now() - 31 * MINUTE,
    lastCheck: { status: 'ready', at: Date.now() - 32 * MINUTE },
  });
  const { user } = await openDomains(app);
  expect(screen.getByText('shop.caa-pets.invalid').closest('li')?.textContent).toMatch(
    /Step 6 of 7: Certificate · verified .+ · last DNS check .+: ready ·/,
  );
  await user.click(screen.getByRole('button', { name: 'Resume shop.caa-pets.invalid' }));
  await expectStep(6, 'Certificate');

  const help = screen.getByRole('region', { name: 'No certificate 30 minutes after verification' });
  // The three steps (the DNS check's findings are list items of their own, inside the first).
  const items = [...help.querySelectorAll(':scope > ol > li')];
  expect(items[0]?.textContent).toMatch(/^Confirm the domain still verifies\./);
  expect(items[1]?.textContent).toMatch(
    /^Check that CAA records do not block the certificate authority\./,
  );
  expect(help.textContent).toMatch(
    /Press Re-verify in the dashboard \(project settings, Domains\) to trigger a\s+new attempt/,
  );

  // The DNS check runs as the steps open, so the CAA step has its verdict without a click.
  const result = within(help).getByRole('status', { name: 'DNS check result' });
  expect(await within(result).findByText(/^Needs a change/)).toBeTruthy();
  const caa = items[1]?.querySelector('[data-code="caa-blocks-ca"]');
  expect(caa?.textContent).toMatch(
    /allow only digicert\.com to issue certificates, so letsencrypt\.org/,
  );
  expect(caa?.textContent).toMatch(/Founddigicert\.com/);
  expect(caa?.textContent).toMatch(/Expectedletsencrypt\.org/);
  // And again on demand.
  await user.click(within(help).getByRole('button', { name: 'Check DNS again' }));
  expect(await within(result).findByText(/^Needs a change/)).toBeTruthy();
});

test('main finds no certificate 30 minutes after verification: said once, and the assistant opens at the troubleshooting by itself', async () => {
  const app = await startTestApp();
  await saveCheckSettings(app, dns.address);
  await saveProgress(app, {
    // Nothing listens on this site's port 443: main's own certificate check finds none at once.
    domain: `local.${ZONE}`,
    step: 'certificate',
    verifiedAt: Date.now() - 31 * MINUTE,
    lastCheck: { status: 'ready', at: Date.now() - 32 * MINUTE },
  });
  const { user } = renderApp(app);
  const live = await screen.findByRole('status', { name: 'Domain checks' });
  await waitFor(() =>
    expect(live.textContent).toBe(
      `local.${ZONE} has no certificate 30 minutes after verification: its troubleshooting is open in Domains.`,
    ),
  );
  await user.click(screen.getByRole('button', { name: 'Domains' }));
  await expectStep(6, 'Certificate');
  expect(
    screen.getByRole('region', { name: 'No certificate 30 minutes after verification' }),
  ).toBeTruthy();
  // Once: back to the list, it stays there.
  await user.click(screen.getByRole('button', { name: 'Back to all domains' }));
  await screen.findByRole('heading', { name: 'In progress' });
  expect(screen.queryByRole('heading', { name: /^Step 6 of 7/ })).toBeNull();
  // The watcher goes on checking: a check under way says "checking now" until it answers.
  await waitFor(() =>
    expect(text(screen.getByText(`local.${ZONE}`, { selector: 'strong' }).parentElement)).toMatch(
      /Site not reachable checked at \d\d:\d\d/,
    ),
  );
});

test('before the 30 minutes are up there is no troubleshooting, only when to come back', async () => {
  const app = await startTestApp();
  await saveCheckSettings(app, dns.address);
  await saveProgress(app, {
    domain: `shop.${ZONE}`,
    step: 'certificate',
    verifiedAt: Date.now() - 5 * MINUTE,
    lastCheck: { status: 'ready', at: Date.now() - 6 * MINUTE },
  });
  const { user } = await openDomains(app);
  await user.click(screen.getByRole('button', { name: `Resume shop.${ZONE}` }));
  await expectStep(6, 'Certificate');
  expect(screen.queryByRole('region', { name: /No certificate 30 minutes/ })).toBeNull();
  expect(
    screen.getByText(
      /If there is still no certificate at .* \(30 minutes after\s+verification\), the assistant opens here by itself/,
    ),
  ).toBeTruthy();
});

test('Check certificate reports what the live site shows, in words', async () => {
  const app = await startTestApp();
  await saveProgress(app, {
    domain: `shop.${ZONE}`,
    step: 'certificate',
    verifiedAt: Date.now() - 2 * MINUTE,
  });
  const { user } = await openDomains(app);
  await user.click(screen.getByRole('button', { name: `Resume shop.${ZONE}` }));
  await user.click(await screen.findByRole('button', { name: 'Check certificate' }));
  // A .invalid name never resolves, so the site cannot be reached: said so, with the checker's reason.
  const result = screen.getByRole('status', { name: 'Certificate check result' });
  expect(
    await within(result).findByText(
      'The site could not be reached over https from this computer.',
      {},
      { timeout: 15_000 },
    ),
  ).toBeTruthy();
  expect(within(result).getAllByRole('listitem').length).toBeGreaterThan(0);
});
