// The stand-in's `electron` executable runs this (dist/electron): Electron's
// command line (`electron [switches] [path]`, or no path for a packaged app,
// which loads resources/app.asar beside the executable), then the app's main
// script in Node with the module `electron` mapped to the stand-in
// (electron/index.ts), then Chromium, then `ready`. Development and tests
// only; see README.md for what it models and what it cannot.

import { extractAll } from '@electron/asar';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import inspector from 'node:inspector';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FUSE, readFuses } from './fuses.ts';

const HOME = import.meta.dirname;

function fail(message: string): never {
  console.error(`[electron-standin] ${message}`);
  process.exit(1);
}

const registerHooks = (nodeModule as { registerHooks?: typeof nodeModule.registerHooks })
  .registerHooks;
if (typeof registerHooks !== 'function')
  fail(
    `Node ${process.versions.node} is too old for the Electron stand-in: it needs node:module's registerHooks (Node 22.15 or 23.5 and later). npm install puts Node 24 in node_modules/.bin/node.`,
  );

const execPath = process.env.ELECTRON_STANDIN_EXECUTABLE ?? join(HOME, 'dist', 'electron');
delete process.env.ELECTRON_STANDIN_EXECUTABLE;
const fuses = readFuses(execPath);
const fuse = (index: number, fallback: boolean) => (fuses ? fuses(index) : fallback);

// NODE_OPTIONS was applied before this script ran: with the fuse off, run again without it.
if (process.env.NODE_OPTIONS && !fuse(FUSE.EnableNodeOptionsEnvironmentVariable, true)) {
  const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_STANDIN_EXECUTABLE: execPath };
  delete env.NODE_OPTIONS;
  const again = spawnSync(process.execPath, process.argv.slice(1), { stdio: 'inherit', env });
  process.exit(again.status ?? 1);
}

const args = process.argv.slice(2);
const switches = new Map<string, string>();
const positional: string[] = [];
for (const arg of args) {
  const match = /^--?([^=]+)(?:=(.*))?$/.exec(arg);
  if (match) {
    const name = match[1]!;
    if (/^inspect/.test(name) && !fuse(FUSE.EnableNodeCliInspectArguments, true)) continue;
    switches.set(name, match[2] ?? '');
  } else positional.push(arg);
}

openInspector(switches);

/**
 * Node's inspector on the main process, as Electron opens it for `--inspect`
 * and `--inspect-brk` (`[host:]port`, 127.0.0.1:9229 by default; 0 for a free
 * port): Node prints its own "Debugger listening on ws://…" line, which
 * debuggers and playwright's Electron driver read, and code evaluated there
 * finds `require('electron')` mapped as the app's is.
 */
function openInspector(given: ReadonlyMap<string, string>): void {
  const name = ['inspect-brk', 'inspect'].find((n) => given.has(n));
  if (name === undefined) return;
  const value = given.get(name) || given.get('inspect-port') || '';
  const match = /^(?:(.*):)?(\d+)$/.exec(value);
  if (value !== '' && !match) fail(`--${name}=${value}: expected [host:]port`);
  const host = match?.[1] || '127.0.0.1';
  const port = match ? Number(match[2]) : 9229;
  inspector.open(port, host, name === 'inspect-brk');
}

// ELECTRON_RUN_AS_NODE: plain Node, as Electron does while the fuse allows it.
if (process.env.ELECTRON_RUN_AS_NODE && fuse(FUSE.RunAsNode, true)) {
  const script = positional[0];
  if (!script) fail('ELECTRON_RUN_AS_NODE needs a script to run.');
  process.argv = [process.argv[0]!, resolve(script), ...positional.slice(1)];
  await import(pathToFileURL(resolve(script)).href);
} else {
  await startApp();
}

/** A packaged app's asar, unpacked for this run into a temporary folder removed at exit (the stand-in reads no asar in place). */
function unpackAsar(asar: string): string {
  const target = mkdtempSync(join(tmpdir(), 'electron-standin-app-'));
  process.on('exit', () => rmSync(target, { recursive: true, force: true }));
  extractAll(asar, target);
  return target;
}

