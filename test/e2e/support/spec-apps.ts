// What several end-to-end spec files share: the apps (and the extra
// sandboxes standing in for Staging or Production) a file opens, closed
// together when it ends, after its axe summary; and the orders grid, found
// once its first row is on screen.

import type { Locator, Page } from 'playwright-core';
import {
  startSandbox,
  type Sandbox,
  type SandboxOptions,
} from '../../../src/main/sandbox/server.ts';
import { startE2EApp, type E2EApp, type E2EAppOptions } from './app.ts';
import { axeSummary } from './screens.ts';

export interface SpecApps {
  /** An app with its own sandbox, closed at the end of the file. */
  open(options?: E2EAppOptions): Promise<E2EApp>;
  /** A sandbox on loopback for another environment, closed at the end of the file. */
  sandbox(options: Omit<SandboxOptions, 'port'>): Promise<Sandbox>;
  /** For the file's afterAll: logs its axe summary, closes every app and sandbox. */
  closeAll(): Promise<void>;
}

/** The apps and sandboxes of the spec file `file` (named in its axe summary). */
export function specApps(file: string): SpecApps {
  const apps: E2EApp[] = [];
  const sandboxes: Sandbox[] = [];
  return {
    async open(options = {}) {
      const app = await startE2EApp(options);
      apps.push(app);
      return app;
    },
    async sandbox(options) {
      const sandbox = await startSandbox({ port: 0, ...options });
      sandboxes.push(sandbox);
      return sandbox;
    },
    async closeAll() {
      console.log(axeSummary(file));
      await Promise.all([
        ...apps.splice(0).map((app) => app.close()),
        ...sandboxes.splice(0).map((sandbox) => sandbox.close()),
      ]);
    },
  };
}

/** The orders grid of an environment. */
function gridOf(page: Page, environment = 'Sandbox'): Locator {
  return page.getByRole('grid', { name: `${environment} orders` });
}

/** The orders grid, once its first order's row is on screen (a long wait: a busy machine). */
export async function gridShown(page: Page, environment = 'Sandbox'): Promise<Locator> {
  const grid = gridOf(page, environment);
  await grid.locator('[role="row"][aria-rowindex="2"]').waitFor({ timeout: 60_000 });
  return grid;
}
