// What a test starts and must end: temporary folders, the sandbox, the app in
// this process. Each is ended after the test, the last started first (an app
// before the server it talks to, both before the folder they write in).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/main/sandbox/server.ts';
import { startInProcessApp, type InProcessApp } from './in-process-app.ts';

export interface Scratch {
  /** Runs `cleanup` after the test, before whatever was registered earlier. */
  later(cleanup: () => unknown): void;
  /** A new temporary folder, removed after the test. */
  folder(): string;
  /** The sandbox on a free loopback port, closed after the test. */
  sandbox(options?: Omit<SandboxOptions, 'port'>): Promise<Sandbox>;
  /** The app on `dataDir`, on Production at `baseUrl` with `key` saved, closed after the test. */
  productionApp(dataDir: string, baseUrl: string, key?: string): Promise<InProcessApp>;
}

/** Call once at a spec file's top level; `name` tells its temporary folders apart. */
export function useScratch(name: string): Scratch {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const later = (cleanup: () => unknown): void => void cleanups.push(cleanup);
  return {
    later,
    folder() {
      const dir = mkdtempSync(join(tmpdir(), `store-admin-${name}-`));
      later(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    },
    async sandbox(options = {}) {
      const started = await startSandbox({ ...options, port: 0 });
      later(() => started.close());
      return started;
    },
    async productionApp(dataDir, baseUrl, key = 'demo-pro') {
      const started = await startInProcessApp({
        dataDir,
        settings: { activeEnvironment: 'production', baseUrls: { production: baseUrl } },
      });
      later(() => started.close());
      await started.api.keys.set('production', key);
      return started;
    },
  };
}
