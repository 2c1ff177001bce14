// The seams of the Domains screen, each against the real in-process app and
// a real DNS server on loopback: the DNS server field's rule, renaming a
// draft, live domains, a redirect before removal, redirects to domains that
// are not served, the grouped DNS result, why Verify is out of reach, and the
// certificate check asking the chosen DNS server.

import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp } from '../../support/test-app.tsx';
import { LOCAL_SITE, startDnsServer, TARGET, ZONE, type DnsServer } from './dns-server.ts';
import {
  dnsResult,
  expectStep,
  openDomains,
  saveCheckSettings,
  saveProgress,
  workspace,
  PROJECT,
  addProject,
} from './domains-kit.tsx';

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(() => dns.close());

/** The text describing a field or button (hint, message, reason), as a screen reader reads it. */
function description(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

const DAY = 86_400_000;

test('the DNS server field takes an IP address with an optional port, as its hint says; main refuses anything else', async () => {
  const app = await startTestApp();
  await addProject(app);
  await app.api.domains.saveSettings(PROJECT, { target: TARGET });
  await saveProgress(app, { domain: `shop.${ZONE}`, step: 'check-dns' });
  const { user } = await openDomains(app);
  await user.click(screen.getByRole('button', { name: `Resume shop.${ZONE}` }));
  await expectStep(4, 'Check DNS');
  await user.click(screen.getByText(/^How to check/));
  const field = screen.getByRole('textbox', { name: /^DNS server/ });
  expect(description(field)).toMatch(/IP address and an optional port/);

  await user.type(field, 'dns.google');
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(description(field)).toMatch(/"dns\.google" is a name, not an IP address/);
  await user.click(screen.getByRole('button', { name: 'Save how to check' }));
  expect((await workspace(app)).settings.resolver).toBeUndefined();
  expect(document.activeElement).toBe(field);
  // Main applies the same rule to anything that reaches it.
  await addProject(app);
  const refused = await app.api.domains.saveSettings(PROJECT, { resolver: 'dns.google' });
  expect(refused.ok).toBe(false);

  await user.clear(field);
  await user.type(field, '::1');
  expect(description(field)).toMatch(/IPv6 address in brackets/);

  await user.clear(field);
  await user.type(field, dns.address);
  expect(field.getAttribute('aria-invalid')).toBeNull();
  await user.click(screen.getByRole('button', { name: 'Save how to check' }));
  await waitFor(() => expect(description(field)).toMatch(/Saved/));
  expect((await workspace(app)).settings.resolver).toBe(dns.address);
  // A new problem replaces "Saved".
  await user.type(field, ':');
  expect(description(field)).not.toMatch(/Saved/);
  expect(description(field)).toMatch(/port must be a number/);
});

test('renaming a draft renames it: one entry per domain, not one per attempt', async () => {
  const app = await startTestApp();
  const { user } = await openDomains(app);
  await user.click(screen.getByRole('button', { name: 'Add a domain' }));
  for (const box of await screen.findAllByRole('checkbox')) await user.click(box);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.type(await screen.findByLabelText('Domain or subdomain'), `shpo.${ZONE}`);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await expectStep(3, 'Create the DNS record');
  await waitFor(async () =>
    expect(Object.keys((await workspace(app)).progress)).toEqual([`shpo.${ZONE}`]),
  );

  // A typo: back to step 2 and the name put right.
  await user.click(screen.getByRole('button', { name: 'Back' }));
  const field = await screen.findByLabelText('Domain or subdomain');
  await user.clear(field);
  await user.type(field, `shop.${ZONE}`);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await expectStep(3, 'Create the DNS record');
  await waitFor(async () =>
    expect(Object.keys((await workspace(app)).progress)).toEqual([`shop.${ZONE}`]),
  );

  await user.click(screen.getByRole('button', { name: 'Back to all domains' }));
  // The window's list, once main's answer to removing the old name is back.
  const inProgress = await screen.findByRole('region', { name: 'In progress' });
  await waitFor(() =>
    expect(
      within(inProgress)
        .getAllByRole('listitem')
        .map((item) => item.dataset.domain),
    ).toEqual([`shop.${ZONE}`]),
  );
});

test('a live domain is listed as live, no longer as in progress', async () => {
  const app = await startTestApp();
  await saveProgress(app, { domain: `old.${ZONE}`, step: 'live', verifiedAt: Date.now() - DAY });
  await saveProgress(app, { domain: `shop.${ZONE}`, step: 'check-dns' });
  await openDomains(app);

  const live = screen.getByRole('region', { name: 'Live' });
  const inProgress = screen.getByRole('region', { name: 'In progress' });
  expect(
    within(live)
      .getAllByRole('listitem')
      .map((item) => item.dataset.domain),
  ).toEqual([`old.${ZONE}`]);
  expect(within(live).getByText(/^Live since /)).toBeTruthy();
  expect(
    within(inProgress)
      .getAllByRole('listitem')
      .map((item) => item.dataset.domain),
  ).toEqual([`shop.${ZONE}`]);
});

test('"Add a redirect first" opens with the primary filled in, shows no problem before typing, and saves the redirect with the removal', async () => {
  const app = await startTestApp();
  await saveProgress(app, { domain: `old.${ZONE}`, step: 'live', verifiedAt: Date.now() - DAY });
  await saveProgress(app, { domain: `shop.${ZONE}`, step: 'live', verifiedAt: Date.now() - DAY });
  await addProject(app);
  const saved = await app.api.domains.saveConfig(PROJECT, {
    primary: `shop.${ZONE}`,
    redirects: [],
  });
  expect(saved.ok).toBe(true);
  const { user } = await openDomains(app);

  await user.click(screen.getByRole('button', { name: `Remove old.${ZONE}…` }));
  const dialog = screen.getByRole('dialog', { name: `Remove old.${ZONE}?` });
  await user.click(within(dialog).getByRole('button', { name: 'Add a redirect first' }));
  const to = within(dialog).getByRole('textbox', { name: `Redirect old.${ZONE} to` });
  expect((to as HTMLInputElement).value).toBe(`shop.${ZONE}`);
  expect(to.getAttribute('aria-invalid')).toBeNull();
  expect(within(dialog).queryByText(/Problem|empty|not a valid/)).toBeNull();

  await user.click(
    within(dialog).getByRole('button', { name: `Save the redirect and remove old.${ZONE}` }),
  );
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  const after = await workspace(app);
  expect(after.config).toEqual({
    primary: `shop.${ZONE}`,
    redirects: [{ from: `old.${ZONE}`, to: `shop.${ZONE}`, status: 301 }],
  });
  expect(Object.keys(after.progress)).toEqual([`shop.${ZONE}`]);
  // The editor below shows the saved configuration.
  const section = screen.getByRole('region', { name: 'Several domains' });
  expect(within(section).getByLabelText<HTMLInputElement>('Redirect 1: from').value).toBe(
    `old.${ZONE}`,
  );
});

test('with no configuration yet, the redirect goes to a live domain, which becomes the primary', async () => {
  const app = await startTestApp();
  await saveProgress(app, { domain: `old.${ZONE}`, step: 'live', verifiedAt: Date.now() - DAY });
  await saveProgress(app, { domain: `shop.${ZONE}`, step: 'live', verifiedAt: Date.now() - DAY });
  const { user } = await openDomains(app);

  await user.click(screen.getByRole('button', { name: `Remove old.${ZONE}…` }));
  const dialog = screen.getByRole('dialog', { name: `Remove old.${ZONE}?` });
  await user.click(within(dialog).getByRole('button', { name: 'Add a redirect first' }));
  const to = within(dialog).getByRole('textbox', { name: `Redirect old.${ZONE} to` });
  expect((to as HTMLInputElement).value).toBe(`shop.${ZONE}`);
  await user.click(
    within(dialog).getByRole('button', { name: `Save the redirect and remove old.${ZONE}` }),
  );
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect((await workspace(app)).config).toEqual({
    primary: `shop.${ZONE}`,
    redirects: [{ from: `old.${ZONE}`, to: `shop.${ZONE}`, status: 301 }],
  });
});

test('a redirect to a domain that is not served is warned, in the editor and before a removal', async () => {
  const app = await startTestApp();
  await saveProgress(app, { domain: `old.${ZONE}`, step: 'live', verifiedAt: Date.now() - DAY });
  await saveProgress(app, { domain: `shop.${ZONE}`, step: 'live', verifiedAt: Date.now() - DAY });
  const { user } = await openDomains(app);
  const section = screen.getByRole('region', { name: 'Several domains' });

  await user.type(within(section).getByLabelText('Primary domain'), `shop.${ZONE}`);
  await user.click(within(section).getByRole('button', { name: 'Add a redirect' }));
  const from = within(section).getByLabelText('Redirect 1: from');
  const to = within(section).getByLabelText('Redirect 1: to');
  // Nothing is said about a field before it is typed in.
  expect(from.getAttribute('aria-invalid')).toBeNull();
  expect(description(from)).toBe('');
  await user.type(from, `www.${ZONE}`);
  expect(description(to)).toBe('');
  await user.clear(to);
  await user.type(to, 'elsewhere.example.com');
  expect(description(to)).toMatch(
    /elsewhere\.example\.com is neither the primary nor a live domain here/,
  );
  expect(to.getAttribute('aria-invalid')).toBeNull();
  // A live domain is served.
  await user.clear(to);
  await user.type(to, `old.${ZONE}`);
  expect(description(to)).toBe('');

  await user.click(screen.getByRole('button', { name: `Remove old.${ZONE}…` }));
  const dialog = screen.getByRole('dialog', { name: `Remove old.${ZONE}?` });
  await user.click(within(dialog).getByRole('button', { name: 'Add a redirect first' }));
  const target = within(dialog).getByRole('textbox', { name: `Redirect old.${ZONE} to` });
  await user.clear(target);
  await user.type(target, 'elsewhere.example.com');
  expect(description(target)).toMatch(/neither the primary nor a live domain here/);
});

test('the DNS result is grouped: must fix, waiting, fine', async () => {
  const app = await startTestApp();
  await saveCheckSettings(app, dns.address);
  await saveProgress(app, { domain: `leftover.${ZONE}`, step: 'check-dns' });
  await saveProgress(app, { domain: `new.${ZONE}`, step: 'check-dns' });
  const { user } = await openDomains(app);
  await user.click(screen.getByRole('button', { name: `Resume leftover.${ZONE}` }));
  await user.click(await screen.findByRole('button', { name: 'Check DNS' }));
  const result = dnsResult();
  const mustFix = await within(result).findByRole('group', { name: /^Must fix/ });
  const fine = within(result).getByRole('group', { name: /^Fine/ });
  expect(
    [...mustFix.querySelectorAll('[data-code]')].map((f) => f.getAttribute('data-code')),
  ).toEqual(['conflicting-a-record']);
  expect([...fine.querySelectorAll('[data-code]')].map((f) => f.getAttribute('data-code'))).toEqual(
    ['cname-ok', 'caa-ok'],
  );
  expect(within(result).queryByRole('group', { name: /^Waiting/ })).toBeNull();

  await user.click(screen.getByRole('button', { name: 'Back to all domains' }));
  await user.click(await screen.findByRole('button', { name: `Resume new.${ZONE}` }));
  await user.click(await screen.findByRole('button', { name: 'Check DNS' }));
  const waiting = await within(dnsResult()).findByRole('group', { name: /^Waiting/ });
  expect(waiting.querySelector('[data-code="not-found"]')).not.toBeNull();
});

test('"Continue to Verify" says why it is out of reach, before and after a check', async () => {
  // Store Admin's own check waits an hour: before the clerk's, no check has run.
  const app = await startTestApp({ recheckSchedule: () => Date.now() + 60 * 60_000 });
  await saveCheckSettings(app, dns.address);
  await saveProgress(app, { domain: `leftover.${ZONE}`, step: 'check-dns' });
  const { user } = await openDomains(app);
  await user.click(screen.getByRole('button', { name: `Resume leftover.${ZONE}` }));
  const toVerify = await screen.findByRole('button', { name: 'Continue to Verify' });
  expect(toVerify.getAttribute('aria-disabled')).toBe('true');
  expect(description(toVerify)).toMatch(/^Check DNS first/);

  await user.click(screen.getByRole('button', { name: 'Check DNS' }));
  await within(dnsResult()).findByRole('group', { name: /^Must fix/ });
  await waitFor(() =>
    expect(description(toVerify)).toMatch(/The last check found something to fix/),
  );
  expect(toVerify.getAttribute('aria-disabled')).toBe('true');
});

test('the certificate check asks the DNS server chosen for the checks where the site is', async () => {
  const app = await startTestApp();
  await saveCheckSettings(app, dns.address);
  await saveProgress(app, {
    domain: `local.${ZONE}`,
    step: 'certificate',
    verifiedAt: Date.now() - 2 * 60_000,
  });
  const { user } = await openDomains(app);
  await user.click(screen.getByRole('button', { name: `Resume local.${ZONE}` }));
  await expectStep(6, 'Certificate');
  await user.click(screen.getByRole('button', { name: 'Check certificate' }));

  const result = screen.getByRole('status', { name: 'Certificate check result' });
  await within(result).findByText(/Could not connect to/, {}, { timeout: 15_000 });
  expect(dns.asked.some((q) => q.name === `local.${ZONE}` && q.type === 'A')).toBe(true);
  // It connected where that DNS server said the site is: not "not found in DNS".
  expect(result.textContent).toContain(`${LOCAL_SITE}`);
  expect(result.textContent).not.toMatch(/not found in DNS|could not be looked up/);
});
