// The environment switcher and the header it sits in, on the real app.

import { screen, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';

async function activeInMain(app: Awaited<ReturnType<typeof startTestApp>>): Promise<string> {
  const state = await app.api.app.getState();
  if (!state.ok) throw new Error(state.error.message);
  return state.value.activeEnvironment;
}

test('starts on the sandbox, marked in words as demo data', async () => {
  const app = await startTestApp();
  renderApp(app);

  const group = await screen.findByRole('radiogroup', { name: 'Environment' });
  expect(
    within(group)
      .getAllByRole('radio')
      .map((radio) => radio.getAttribute('value')),
  ).toEqual(['sandbox', 'staging', 'production']);
  expect(within(group).getByRole<HTMLInputElement>('radio', { name: 'Sandbox' }).checked).toBe(
    true,
  );
  expect(screen.getByText('SANDBOX — demo data')).toBeTruthy();
  expect(screen.queryByText(/PRODUCTION/)).toBeNull();
});

test('switching to production asks the main process and marks production in words, not colour alone', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);

  const production = await screen.findByRole('radio', { name: /Production/ });
  await user.click(production);

  const band = await screen.findByText('PRODUCTION — live orders');
  expect(band.className).toContain('band-production');
  expect((production as HTMLInputElement).checked).toBe(true);
  // The option itself says "live" too.
  expect(production.closest('label')?.textContent).toBe('Production — live');
  expect(screen.queryByText('SANDBOX — demo data')).toBeNull();
  expect(await activeInMain(app)).toBe('production');
  // The orders screen follows the switch.
  expect(screen.getByRole('heading', { name: 'Orders — Production' })).toBeTruthy();
});

test('a switch made while the app is still loading stays made when the load answers after it', async () => {
  const app = await startTestApp();
  // The app's first state (asked for at once, Sandbox active) answers only once let go.
  let letGo!: () => void;
  const held = new Promise<void>((resolve) => (letGo = resolve));
  const getState = app.api.app.getState;
  const api = {
    ...app.api,
    app: {
      ...app.api.app,
      getState: async () => {
        const answer = await getState();
        await held;
        return answer;
      },
    },
  };
  const { user } = renderApp({ ...app, api });
  const radio = (name: string) => screen.getByRole<HTMLInputElement>('radio', { name });

  expect(screen.getByText('Loading…')).toBeTruthy();
  await user.click(radio('Staging'));
  await expect.poll(() => activeInMain(app)).toBe('staging');
  expect(radio('Staging').checked).toBe(true);
  letGo();
  expect(await screen.findByRole('heading', { name: 'Orders — Staging' })).toBeTruthy();
  // Before, the load's answer (Sandbox) came last and the switcher went back to it, while
  // main had switched: the band said Sandbox over Staging's orders.
  expect(radio('Staging').checked).toBe(true);
  expect(screen.getByText('STAGING — test service')).toBeTruthy();
  expect(screen.queryByText('SANDBOX — demo data')).toBeNull();
});

test('the arrow keys only move the focus; Enter or Space switches', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);
  const radio = (name: string | RegExp) => screen.getByRole<HTMLInputElement>('radio', { name });

  const sandbox = await screen.findByRole('radio', { name: 'Sandbox' });
  sandbox.focus();
  // Two presses from Sandbox reach Production, and nothing switches on the way.
  await user.keyboard('{ArrowRight}{ArrowRight}');
  expect(document.activeElement).toBe(radio(/^Production/));
  expect(radio('Sandbox').checked).toBe(true);
  expect(screen.getByText('SANDBOX — demo data')).toBeTruthy();
  // Round the ends, both ways, and Home and End.
  await user.keyboard('{ArrowDown}');
  expect(document.activeElement).toBe(radio('Sandbox'));
  await user.keyboard('{ArrowUp}');
  expect(document.activeElement).toBe(radio(/^Production/));
  await user.keyboard('{Home}');
  expect(document.activeElement).toBe(radio('Sandbox'));
  await user.keyboard('{End}{ArrowLeft}');
  expect(document.activeElement).toBe(radio('Staging'));
  expect(await activeInMain(app)).toBe('sandbox');

  await user.keyboard('{Enter}');
  expect(await screen.findByText('STAGING — test service')).toBeTruthy();
  expect(radio('Staging').checked).toBe(true);
  expect(await activeInMain(app)).toBe('staging');

  await user.keyboard('{ArrowLeft}');
  expect(document.activeElement).toBe(radio('Sandbox'));
  expect(radio('Staging').checked).toBe(true);
  await user.keyboard(' ');
  expect(await screen.findByText('SANDBOX — demo data')).toBeTruthy();
  expect(await activeInMain(app)).toBe('sandbox');
});

test('the header quota line starts unknown and shows what the first answer reported', async () => {
  const app = await startTestApp();
  const { user } = renderApp(app);

  expect(await screen.findByText('Quota unknown')).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Refresh' }));

  // The sandbox's demo key is on the Pro plan: 300 a minute, one used by the refresh.
  expect(await screen.findByText('299 of 300 left')).toBeTruthy();
});
