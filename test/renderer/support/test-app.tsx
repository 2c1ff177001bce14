// The real app (test/support/in-process-app.ts) and extra sandboxes for
// renderer tests, loaded at run time by path (see test-app-shapes.ts), and the
// whole window rendered on the app's API.

import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { onTestFinished } from 'vitest';
import { App } from '../../../src/renderer/src/App.tsx';
import type {
  InProcessAppModule,
  SandboxModule,
  ScriptedServerModule,
  TestApp,
  TestAppOptions,
  TestSandbox,
  TestSandboxOptions,
  TestScriptedServer,
} from './test-app-shapes.ts';

// Paths relative to this file; held in variables so the web tsconfig does not follow them.
const IN_PROCESS_APP = '../../support/in-process-app.ts';
const SANDBOX_SERVER = '../../../src/main/sandbox/server.ts';
const SCRIPTED_SERVER = '../../support/scripted-server.ts';
const NODE_FS = 'node:fs';
const NODE_OS = 'node:os';
const NODE_PATH = 'node:path';

interface NodeFiles {
  mkdtempSync(prefix: string): string;
  rmSync(path: string, options: { recursive: boolean; force: boolean }): void;
}

/**
 * A temporary data folder that outlives the apps started on it (each app
 * leaves a folder it was given in place), removed when the test ends: to
 * start the app again on the same data, as after a restart.
 */
export async function makeDataDir(): Promise<string> {
  const fs = (await import(/* @vite-ignore */ NODE_FS)) as NodeFiles;
  const os = (await import(/* @vite-ignore */ NODE_OS)) as { tmpdir(): string };
  const path = (await import(/* @vite-ignore */ NODE_PATH)) as { join(...parts: string[]): string };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-admin-renderer-'));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The real main-process services behind the real API, closed when the test ends. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const module = (await import(/* @vite-ignore */ IN_PROCESS_APP)) as InProcessAppModule;
  const app = await module.startInProcessApp(options);
  onTestFinished(() => app.close());
  return app;
}

/** A second sandbox on loopback, to stand in for a remote environment; closed when the test ends. */
export async function startExtraSandbox(options: TestSandboxOptions = {}): Promise<TestSandbox> {
  const module = (await import(/* @vite-ignore */ SANDBOX_SERVER)) as SandboxModule;
  const sandbox = await module.startSandbox({ port: 0, ...options });
  onTestFinished(() => sandbox.close());
  return sandbox;
}

/** A server on loopback answering as `script` says, recording each request; closed when the test ends. */
export async function startScriptedServer(
  script: Parameters<ScriptedServerModule['scriptedServer']>[0],
): Promise<TestScriptedServer> {
  const module = (await import(/* @vite-ignore */ SCRIPTED_SERVER)) as ScriptedServerModule;
  const server = await module.scriptedServer(script);
  onTestFinished(() => server.close());
  return server;
}

/**
 * Something between this computer and the service that limits requests with
 * its own 429 page, as nginx's limit_req does (no X-RateLimit-* headers, an
 * HTML body, a Retry-After), for every request; closed when the test ends.
 */
export async function startGatewayLimit(retryAfterSeconds = 120): Promise<TestScriptedServer> {
  return startScriptedServer((_request, response) => {
    response.writeHead(429, {
      'content-type': 'text/html',
      'retry-after': String(retryAfterSeconds),
    });
    response.end('<html><body><center><h1>429 Too Many Requests</h1></center></body></html>');
  });
}

/** Renders the whole window on the app's API, as the preload would expose it. */
export function renderApp(app: TestApp) {
  window.storeAdmin = app.api;
  // No pause between keystrokes: typing a key or an address stays fast on a busy machine.
  const user = userEvent.setup({ delay: null });
  const view = render(<App orderStreams={app.orderStreams} />);
  return { user, ...view };
}
