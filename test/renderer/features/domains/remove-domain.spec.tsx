// Removing a domain: warned that traffic stops at once, offered a redirect
// first (a step of the same dialog, with a way back), then its saved
// progress forgotten. The redirect itself is in domains-seams.spec.tsx.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { startTestApp } from '../../support/test-app.tsx';
import { ZONE } from './dns-server.ts';
import { openDomains, saveProgress, workspace, PROJECT, addProject } from './domains-kit.tsx';

test('remove warns that traffic stops at once, offers a redirect first, then forgets the domain', async () => {
  const app = await startTestApp();
  await saveProgress(app, {
    domain: `old.${ZONE}`,
    step: 'live',
    verifiedAt: Date.now() - 86_400_000,
  });
  await saveProgress(app, { domain: `shop.${ZONE}`, step: 'check-dns' });
  await addProject(app);
  const saved = await app.api.domains.saveConfig(PROJECT, {
    primary: `old.${ZONE}`,
    redirects: [],
  });
  expect(saved.ok).toBe(true);
  const { user } = await openDomains(app);

  await user.click(screen.getByRole('button', { name: `Remove old.${ZONE}…` }));
  let dialog = screen.getByRole('dialog', { name: `Remove old.${ZONE}?` });
  expect(dialog.textContent).toMatch(/stops its traffic at once/);
  expect(dialog.textContent).toMatch(/If the address was shared .* add a redirect first\./);
  expect(within(dialog).getByText(/still uses old\./).textContent).toMatch(
    /it is the primary domain/,
  );
  const addRedirect = within(dialog).getByRole('button', { name: 'Add a redirect first' });
  expect(document.activeElement).toBe(addRedirect);

  // The redirect step and back: nothing changed, the focus where it was.
  await user.click(addRedirect);
  const to = within(dialog).getByRole('textbox', { name: `Redirect old.${ZONE} to` });
  expect(document.activeElement).toBe(to);
  await user.click(within(dialog).getByRole('button', { name: 'Back' }));
  await waitFor(() =>
    expect(document.activeElement).toBe(
      within(dialog).getByRole('button', { name: 'Add a redirect first' }),
    ),
  );
  expect(Object.keys((await workspace(app)).progress).sort()).toEqual([
    `old.${ZONE}`,
    `shop.${ZONE}`,
  ]);

  // Cancel leaves it in place.
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(screen.getByRole('button', { name: `Open old.${ZONE}` })).toBeTruthy();

  await user.click(screen.getByRole('button', { name: `Remove old.${ZONE}…` }));
  dialog = screen.getByRole('dialog', { name: `Remove old.${ZONE}?` });
  await user.click(within(dialog).getByRole('button', { name: `Remove old.${ZONE}` }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(screen.queryByRole('button', { name: `Open old.${ZONE}` })).toBeNull();
  expect(screen.getByRole('button', { name: `Resume shop.${ZONE}` })).toBeTruthy();
  expect(Object.keys((await workspace(app)).progress)).toEqual([`shop.${ZONE}`]);
  // Removing a domain here does not change the configuration: that is the clerk's choice.
  expect((await workspace(app)).config?.primary).toBe(`old.${ZONE}`);
});