function findApp(): { appPath: string; main: string } {
  const resources = join(dirname(execPath), 'resources');
  const packagedApp = (): string | undefined => {
    if (existsSync(join(resources, 'app.asar'))) return unpackAsar(join(resources, 'app.asar'));
    if (!fuse(FUSE.OnlyLoadAppFromAsar, false) && existsSync(join(resources, 'app')))
      return join(resources, 'app');
    return undefined;
  };
  const given = fuse(FUSE.OnlyLoadAppFromAsar, false) ? undefined : positional[0];
  const location = given === undefined ? packagedApp() : resolve(given);
  if (location === undefined)
    fail('No app to run: give its folder (electron .) or package it (resources/app.asar).');
  if (!existsSync(location)) fail(`Unable to find Electron app at ${location}`);
  if (statSync(location).isFile()) return { appPath: dirname(location), main: location };
  let main = 'index.js';
  try {
    main =
      (JSON.parse(readFileSync(join(location, 'package.json'), 'utf8')) as { main?: string })
        .main ?? main;
  } catch {
    fail(`Unable to find Electron app at ${location}: no package.json`);
  }
  return { appPath: location, main: resolve(location, main) };
}

async function startApp(): Promise<void> {
  const { appPath, main } = findApp();
  const { configureRuntime, isPackagedExecutable } = await import('./electron/runtime.ts');
  const isPackaged = isPackagedExecutable(execPath);
  const display = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  const headless =
    process.env.ELECTRON_STANDIN_HEADLESS === '1' ||
    (process.env.ELECTRON_STANDIN_HEADLESS !== '0' && !display);
  configureRuntime({ appPath, execPath, isPackaged, argv: args, headless, switches });

  const electronPackage = join(HOME, '../../node_modules/electron/package.json');
  Object.assign(process.versions, {
    electron: existsSync(electronPackage)
      ? (JSON.parse(readFileSync(electronPackage, 'utf8')) as { version: string }).version
      : '0.0.0-standin',
    chrome: 'stand-in',
  });
  Object.assign(process, {
    type: 'browser',
    resourcesPath: join(dirname(execPath), 'resources'),
    defaultApp: !isPackaged,
  });

  const { mapElectronToStandin } = await import('./hook.ts');
  mapElectronToStandin();

  const { app, dialog } = await import('./electron/index.ts');
  const { windowList } = await import('./electron/browser-window.ts');
  const { startChromium, stopChromium, devtoolsEndpoint } = await import('./electron/chromium.ts');
  const { startControl } = await import('./control.ts');
  const controlDir = process.env.ELECTRON_STANDIN_CONTROL;
  const control = controlDir ? await startControl(controlDir) : undefined;
  app.attachWindows(windowList, async () => {
    await stopChromium();
    await control?.close();
  });
  // Electron quits gracefully on SIGINT and SIGTERM; a second signal ends it.
  let signalled = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (signalled) process.exit(130);
      signalled = true;
      app.quit();
    });
  }

  try {
    await import(pathToFileURL(main).href);
  } catch (error) {
    // Electron shows this dialog and keeps running without a window.
    dialog.showErrorBox(
      'A JavaScript error occurred in the main process',
      String((error as Error)?.stack ?? error),
    );
    console.error('A JavaScript error occurred in the main process:', error);
  }

  setImmediate(() => {
    if (app.quitting) return;
    const portSwitch = switches.get('remote-debugging-port');
    startChromium({
      profileDir: join(app.getPath('sessionData'), 'Electron Stand-in'),
      headless,
      fileProtocolPrivileges: fuse(FUSE.GrantFileProtocolExtraPrivileges, true),
      ...(portSwitch !== undefined
        ? { remoteDebuggingPort: Number(portSwitch) }
        : control
          ? { remoteDebuggingPort: 0 }
          : {}),
    }).then(
      (context) => {
        context.on('close', () => {
          if (!app.quitting) app.exit(0);
        });
        const devtools = devtoolsEndpoint();
        // Electron's Chromium says where its DevTools listen, on stderr, as Chromium does.
        if (portSwitch !== undefined && devtools)
          process.stderr.write(`\nDevTools listening on ${devtools.browser}\n`);
        control?.publish({ devtools: devtools?.http });
        app.markReady();
      },
      (error: unknown) => fail(`Chromium did not start: ${String(error)}`),
    );
  });
}
