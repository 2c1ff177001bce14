// What the assistant's tests share: the window opened on the Domains screen
// of a real in-process app, saved state put in place through the real API,
// and the step the assistant shows.

import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { DomainProgress, DomainWorkspace } from '../../../../src/shared/domain-assistant.ts';
import { renderApp } from '../../support/test-app.tsx';
import type { TestApp } from '../../support/test-app-shapes.ts';
import { TARGET } from './dns-server.ts';

/** The published project the tests' domains belong to. */
export const PROJECT = 'pet-shop';

/** Adds the tests' project (again is the same project), as the Domains screen's first visit does. */
export async function addProject(app: TestApp): Promise<void> {
  const added = await app.api.domains.addProject('Pet Shop');
  expect(added.ok).toBe(true);
}

/** Renders the window and opens the Domains screen once the project's saved domains are loaded. */
export async function openDomains(app: TestApp) {
  await addProject(app);
  const view = renderApp(app);
  await view.user.click(await screen.findByRole('button', { name: 'Domains' }));
  await screen.findByRole('heading', { name: 'Custom domains' });
  await screen.findByRole('heading', { name: 'In progress' });
  return view;
}

/** The target and this test's DNS server, saved for the project as step 3 and step 4 would. */
export async function saveCheckSettings(app: TestApp, resolver: string): Promise<void> {
  await addProject(app);
  const saved = await app.api.domains.saveSettings(PROJECT, { target: TARGET, resolver });
  expect(saved.ok).toBe(true);
}

export async function saveProgress(
  app: TestApp,
  progress: Omit<DomainProgress, 'preconditions' | 'updatedAt'> & Partial<DomainProgress>,
): Promise<void> {
  await addProject(app);
  const saved = await app.api.domains.saveProgress(PROJECT, {
    preconditions: { paidPlan: true, dnsAccess: true, deployed: true },
    updatedAt: Date.now(),
    ...progress,
  });
  expect(saved.ok).toBe(true);
}

export async function workspace(app: TestApp): Promise<DomainWorkspace> {
  const result = await app.api.domains.workspace(PROJECT);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** The assistant's current step: its heading, and the item marked in the step list. */
export async function expectStep(number: number, title: string): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { name: `Step ${number} of 7: ${title}` });
  const steps = screen.getByRole('list', { name: 'Steps to attach a custom domain' });
  const current = within(steps)
    .getAllByRole('listitem')
    .filter((item) => item.getAttribute('aria-current') === 'step');
  expect(current.map((item) => item.textContent)).toEqual([`${number}${title}`]);
  return heading;
}

/** The live region holding the last DNS check's result. */
export function dnsResult(): HTMLElement {
  return screen.getByRole('status', { name: 'DNS check result' });
}
