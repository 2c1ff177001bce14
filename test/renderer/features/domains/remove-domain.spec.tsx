// Removing a domain: warned that traffic stops at once, offered a redirect
// first, then its saved progress forgotten.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { startTestApp } from '../../support/test-app.tsx';
import { ZONE } from './dns-server.ts';
import { openDomains, saveProgress, workspace } from './domains-kit.tsx';

test('remove warns that traffic stops at once, offers a redirect first, then forgets the domain', async () => {
  const app = await startTestApp();
  await saveProgress(app, {
    domain: `old.${ZONE}`,
    step: 'live',
    verifiedAt: Date.now() - 86_400_000,
  });
  await saveProgress(app, { domain: `shop.${ZONE}`, step: 'check-dns' });
  const saved = await app.api.domains.saveConfig('sandbox', {
    primary: `old.${ZONE}`,
    redirects: [],
  });
  expect(saved.ok).toBe(true);
  const { user } = await openDomains(app);

  // First the redirect.
  await user.click(screen.getByRole('button', { name: `Remove old.${ZONE}…` }));
  let dialog = screen.getByRole('dialog', { name: `Remove old.${ZONE}?` });
  expect(dialog.textContent).toMatch(/Removing a domain stops serving traffic at once\./);
  expect(dialog.textContent).toMatch(/If the address was shared outside .* add a\s+redirect first/);
  expect(
    within(dialog).getByText(/The multi-domain configuration still uses old\./).textContent,
  ).toMatch(/it is the primary domain/);
  const addRedirect = within(dialog).getByRole('button', { name: 'Add a redirect first' });
  expect(document.activeElement).toBe(addRedirect);
  await user.click(addRedirect);

  expect(screen.queryByRole('dialog')).toBeNull();
  const section = screen.getByRole('region', { name: 'Several domains' });
  await waitFor(() =>
    expect(document.activeElement).toBe(
      within(section).getByRole('heading', { name: 'Several domains' }),
    ),
  );
  expect((within(section).getByLabelText('Redirect 1: from') as HTMLInputElement).value).toBe(
    `old.${ZONE}`,
  );
  expect(
    within(section).getByText(
      new RegExp(`^Added a redirect from old\\.${ZONE.replace('.', '\\.')}`),
    ),
  ).toBeTruthy();
  // Nothing removed yet.
  expect(Object.keys((await workspace(app)).progress).sort()).toEqual([
    `old.${ZONE}`,
    `shop.${ZONE}`,
  ]);

  // Then the removal itself; Cancel first leaves it in place.
  await user.click(screen.getByRole('button', { name: `Remove old.${ZONE}…` }));
  dialog = screen.getByRole('dialog', { name: `Remove old.${ZONE}?` });
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(screen.getByRole('button', { name: `Resume old.${ZONE}` })).toBeTruthy();

  await user.click(screen.getByRole('button', { name: `Remove old.${ZONE}…` }));
  dialog = screen.getByRole('dialog', { name: `Remove old.${ZONE}?` });
  await user.click(within(dialog).getByRole('button', { name: `Remove old.${ZONE}` }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(screen.queryByRole('button', { name: `Resume old.${ZONE}` })).toBeNull();
  expect(screen.getByRole('button', { name: `Resume shop.${ZONE}` })).toBeTruthy();
  expect(Object.keys((await workspace(app)).progress)).toEqual([`shop.${ZONE}`]);
});
