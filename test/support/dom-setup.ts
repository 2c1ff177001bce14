// Setup of the renderer tests (vitest project "dom", jsdom): unmount what a
// test rendered after each test, and give async queries time for real HTTP
// round trips to the in-process sandbox.

import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import type * as sandboxServer from '../../src/main/sandbox/server.ts';
import type {
  InProcessAppModule,
  SandboxModule,
  ScriptedServerModule,
} from '../renderer/support/test-app-shapes.ts';
import type * as inProcessApp from './in-process-app.ts';
import type * as scriptedServer from './scripted-server.ts';

// Real HTTP on loopback: generous when the machine is busy, still bounded.
configure({ asyncUtilTimeout: 8_000 });
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
});

// The renderer tests load the in-process app and the sandbox by path (see
// test/renderer/support/test-app-shapes.ts); here, under the node tsconfig, the real
// modules are checked against the shapes those tests rely on.
type Fits<Actual extends Expected, Expected> = Actual;
export type InProcessAppFits = Fits<typeof inProcessApp, InProcessAppModule>;
export type SandboxServerFits = Fits<typeof sandboxServer, SandboxModule>;
export type ScriptedServerFits = Fits<typeof scriptedServer, ScriptedServerModule>;
