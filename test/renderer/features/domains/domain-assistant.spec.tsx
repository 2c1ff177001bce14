// The custom-domain assistant walked through in the real window, on the real
// in-process app, with a real DNS server on loopback answering the checks.

import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp } from '../../support/test-app.tsx';
import { NEGATIVE_TTL_WORDS, startDnsServer, TARGET, ZONE, type DnsServer } from './dns-server.ts';
import {
  dnsResult,
  expectStep,
  openDomains,
  saveCheckSettings,
  saveProgress,
  workspace,
} from './domains-kit.tsx';

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(() => dns.close());

test('a subdomain from start to verified: gate, IDN, record to copy, DNS check, Verify', async () => {
  const app = await startTestApp();
  const { user } = await openDomains(app);
  expect(screen.getByText('No domain in progress.')).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Add a domain' }));

  // Step 1: cannot go on until all three preconditions are ticked; each missing one says what to do.
  const heading = await expectStep(1, 'Before you start');
  expect(document.activeElement).toBe(heading);
  const paid = screen.getByRole('checkbox', { name: /paid plan \(Pro or above\)/ });
  const access = screen.getByRole('checkbox', { name: /change the DNS settings/ });
  const deployed = screen.getByRole('checkbox', { name: /deployed successfully/ });
  expect(screen.getByText(/If not, change the plan in the dashboard first/)).toBeTruthy();
  expect(screen.getByText(/If not, ask whoever manages the domain/)).toBeTruthy();
  expect(screen.getByText(/If not, deploy the project first/)).toBeTruthy();
  await user.click(paid);
  await user.click(deployed);
  expect(screen.queryByText(/If not, change the plan/)).toBeNull();
  const proceed = screen.getByRole('button', { name: 'Continue' });
  expect(proceed.getAttribute('aria-disabled')).toBe('true');
  await user.click(proceed);
  expect(screen.getByRole('heading', { name: 'Step 1 of 7: Before you start' })).toBeTruthy();
  expect(document.getElementById(proceed.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
    'One point is still to tick.',
  );
  // Keyboard: the last box is ticked with the space bar.
  access.focus();
  await user.keyboard(' ');
  expect((access as HTMLInputElement).checked).toBe(true);
  expect(proceed.getAttribute('aria-disabled')).toBeNull();
  await user.click(proceed);

  // Step 2: not a host name is refused inline; an address pasted from a browser is cleaned to
  // its name, saying so; Unicode with a trailing dot is normalised and placed.
  await expectStep(2, 'Add the domain');
  const field = screen.getByLabelText<HTMLInputElement>('Domain or subdomain');
  await user.type(field, 'shop example.com');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  expect(screen.getByText(/contains spaces or signs a domain cannot have/)).toBeTruthy();
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(document.activeElement).toBe(field);
  await user.clear(field);
  await user.paste('https://Shop.Example.com/');
  expect(field.value).toBe('shop.example.com');
  expect(field.getAttribute('aria-invalid')).toBeNull();
  expect(screen.getByText('Kept the name only, from https://Shop.Example.com/.')).toBeTruthy();
  expect(screen.getByText(/is a subdomain of example\.com/)).toBeTruthy();
  await user.clear(field);
  await user.type(field, `Bücher.${ZONE.toUpperCase()}.`);
  expect(field.getAttribute('aria-invalid')).toBeNull();
  const kind = screen.getByText(/is a subdomain of/);
  expect(kind.textContent).toBe(
    `bücher.${ZONE} is a subdomain of ${ZONE}: it needs a CNAME record. In DNS it is written xn--bcher-kva.${ZONE}.`,
  );
  await user.click(screen.getByRole('button', { name: 'Continue' }));

  // Step 3: the target is pasted and remembered; then the exact record, ready to copy.
  await expectStep(3, 'Create the DNS record');
  expect(screen.getByText(/^Domain:/).textContent).toBe(
    `Domain: bücher.${ZONE} (written xn--bcher-kva.${ZONE} in DNS)`,
  );
  expect(
    screen.getByText('The record to create appears here once the target is saved.'),
  ).toBeTruthy();
  const progressed = await workspace(app);
  expect(progressed.progress[`bücher.${ZONE}`]?.step).toBe('configure-dns');
  await user.type(screen.getByLabelText('Platform target'), ` ${TARGET.toUpperCase()}. `);
  await user.click(screen.getByRole('button', { name: 'Save target' }));
  expect(await screen.findByText('Saved.')).toBeTruthy();
  expect((await workspace(app)).settings.target).toBe(TARGET);

  const record = screen.getByRole('table');
  const row = (name: string) => within(record).getByRole('row', { name: new RegExp(`^${name}`) });
  expect(within(row('Type')).getByText('CNAME')).toBeTruthy();
  expect(within(row('Name')).getByText('xn--bcher-kva')).toBeTruthy();
  expect(
    within(row('Name')).getByText(new RegExp(`full name instead: xn--bcher-kva\\.${ZONE}`)),
  ).toBeTruthy();
  expect(within(row('Value')).getByText(TARGET)).toBeTruthy();
  expect(within(row('TTL')).getByText('3600')).toBeTruthy();
  expect(screen.queryByText(/Not every DNS provider supports/)).toBeNull();

  await user.click(screen.getByRole('button', { name: 'Copy name' }));
  expect(await navigator.clipboard.readText()).toBe('xn--bcher-kva');
  expect(screen.getByText('Copied the name xn--bcher-kva.')).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Copy value' }));
  expect(await navigator.clipboard.readText()).toBe(TARGET);
  await user.click(screen.getByRole('button', { name: 'Copy record' }));
  expect(await navigator.clipboard.readText()).toBe(
    `xn--bcher-kva.${ZONE}. 3600 IN CNAME ${TARGET}.`,
  );
  await user.click(screen.getByRole('button', { name: 'I have created the record: continue' }));

  // Step 4: the check asks the DNS server chosen here; ready when the CNAME names the target.
  await expectStep(4, 'Check DNS');
  await user.click(screen.getByText(/^How to check/));
  await user.type(screen.getByLabelText('DNS server'), dns.address);
  await user.click(screen.getByRole('button', { name: 'Save how to check' }));
  await waitFor(() =>
    expect(screen.getByText(/^How to check/).textContent).toContain(`DNS server ${dns.address}`),
  );
  const toVerify = screen.getByRole('button', { name: 'Continue to Verify' });
  expect(toVerify.getAttribute('aria-disabled')).toBe('true');

  await user.click(screen.getByRole('button', { name: 'Check DNS' }));
  expect(await within(dnsResult()).findByText(/^Ready: DNS is set up/)).toBeTruthy();
  const ok = within(dnsResult()).getByText(
    `xn--bcher-kva.${ZONE} points to ${TARGET}, as it should.`,
    {
      exact: false,
    },
  );
  expect(ok.closest('[data-code]')?.getAttribute('data-code')).toBe('cname-ok');
  expect(dns.asked.some((q) => q.name === `xn--bcher-kva.${ZONE}` && q.type === 'CNAME')).toBe(
    true,
  );
  await waitFor(() => expect(toVerify.getAttribute('aria-disabled')).toBeNull());
  expect((await workspace(app)).progress[`bücher.${ZONE}`]?.lastCheck?.status).toBe('ready');
  await user.click(toVerify);

  // Step 5: Verify is done in the dashboard; the user reports success, which starts the certificate wait.
  await expectStep(5, 'Verify in the dashboard');
  expect(screen.getByText(/an existing A \(or AAAA\) record blocks the/)).toBeTruthy();
  expect(screen.getByText(/value differs from the target shown/)).toBeTruthy();
  const before = Date.now();
  await user.click(screen.getByRole('button', { name: 'Verification succeeded' }));
  await expectStep(6, 'Certificate');
  expect(screen.getByText(/nothing to install and nothing to renew/)).toBeTruthy();
  expect(screen.getByText(/usually within a couple of minutes/)).toBeTruthy();
  expect(screen.queryByRole('heading', { name: /No certificate 30 minutes/ })).toBeNull();
  await waitFor(async () => {
    const saved = (await workspace(app)).progress[`bücher.${ZONE}`];
    expect(saved?.step).toBe('certificate');
    expect(saved?.verifiedAt).toBeGreaterThanOrEqual(before);
  });

  await user.click(screen.getByRole('button', { name: 'The certificate is in place: continue' }));
  await expectStep(7, 'Live');
  expect(screen.getByText(/is live: the project is served at/)).toBeTruthy();

  // A second domain: the target is remembered for the environment, no need to paste it again.
  await user.click(screen.getByRole('button', { name: 'Done: back to all domains' }));
  const live = await screen.findByRole('region', { name: 'Live' });
  expect(within(live).getByText(/^Live since /)).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Add a domain' }));
  for (const box of screen.getAllByRole('checkbox')) await user.click(box);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.type(await screen.findByLabelText('Domain or subdomain'), `shop.${ZONE}`);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await expectStep(3, 'Create the DNS record');
  expect(screen.getByLabelText<HTMLInputElement>('Platform target').value).toBe(TARGET);
  expect(within(screen.getByRole('table')).getByText('shop')).toBeTruthy();
});

test('Verify failed because of a leftover A record: back to the check, misconfigured, the finding shown', async () => {
  const app = await startTestApp();
  await saveCheckSettings(app, dns.address);
  await saveProgress(app, {
    domain: `leftover.${ZONE}`,
    step: 'verify',
    lastCheck: { status: 'ready', at: Date.now() - 60_000 },
  });
  const { user } = await openDomains(app);
  await user.click(screen.getByRole('button', { name: `Resume leftover.${ZONE}` }));
  await expectStep(5, 'Verify in the dashboard');

  // Reporting the failure goes back to step 4 and checks at once.
  await user.click(screen.getByRole('button', { name: 'Verification failed: check DNS again' }));
  await expectStep(4, 'Check DNS');
  const result = dnsResult();
  expect(await within(result).findByText(/^Needs a change/)).toBeTruthy();
  const finding = result.querySelector('[data-code="conflicting-a-record"]');
  expect(finding?.textContent).toMatch(
    /has an A record \(192\.0\.2\.99\) at the same name\. Such a record blocks the CNAME/,
  );
  expect(finding?.textContent).toMatch(/Found192\.0\.2\.99/);
  expect(finding?.closest('[role="group"]')?.querySelector('h5')?.textContent).toBe('Must fix (1)');

  // Verify stays out of reach, with the reason.
  const toVerify = screen.getByRole('button', { name: 'Continue to Verify' });
  await user.click(toVerify);
  await waitFor(() =>
    expect(
      document.getElementById(toVerify.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toBe('The last check found something to fix.'),
  );
  await expectStep(4, 'Check DNS');
  await waitFor(async () =>
    expect((await workspace(app)).progress[`leftover.${ZONE}`]?.lastCheck?.status).toBe(
      'misconfigured',
    ),
  );
});

test('a name that does not exist yet: pending, with the 48-hour note and the negative-caching time', async () => {
  const app = await startTestApp();
  await saveCheckSettings(app, dns.address);
  await saveProgress(app, { domain: `new.${ZONE}`, step: 'check-dns' });
  const { user } = await openDomains(app);
  await user.click(screen.getByRole('button', { name: `Resume new.${ZONE}` }));
  await user.click(await screen.findByRole('button', { name: 'Check DNS' }));

  const result = dnsResult();
  expect(await within(result).findByText(/^Not there yet/)).toBeTruthy();
  const waiting = result.querySelector('[data-code="not-found"]');
  expect(waiting?.textContent).toMatch(
    /can take up to 48 hours to spread; most take a few minutes\. This DNS server may keep answering/,
  );
  expect(waiting?.textContent).toContain(
    `for up to ${NEGATIVE_TTL_WORDS}, so check again after that`,
  );
});

test('an apex gets an ALIAS or ANAME record, with the warning about DNS providers', async () => {
  const app = await startTestApp();
  await saveCheckSettings(app, dns.address);
  const { user } = await openDomains(app);
  await user.click(screen.getByRole('button', { name: 'Add a domain' }));
  for (const box of await screen.findAllByRole('checkbox')) await user.click(box);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.type(await screen.findByLabelText('Domain or subdomain'), 'Flat-Pets.invalid');
  expect(screen.getByText(/is an apex domain/).textContent).toBe(
    'flat-pets.invalid is an apex domain (the root of flat-pets.invalid, no subdomain): it needs an ALIAS or ANAME record instead of a CNAME.',
  );
  await user.click(screen.getByRole('button', { name: 'Continue' }));

  await expectStep(3, 'Create the DNS record');
  const record = screen.getByRole('table');
  expect(within(record).getByText('ALIAS (or ANAME)')).toBeTruthy();
  expect(within(record).getByText('@')).toBeTruthy();
  expect(within(record).queryByText('CNAME')).toBeNull();
  expect(screen.getByRole('note').textContent).toMatch(/Not every DNS provider supports them/);
  await user.click(screen.getByRole('button', { name: 'Copy record' }));
  expect(await navigator.clipboard.readText()).toBe(`flat-pets.invalid. 3600 IN ALIAS ${TARGET}.`);

  await user.click(screen.getByRole('button', { name: 'I have created the record: continue' }));
  await user.click(await screen.findByRole('button', { name: 'Check DNS' }));
  expect(await within(dnsResult()).findByText(/^Ready/)).toBeTruthy();
  expect(dnsResult().querySelector('[data-code="apex-alias-ok"]')).not.toBeNull();
});
