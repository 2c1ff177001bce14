// A large list (200,000 orders, unthrottled) through the real main bundle
// arrives whole, on Electron or on its stand-in. On the stand-in its parts
// are too large for the DevTools protocol's strings, so it hands them to the
// preload's world through files (web-contents.ts), in order with everything
// else.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import {
  appHome,
  canRunApp,
  itNeedsStandin,
  launchApp,
  type AppHome,
  type AppRun,
} from './support/electron-app.ts';

const KEY = 'stg-large-list-Key-5a7d';
const ORDERS = 200_000;

let staging: Sandbox;
let home: AppHome;
let run: AppRun;

describe.skipIf(!canRunApp)('a large list through the real main bundle', () => {
  beforeAll(async () => {
    staging = await startSandbox({
      port: 0,
      orders: ORDERS,
      keys: [{ plan: 'enterprise', key: KEY }],
    });
    home = appHome();
    run = await launchApp({ home });
  });
  afterAll(async () => {
    await run?.stop();
    await staging?.close();
    home?.remove();
  });

  it('shows every order', async () => {
    const page = await run.page();
    await page.evaluate(
      async ([url, key]) => {
        const api = (
          window as unknown as {
            storeAdmin: {
              environments: { setBaseUrl(e: string, u: string): Promise<unknown> };
              keys: { set(e: string, k: string, o: object): Promise<unknown> };
            };
          }
        ).storeAdmin;
        await api.environments.setBaseUrl('staging', url!);
        await api.keys.set('staging', key!, {});
      },
      [staging.baseUrl, KEY],
    );
    await page.getByRole('radio', { name: 'Staging' }).check();
    await expect
      .poll(() => page.locator('.view-count').textContent(), { timeout: 60_000 })
      .toBe('Showing 200,000 of 200,000 orders');
    // The last order is there, with its own id.
    await page.getByRole('searchbox', { name: 'Search by order or pet ID' }).fill('200000');
    await page
      .getByRole('grid', { name: 'Staging orders' })
      .getByRole('rowheader', { name: '200000', exact: true })
      .waitFor();
  });

  itNeedsStandin(
    'sent the large parts through files',
    "the files are the stand-in's carrier between main and the page",
    async () => {
      const [window] = (await run.standin().state()).windows;
      expect(window!.spilled).toBeGreaterThan(0);
    },
  );
});
