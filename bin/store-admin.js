#!/usr/bin/env node
// The store-admin command. Runs the TypeScript CLI with Node's type stripping
// (Node 22.18 or newer; the project's npm scripts use the Node 24 it installs).
import '../src/cli/index.ts';
