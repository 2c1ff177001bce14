// Step 1 says "Before you start" once, in its heading (the step list beside it
// names every step), and its help reads as help: nothing is wrong before the
// clerk has answered anything.

import { screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { startTestApp } from '../../support/test-app.tsx';
import { expectStep, openDomains } from './domains-kit.tsx';

function description(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

test('"Before you start" is said once in the step; the question is the group’s name', async () => {
  const app = await startTestApp();
  const { user } = await openDomains(app);
  await user.click(screen.getByRole('button', { name: 'Add a domain' }));
  const heading = await expectStep(1, 'Before you start');
  const step = heading.closest('section')!;

  expect(within(step).getAllByText(/Before you start/)).toEqual([heading]);
  const group = within(step).getByRole('group', {
    name: 'The dashboard takes a custom domain only when all three are true:',
  });
  expect(within(group).getAllByRole('checkbox')).toHaveLength(3);
  // The question is asked once: not also as a sentence above the group.
  expect(within(step).getAllByText(/only when all three are true/)).toHaveLength(1);
});

test('before anything is answered, each point’s help is a help ("If not, …"), not a problem', async () => {
  const app = await startTestApp();
  const { user } = await openDomains(app);
  await user.click(screen.getByRole('button', { name: 'Add a domain' }));
  await expectStep(1, 'Before you start');

  for (const box of screen.getAllByRole('checkbox')) {
    expect(description(box)).toMatch(/^If not, /);
  }
  const proceed = screen.getByRole('button', { name: 'Continue' });
  expect(description(proceed)).toBe('Tick all three above to continue.');

  await user.click(screen.getByRole('checkbox', { name: /paid plan/ }));
  expect(description(proceed)).toBe('Two points are still to tick.');
  await user.click(screen.getByRole('checkbox', { name: /deployed successfully/ }));
  expect(description(proceed)).toBe('One point is still to tick.');
});
