#!/usr/bin/env node
// `npm run <script>` as an Electron executable, for Playwright's Electron
// driver: the switches it gives an Electron (--inspect=0,
// --remote-debugging-port=0, --no-sandbox) go after `--`, which `npm start`
// and `npm run dev` hand to the Electron they start (scripts/start.ts), and
// that Electron's "listening on" lines come out here. The script is
// STORE_ADMIN_NPM_SCRIPT (default: start). Tests only.

import { spawn } from 'node:child_process';

const script = process.env.STORE_ADMIN_NPM_SCRIPT || 'start';
const windows = process.platform === 'win32';
const args = ['run', script, '--', ...process.argv.slice(2)];
// npm is a .cmd on Windows, which only a shell runs: each argument quoted for it.
const child = windows
  ? spawn(['npm.cmd', ...args].map((arg) => `"${arg.replace(/"/g, '\\"')}"`).join(' '), {
      stdio: 'inherit',
      shell: true,
    })
  : spawn('npm', args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
