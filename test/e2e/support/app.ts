// One whole app for an end-to-end test: a sandbox on loopback, and the
// harness (tools/harness): the real main-process services in this process,
// registered on the Electron stand-in's ipcMain, and the app's window in the
// stand-in's Chromium, the built page with the built preload in its isolated
// world. The harness can be restarted on the same data folder (an app
// restart, in the same window) and the sandbox stopped (the service gone).
// Every Content-Security-Policy violation the page reports is kept, and
// closing the app fails the test if there was one. The data folder's file
// layer can be made to fail as a full or read-only disk would (`disk.fail`).

import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import {
  startSandbox,
  type Sandbox,
  type SandboxOptions,
} from '../../../src/main/sandbox/server.ts';
import { SANDBOX_DEMO_KEY } from '../../../src/shared/environments.ts';
import type { RecheckSchedule } from '../../../src/main/domains/recheck-schedule.ts';
import type * as HarnessModule from '../../../tools/harness/harness.ts';
import type { Harness } from '../../../tools/harness/harness.ts';
import { failingFiles, type FailingFiles } from '../../support/failing-files.ts';
import { inPage } from './in-page-shapes.ts';
import { blockedByMessage, folderOf, isCspMessage, violationIsTheApp } from './page-problems.ts';
import { STANDIN_RUNS_ON, standinRunsHere } from './standin.ts';

/**
 * The harness, loaded by Node itself: the app's Electron edge it runs
 * imports `electron`, which the stand-in maps with a hook on Node's own
 * resolver, and vitest's module runner resolves modules without it.
 */
export const { startHarness } = createRequire(import.meta.url)(
  '../../../tools/harness/harness.ts',
) as typeof HarnessModule;

/**
 * The tests of a file on the harness, which runs on the stand-in alone (in
 * this process), so only where the stand-in runs: elsewhere they are listed as
 * skipped, saying so.
 */
export function describeOnHarness(name: string, tests: () => void): void {
  describe.skipIf(!standinRunsHere)(`${name} (the harness: ${STANDIN_RUNS_ON})`, tests);
}

export interface E2EApp {
  readonly page: Page;
  readonly sandbox: Sandbox;
  readonly dataDir: string;
  /** The data folder's disk: `disk.fail('ENOSPC')` fills it, `disk.fail(undefined)` frees it. */
  readonly disk: Pick<FailingFiles, 'fail'>;
  harness: Harness;
  /** Closes the harness and opens a new one on the same data, as a restart of the app does. */
  restart(): Promise<void>;
  /** What the page reported against its Content-Security-Policy so far. */
  cspViolations(): readonly string[];
  /** Forgets the violations so far (after a test that causes one on purpose). */
  forgetCspViolations(): void;
  close(): Promise<void>;
}

export interface E2EAppOptions {
  readonly sandbox?: SandboxOptions;
  /** The key the app's Sandbox environment sends (the sandbox's demo key unless a test wants a refused one). */
  readonly appKey?: string;
  readonly viewport?: { readonly width: number; readonly height: number };
  /**
   * The page's zoom, as the View menu sets it (1.5 for 150%): Chromium's zoom
   * lays the page out in a viewport that many times smaller and paints it that
   * many times larger, which is what this emulates; `viewport` is then the
   * window's size in screen pixels.
   */
  readonly zoom?: number;
  /** When watched domains are checked again (a short schedule, so a badge changes within the test). */
  readonly recheckSchedule?: RecheckSchedule;
  /**
   * The page's clock is playwright's (installed before the page loads; it
   * runs as usual until the test moves it on with page.clock.fastForward),
   * so a test can reach the page's next timer, e.g. the automatic refresh.
   */
  readonly clock?: boolean;
}

/**
 * Where the tests' screenshots go: docs/screenshots with UPDATE_SCREENSHOTS=1
 * (npm run screenshots), otherwise a temporary folder, so npm test leaves the
 * work tree as it was.
 */
export const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS
  ? join(import.meta.dirname, '../../../docs/screenshots')
  : join(tmpdir(), 'store-admin-screenshots');

export async function startE2EApp(options: E2EAppOptions = {}): Promise<E2EApp> {
  const sandbox = await startSandbox({ port: 0, ...options.sandbox });
  const dataDir = mkdtempSync(join(tmpdir(), 'store-admin-e2e-'));
  const key = options.appKey ?? SANDBOX_DEMO_KEY;
  const disk = failingFiles();
  const errors: string[] = [];
  const csp: string[] = [];
  /** A violation counts against the app when its code caused it (page-problems.ts). */
  let appFiles = '';
  const report = (text: string, source: string, blocked: string) => {
    if (violationIsTheApp(source, blocked, appFiles))
      csp.push(`${text} (${source || 'no source'})`);
  };
  const window = options.viewport ?? { width: 1280, height: 800 };
  const zoom = options.zoom ?? 1;
  let harness = await startHarness({
    dataDir,
    sandbox: { baseUrl: sandbox.baseUrl, key },
    files: disk,
    ...(options.recheckSchedule ? { recheckSchedule: options.recheckSchedule } : {}),
    viewport: { width: Math.floor(window.width / zoom), height: Math.floor(window.height / zoom) },
    prepare: async (page) => {
      if (zoom !== 1) {
        const session = await page.context().newCDPSession(page);
        await session.send('Emulation.setDeviceMetricsOverride', {
          width: Math.floor(window.width / zoom),
          height: Math.floor(window.height / zoom),
          deviceScaleFactor: zoom,
          mobile: false,
        });
      }
      page.on('pageerror', (error) => errors.push(error.message));
      // Chromium says "Refused to apply inline style …" (and the like) on the console for each violation.
      page.on('console', (message) => {
        const text = message.text();
        if (isCspMessage(text)) report(text, message.location().url, blockedByMessage(text));
      });
      // Reported to the page itself too, in every document it loads.
      await page.exposeFunction('__reportCspViolation', report);
      await page.addInitScript(inPage.watchCspViolations);
      if (options.clock) await page.clock.install();
    },
  });
  appFiles = folderOf(harness.url);
  const page: Page = harness.page;
  const app: E2EApp = {
    page,
    sandbox,
    dataDir,
    disk,
    harness,
    async restart() {
      harness = await harness.restart();
      app.harness = harness;
    },
    cspViolations: () => [...csp],
    forgetCspViolations: () => void csp.splice(0),
    async close() {
      await harness.close();
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (errors.length > 0) throw new Error(`the page threw: ${errors.join('; ')}`);
      if (csp.length > 0) throw new Error(`Content-Security-Policy violations: ${csp.join('; ')}`);
    },
  };
  return app;
}
