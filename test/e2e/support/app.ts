// One whole app for an end-to-end test: a sandbox on loopback, the harness
// serving the built renderer against the real main-process services, and a
// page in Debian's Chromium. The harness can be restarted on the same data
// folder (an app restart) and the sandbox stopped (the service gone).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  startSandbox,
  type Sandbox,
  type SandboxOptions,
} from '../../../src/main/sandbox/server.ts';
import { startHarness, type Harness } from '../../../tools/harness/server.ts';
import { launchChromium } from './browser.ts';

export interface E2EApp {
  readonly page: Page;
  readonly sandbox: Sandbox;
  readonly dataDir: string;
  harness: Harness;
  /** Closes the harness and opens a new one on the same data, as a restart of the app does. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Where the tests' screenshots go: docs/screenshots with UPDATE_SCREENSHOTS=1
 * (npm run screenshots), otherwise a temporary folder, so npm test leaves the
 * work tree as it was.
 */
export const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS
  ? join(import.meta.dirname, '../../../docs/screenshots')
  : join(tmpdir(), 'store-admin-screenshots');

export async function startE2EApp(options: { sandbox?: SandboxOptions } = {}): Promise<E2EApp> {
  const sandbox = await startSandbox({ port: 0, ...options.sandbox });
  const dataDir = mkdtempSync(join(tmpdir(), 'store-admin-e2e-'));
  const open = () =>
    startHarness({ dataDir, sandbox: { baseUrl: sandbox.baseUrl, key: 'demo-pro' } });
  let harness = await open();
  const browser: Browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(harness.url);
  const app: E2EApp = {
    page,
    sandbox,
    dataDir,
    harness,
    async restart() {
      await harness.close();
      harness = await open();
      app.harness = harness;
      await page.goto('about:blank');
      await page.goto(harness.url);
    },
    async close() {
      await browser.close();
      await harness.close();
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (errors.length > 0) throw new Error(`the page threw: ${errors.join('; ')}`);
    },
  };
  return app;
}
