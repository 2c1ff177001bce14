// The connection test speaks to someone who is in Settings already: no
// sentence sends them to Settings, a status code is a detail behind
// "Details", and the test cannot be started before there is an address.

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import {
  startExtraSandbox,
  startScriptedServer,
  startTestApp,
  type renderApp,
} from '../../support/test-app.tsx';
import { openSettings, STAGING_KEY } from './settings-kit.tsx';

async function testResult(user: ReturnType<typeof renderApp>['user']): Promise<HTMLElement> {
  await user.click(screen.getByRole('button', { name: 'Test connection' }));
  const result = screen.getByRole('status', { name: 'Staging connection test' });
  await waitFor(() => expect(result.textContent).not.toMatch(/^$|Testing/));
  return result;
}

/** The result's sentence: its text without the Details disclosure. */
function sentence(result: HTMLElement): string {
  const copy = result.cloneNode(true) as HTMLElement;
  copy.querySelector('details')?.remove();
  return copy.textContent ?? '';
}

test('with no address, Test connection is disabled and says why; nothing is sent', async () => {
  const app = await startTestApp();
  const { user } = await openSettings(app);

  const button = screen.getByRole('button', { name: 'Test connection' });
  expect(button.getAttribute('aria-disabled')).toBe('true');
  const reasonIds = (button.getAttribute('aria-describedby') ?? '').split(' ');
  const reason = reasonIds.map((id) => document.getElementById(id)?.textContent).join(' ');
  expect(reason).toContain('Save the Staging address above first.');

  await user.click(button);
  expect(screen.getByRole('status', { name: 'Staging connection test' }).textContent ?? '').toBe(
    '',
  );
});

test('a refused key: one sentence pointing above, the status code only under Details', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox({ keys: [{ plan: 'free', key: STAGING_KEY }] });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  await app.api.keys.set('staging', 'wrong-key-123');
  const { user } = await openSettings(app);

  const result = await testResult(user);

  expect(sentence(result)).toBe(
    'The service did not accept the Staging API key. Enter the right key above.',
  );
  expect(sentence(result)).not.toMatch(/Settings|\(401\)/);
  expect(within(result).getByText('HTTP 401', { exact: false })).toBeTruthy();
});

test('no key yet: it says to enter it above, not in Settings', async () => {
  const app = await startTestApp();
  const staging = await startExtraSandbox({ keys: [{ plan: 'free', key: STAGING_KEY }] });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  const { user } = await openSettings(app);

  const result = await testResult(user);

  expect(sentence(result)).toBe('No API key is set for Staging yet. Enter it above.');
  expect(staging.requestLog).toEqual([]);
});

test('a service error keeps its plain sentence; the status and its words go under Details', async () => {
  const app = await startTestApp();
  const failing = await startScriptedServer((_request, response) => {
    response.writeHead(503, { 'content-type': 'application/json' });
    response.end('{"code":"unavailable","message":"Down for maintenance","status":503}');
  });
  await app.api.environments.setBaseUrl('staging', failing.baseUrl);
  await app.api.keys.set('staging', STAGING_KEY);
  const { user } = await openSettings(app);

  const result = await testResult(user);

  expect(sentence(result)).toBe(
    'The store service had a problem and did not finish the request, though Store Admin tried 3 times. Try again in a few minutes.',
  );
  const details = within(result).getByText('Details').closest('details');
  expect(details?.textContent).toContain('HTTP 503');
  expect(details?.textContent).toContain('Down for maintenance');
});
