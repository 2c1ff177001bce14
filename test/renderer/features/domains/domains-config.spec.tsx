// Several domains: offered once the project has a domain, the configuration
// checked as it is edited (messages tied to their fields), shown and copied
// as pretty-printed JSON, saved per project.

import { screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import type { DomainsConfig } from '../../../../src/shared/domain-assistant.ts';
import { domainsConfigJson } from '../../../../src/shared/domains-config.ts';
import { startTestApp } from '../../support/test-app.tsx';
import { ZONE } from './dns-server.ts';
import { openDomains, PROJECT, saveProgress, workspace } from './domains-kit.tsx';

/** What describes a field or button: its one message (or the reason a button is out of reach). */
function problemOf(element: HTMLElement): string | undefined {
  const id = element.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? undefined) : undefined;
}

test('the form is offered only once the project has a domain', async () => {
  const app = await startTestApp();
  const { user } = await openDomains(app);
  expect(screen.getByText('No domain in progress.')).toBeTruthy();
  expect(screen.queryByRole('region', { name: 'Several domains' })).toBeNull();
  // The first domain is added: the form is there on the way back to the list.
  await user.click(screen.getByRole('button', { name: 'Add a domain' }));
  for (const box of await screen.findAllByRole('checkbox')) await user.click(box);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.type(screen.getByLabelText('Domain or subdomain'), `shop.${ZONE}`);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.click(await screen.findByRole('button', { name: 'Back to all domains' }));
  expect(await screen.findByRole('region', { name: 'Several domains' })).toBeTruthy();
});

test('the configuration is checked as it is edited, copied as JSON and saved', async () => {
  const app = await startTestApp();
  await saveProgress(app, { domain: `shop.${ZONE}`, step: 'live', verifiedAt: Date.now() });
  const { user } = await openDomains(app);
  const section = screen.getByRole('region', { name: 'Several domains' });
  const save = within(section).getByRole('button', { name: 'Save configuration' });
  // Nothing to point at before anything is typed; Save says what it needs.
  expect(problemOf(save)).toBe('Enter the primary domain to save.');
  expect(within(section).queryByLabelText('The configuration as JSON')).toBeNull();

  await user.type(within(section).getByLabelText('Primary domain'), ZONE);
  await user.click(within(section).getByRole('button', { name: 'Add a redirect' }));
  const from1 = within(section).getByLabelText('Redirect 1: from');
  const to1 = within(section).getByLabelText('Redirect 1: to');
  // The destination starts as the primary.
  expect((to1 as HTMLInputElement).value).toBe(ZONE);
  // An empty field nobody has typed in yet is not pointed at.
  expect(problemOf(from1)).toBeUndefined();
  expect(problemOf(save)).toBe('Put right the problem above to save.');

  // Redirecting the primary away.
  await user.type(from1, ZONE);
  expect(problemOf(from1)).toMatch(/is the primary domain, so it cannot be redirected/);
  expect(problemOf(to1)).toMatch(/redirects to itself, so visitors would never arrive/);
  expect(from1.getAttribute('aria-invalid')).toBe('true');

  // A loop between two redirects.
  await user.clear(from1);
  await user.type(from1, `www.${ZONE}`);
  await user.clear(to1);
  await user.type(to1, `old.${ZONE}`);
  await user.click(within(section).getByRole('button', { name: 'Add a redirect' }));
  const from2 = within(section).getByLabelText('Redirect 2: from');
  const to2 = within(section).getByLabelText('Redirect 2: to');
  await user.type(from2, `old.${ZONE}`);
  await user.clear(to2);
  await user.type(to2, `www.${ZONE}`);
  expect(problemOf(to1)).toBe(
    `Redirect 1: the redirects go round in a loop (www.${ZONE} → old.${ZONE} → www.${ZONE}), so visitors would never arrive. Point one of them at the primary domain.`,
  );
  expect(problemOf(save)).toBe('Put right the 2 problems above to save.');

  // A redirect to a domain that is itself redirected.
  await user.clear(to2);
  await user.type(to2, ZONE);
  expect(problemOf(to1)).toBe(
    `Redirect 1: old.${ZONE} is itself redirected (to ${ZONE}), so it serves nothing. Redirect www.${ZONE} straight to ${ZONE}, a domain that is served.`,
  );

  // The same domain redirected twice, spelled differently.
  await user.clear(to1);
  await user.type(to1, ZONE);
  await user.clear(from2);
  await user.type(from2, `WWW.${ZONE}.`);
  expect(problemOf(from2)).toBe(
    `Redirect 2: www.${ZONE} is already redirected by redirect 1. A domain can be redirected only once; remove one of them.`,
  );
  // Not a host name.
  await user.clear(from2);
  await user.type(from2, 'old pets');
  expect(problemOf(from2)).toMatch(/is not a valid name: it contains spaces/);

  // Invalid: nothing saved, no JSON.
  await user.click(save);
  expect(save.getAttribute('aria-disabled')).toBe('true');
  expect((await workspace(app)).config).toBeUndefined();

  await user.clear(from2);
  await user.type(from2, `Bücher.${ZONE}`);
  expect(problemOf(save)).toBeUndefined();
  const config: DomainsConfig = {
    primary: ZONE,
    redirects: [
      { from: `www.${ZONE}`, to: ZONE, status: 301 },
      { from: `xn--bcher-kva.${ZONE}`, to: ZONE, status: 301 },
    ],
  };
  const json = within(section).getByLabelText('The configuration as JSON');
  expect(json.textContent).toBe(domainsConfigJson(config));
  expect(json.textContent).toContain('\n    "primary": ');
  await user.click(within(section).getByRole('button', { name: 'Copy JSON' }));
  expect(await navigator.clipboard.readText()).toBe(domainsConfigJson(config));
  expect(within(section).getByText('Copied the configuration as JSON.')).toBeTruthy();

  await user.click(save);
  expect(await within(section).findByText(/^Configuration saved\./)).toBeTruthy();
  expect((await workspace(app)).config).toEqual(config);
});

test('a saved configuration is loaded for editing and can be cleared', async () => {
  const app = await startTestApp();
  await saveProgress(app, { domain: ZONE, step: 'live', verifiedAt: Date.now() });
  const saved = await app.api.domains.saveConfig(PROJECT, {
    primary: ZONE,
    redirects: [{ from: `www.${ZONE}`, to: ZONE, status: 301 }],
  });
  expect(saved.ok).toBe(true);
  const { user } = await openDomains(app);
  const section = screen.getByRole('region', { name: 'Several domains' });
  expect(within(section).getByLabelText<HTMLInputElement>('Primary domain').value).toBe(ZONE);
  expect(within(section).getByLabelText<HTMLInputElement>('Redirect 1: from').value).toBe(
    `www.${ZONE}`,
  );
  expect(within(section).getByText('301, moved permanently')).toBeTruthy();

  await user.click(within(section).getByRole('button', { name: 'Remove redirect 1' }));
  expect(within(section).queryByLabelText('Redirect 1: from')).toBeNull();
  await user.click(within(section).getByRole('button', { name: 'Clear the saved configuration' }));
  expect(await within(section).findByText('Configuration cleared.')).toBeTruthy();
  expect((await workspace(app)).config).toBeUndefined();
});
