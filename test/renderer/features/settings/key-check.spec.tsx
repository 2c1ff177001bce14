// A key saved in Settings is checked with one request, never more, and the
// field says what really happened: saved (or kept until quit), then what the
// service said of it. Never "accepted" for a key the service was not asked about.

import { screen, waitFor } from '@testing-library/react';
import { expect, test } from 'vitest';
import { startExtraSandbox, startScriptedServer, startTestApp } from '../../support/test-app.tsx';
import type { TestApp, TestAppOptions } from '../../support/test-app-shapes.ts';
import { openSettings, STAGING_KEY } from './settings-kit.tsx';

async function saveStagingKey(app: TestApp, key: string) {
  const view = await openSettings(app);
  const field = screen.getByLabelText<HTMLInputElement>('API key');
  await view.user.type(field, key);
  await view.user.click(screen.getByRole('button', { name: 'Save key' }));
  return { ...view, field };
}

/** The key field's message once the save and its check are over. */
async function keyMessage(field: HTMLInputElement): Promise<string> {
  await waitFor(() => expect(screen.getByRole('button', { name: 'Save key' })).toBeTruthy());
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ');
  const text = ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
  return text;
}

async function appWithStaging(options: TestAppOptions = {}) {
  const app = await startTestApp(options);
  const staging = await startExtraSandbox({ keys: [{ plan: 'free', key: STAGING_KEY }] });
  await app.api.environments.setBaseUrl('staging', staging.baseUrl);
  return { app, staging };
}

test('a wrong key is saved and said to be refused, after one request', async () => {
  const { app, staging } = await appWithStaging();
  const { field } = await saveStagingKey(app, 'wrong-key-123');

  expect(
    await screen.findByText(
      'Key saved for Staging. The service did not accept it: check the key and enter it again.',
    ),
  ).toBeTruthy();
  expect(await keyMessage(field)).not.toMatch(/accepted it|Key accepted/);
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(field.value).toBe('');
  expect(app.keys.status('staging').set).toBe(true);
  expect(staging.requestLog.map(({ method, path }) => `${method} ${path}`)).toEqual([
    'GET /v1/store/orders',
  ]);
});

test('a right key is said to be accepted by the service', async () => {
  const { app, staging } = await appWithStaging();
  await saveStagingKey(app, STAGING_KEY);

  expect(await screen.findByText('Key saved for Staging. The service accepted it.')).toBeTruthy();
  expect(staging.requestLog).toHaveLength(1);
});

test('a key kept for the session only is not said to be saved', async () => {
  const { app } = await appWithStaging({ backend: 'basic_text' });
  await saveStagingKey(app, STAGING_KEY);

  expect(
    await screen.findByText('Key kept for Staging until you quit. The service accepted it.'),
  ).toBeTruthy();
  expect(screen.queryByText(/Key saved for/)).toBeNull();
});

test('with no address yet, the key is saved and nothing is sent', async () => {
  const app = await startTestApp();
  await saveStagingKey(app, STAGING_KEY);

  expect(
    await screen.findByText(
      'Key saved for Staging. Save the address above, then test the connection.',
    ),
  ).toBeTruthy();
});

test('a service that cannot be reached: saved, not checked, and tried once only', async () => {
  const app = await startTestApp();
  const gone = await startExtraSandbox();
  const address = gone.baseUrl;
  await gone.close();
  await app.api.environments.setBaseUrl('staging', address);
  await saveStagingKey(app, STAGING_KEY);

  expect(
    await screen.findByText(
      'Key saved for Staging. Not checked: the service could not be reached. Test the connection once it can.',
    ),
  ).toBeTruthy();
});

test('an answer that says nothing of the key is not retried: one request, and said as unclear', async () => {
  const app = await startTestApp();
  const failing = await startScriptedServer((_request, response) => {
    response.writeHead(503, { 'content-type': 'application/json' });
    response.end('{"code":"unavailable","message":"Down for maintenance","status":503}');
  });
  await app.api.environments.setBaseUrl('staging', failing.baseUrl);
  await saveStagingKey(app, STAGING_KEY);

  expect(
    await screen.findByText(
      'Key saved for Staging. Not checked: the service did not answer as expected. Test the connection for the details.',
    ),
  ).toBeTruthy();
  expect(failing.requests).toHaveLength(1);
});
