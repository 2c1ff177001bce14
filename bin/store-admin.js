#!/usr/bin/env node
// The store-admin command. Runs the TypeScript CLI with Node's type stripping
// (Node 22.18 or newer; the project's npm scripts use the Node 24 it installs).
// Node's compile cache (in the system's temporary folder) makes each run start
// in a fraction of the time, which counts when a script runs the command in a loop.
import module from 'node:module';

module.enableCompileCache?.();
await import('../src/cli/index.ts');
