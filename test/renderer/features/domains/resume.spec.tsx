// Coming back later: a new app on the same data folder offers each saved
// domain and resumes it at its step, with the remembered settings.

import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { startDnsServer, TARGET, ZONE, type DnsServer } from './dns-server.ts';
import type { DomainWorkspace } from '../../../../src/shared/domain-assistant.ts';
import type { TestApp } from '../../support/test-app-shapes.ts';
import {
  dnsResult,
  expectStep,
  openDomains,
  saveCheckSettings,
  saveProgress,
} from './domains-kit.tsx';

/** The step in the last save result the window received for `domain`. */
function savedStep(app: TestApp, domain: string): string | undefined {
  const saves = app.received.filter(
    (item): item is { ok: true; value: DomainWorkspace } =>
      typeof item === 'object' &&
      item !== null &&
      'ok' in item &&
      item.ok === true &&
      'value' in item &&
      typeof item.value === 'object' &&
      item.value !== null &&
      'progress' in item.value,
  );
  return saves.at(-1)?.value.progress[domain]?.step;
}

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(() => dns.close());

test('a domain left at "Check DNS" is offered again after re-opening, and resumes there', async () => {
  const first = await startTestApp();
  await saveCheckSettings(first, dns.address);
  const { user, unmount } = await openDomains(first);
  await user.click(screen.getByRole('button', { name: 'Add a domain' }));
  for (const box of await screen.findAllByRole('checkbox')) await user.click(box);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.type(await screen.findByLabelText('Domain or subdomain'), `shop.${ZONE}`);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.click(
    await screen.findByRole('button', { name: 'I have created the record: continue' }),
  );
  await expectStep(4, 'Check DNS');
  // Saved with the step change: the save has returned (written to disk) before the window closes.
  await waitFor(() => expect(savedStep(first, `shop.${ZONE}`)).toBe('check-dns'));
  unmount();

  // Two days later: a new app instance on the same data folder.
  const second = await startTestApp({ dataDir: first.dataDir });
  const { user: again } = await openDomains(second);
  const item = screen.getByText(`shop.${ZONE}`).closest('li');
  expect(item?.textContent).toMatch(/Step 4 of 7: Check DNS ·/);
  await again.click(
    within(item as HTMLElement).getByRole('button', { name: `Resume shop.${ZONE}` }),
  );

  const heading = await expectStep(4, 'Check DNS');
  expect(document.activeElement).toBe(heading);
  expect(screen.getByText(/^How to check:/).textContent).toContain(`DNS server ${dns.address}`);
  await again.click(screen.getByRole('button', { name: 'Check DNS' }));
  expect(await within(dnsResult()).findByText(/^Ready/)).toBeTruthy();
  expect(
    within(dnsResult()).getByText(new RegExp(`points to ${TARGET.replace(/\./g, '\\.')}`)),
  ).toBeTruthy();

  // Earlier steps are marked done in the step list.
  const steps = screen.getByRole('list', { name: 'Steps to attach a custom domain' });
  expect(within(steps).getAllByText('(done)')).toHaveLength(3);
});

test('saved progress that lacks what its step needs resumes at the last step it supports', async () => {
  const app = await startTestApp();
  // "Verify" without a DNS check that said ready; "certificate" without verifiedAt.
  await saveProgress(app, {
    domain: `a.${ZONE}`,
    step: 'verify',
    lastCheck: { status: 'pending', at: 1 },
  });
  await saveProgress(app, {
    domain: `b.${ZONE}`,
    step: 'certificate',
    lastCheck: { status: 'ready', at: 1 },
  });
  await saveProgress(app, {
    domain: `c.${ZONE}`,
    step: 'check-dns',
    preconditions: { paidPlan: true, dnsAccess: false, deployed: true },
  });
  const { user } = await openDomains(app);

  await user.click(screen.getByRole('button', { name: `Resume a.${ZONE}` }));
  await expectStep(4, 'Check DNS');
  await user.click(screen.getByRole('button', { name: 'Back to all domains' }));
  await user.click(await screen.findByRole('button', { name: `Resume b.${ZONE}` }));
  await expectStep(5, 'Verify in the dashboard');
  await user.click(screen.getByRole('button', { name: 'Back to all domains' }));
  await user.click(await screen.findByRole('button', { name: `Resume c.${ZONE}` }));
  await expectStep(1, 'Before you start');
  expect(
    screen.getByRole<HTMLInputElement>('checkbox', { name: /change the DNS settings/ }).checked,
  ).toBe(false);
  expect(screen.getByRole<HTMLInputElement>('checkbox', { name: /paid plan/ }).checked).toBe(true);
});

test('domain work belongs to its published project, whichever environment is in use', async () => {
  const app = await startTestApp();
  await saveProgress(app, { domain: `shop.${ZONE}`, step: 'configure-dns' });
  const { user } = await openDomains(app);
  expect(screen.queryByText(/Saved for/)).toBeNull();
  await user.click(screen.getByRole('button', { name: `Resume shop.${ZONE}` }));
  await expectStep(3, 'Create the DNS record');

  // Another environment in the header changes nothing here: the domain is the project's.
  await user.click(screen.getByRole('radio', { name: /Staging/ }));
  await screen.findByText('STAGING — test service');
  await expectStep(3, 'Create the DNS record');
  await user.click(screen.getByRole('button', { name: 'Back to all domains' }));
  expect(await screen.findByRole('button', { name: `Resume shop.${ZONE}` })).toBeTruthy();

  // Another project has its own domains (none yet); choosing the first one again brings its own back.
  await user.click(screen.getByRole('button', { name: 'Add a project…' }));
  await user.type(screen.getByLabelText('Project name'), 'Pet Blog');
  await user.click(screen.getByRole('button', { name: 'Add project' }));
  const picker = () => screen.getByRole<HTMLSelectElement>('combobox', { name: 'Project' });
  expect(await screen.findByText('No domain in progress.')).toBeTruthy();
  expect(picker().selectedOptions[0]?.textContent).toBe('Pet Blog');
  await user.selectOptions(picker(), 'Pet Shop');
  expect(await screen.findByRole('button', { name: `Resume shop.${ZONE}` })).toBeTruthy();
  // The projects are kept: another start lists both, with their work.
  expect((await app.api.domains.projects()).ok && (await app.api.domains.projects())).toMatchObject(
    {
      value: [
        { id: 'pet-shop', name: 'Pet Shop' },
        { id: 'pet-blog', name: 'Pet Blog' },
      ],
    },
  );
});

test('the first visit asks which published project the domains are for', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  await user.click(await screen.findByRole('button', { name: 'Domains' }));
  const name = await screen.findByLabelText('Project name');
  expect(screen.getByText(/Custom domains belong to a published project/)).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Add the project' }));
  expect(screen.getByText('Enter the project’s name as the dashboard shows it.')).toBeTruthy();
  await user.type(name, 'Pet Shop');
  await user.click(screen.getByRole('button', { name: 'Add the project' }));
  expect(await screen.findByRole('heading', { name: 'In progress' })).toBeTruthy();
  expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Project' }).value).toBe(
    'pet-shop',
  );
});
