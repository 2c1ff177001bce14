// The Domains screen opens on the project the clerk last looked at, after a
// restart of the window too (a UI preference); a project no longer there
// leaves the screen on the newest one.

import { screen } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { UI_PREFERENCES_KEY } from '../../../../src/renderer/src/ui-preferences.tsx';
import { renderApp, startTestApp } from '../../support/test-app.tsx';

afterEach(() => localStorage.clear());

const openDomains = async () => {
  const view = renderApp(app);
  await view.user.click(await screen.findByRole('button', { name: 'Domains' }));
  return {
    view,
    picker: await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Project' }),
  };
};

let app: Awaited<ReturnType<typeof startTestApp>>;

test('the project last looked at comes back with the window', async () => {
  app = await startTestApp();
  for (const name of ['Pet Shop', 'Bird Shop'])
    expect((await app.api.domains.addProject(name)).ok).toBe(true);

  const first = await openDomains();
  // The newest project at first.
  expect(first.picker.selectedOptions[0]?.textContent).toBe('Bird Shop');
  await first.view.user.selectOptions(first.picker, 'Pet Shop');
  expect(first.picker.selectedOptions[0]?.textContent).toBe('Pet Shop');
  first.view.unmount();

  const second = await openDomains();
  expect(second.picker.selectedOptions[0]?.textContent).toBe('Pet Shop');
  second.view.unmount();

  // A remembered project that is not there any more: the newest one, as without a preference.
  const saved = JSON.parse(localStorage.getItem(UI_PREFERENCES_KEY)!) as { state: object };
  localStorage.setItem(
    UI_PREFERENCES_KEY,
    JSON.stringify({ ...saved, state: { ...saved.state, domainProject: 'gone-shop' } }),
  );
  const third = await openDomains();
  expect(third.picker.selectedOptions[0]?.textContent).toBe('Bird Shop');
});
