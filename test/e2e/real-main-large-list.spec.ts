// A large list (200,000 orders, unthrottled) through the real main bundle in
// the Electron stand-in arrives whole: its parts are too large for the
// DevTools protocol's strings, so the stand-in hands them to the preload's
// world through files (web-contents.ts), in order with everything else.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import { hasChromium } from '../../tools/browser/chromium.ts';
import {
  ROOT,
  STANDIN_ELECTRON,
  standinHome,
  startStandin,
  type StandinHome,
  type StandinRun,
} from './support/standin.ts';

const KEY = 'stg-large-list-Key-5a7d';
const ORDERS = 200_000;

let staging: Sandbox;
let home: StandinHome;
let run: StandinRun;

describe.skipIf(!hasChromium)('a large list through the Electron stand-in', () => {
  beforeAll(async () => {
    staging = await startSandbox({
      port: 0,
      orders: ORDERS,
      keys: [{ plan: 'enterprise', key: KEY }],
    });
    home = standinHome();
    run = startStandin([STANDIN_ELECTRON, '.'], { cwd: ROOT, home });
  });
  afterAll(async () => {
    await run?.stop();
    await staging?.close();
    home?.remove();
  });

  it('shows every order, and the large parts went through files', async () => {
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
    const [window] = (await run.state()).windows;
    expect(window!.spilled).toBeGreaterThan(0);
    // The last order is there, with its own id.
    await page.getByRole('searchbox', { name: 'Search by order or pet ID' }).fill('200000');
    await page
      .getByRole('grid', { name: 'Staging orders' })
      .getByRole('rowheader', { name: '200000', exact: true })
      .waitFor();
  });
});
