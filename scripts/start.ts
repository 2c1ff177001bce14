// npm start / npm run dev: electron-vite's preview (build, then the app) or
// dev (renderer on Vite's dev server). ELECTRON_OVERRIDE_DIST_PATH is the one
// variable a user sets to run an Electron that is already on disk (an
// unpacked Electron, or tools/electron-standin/dist): the electron package
// and electron-builder read it, electron-vite does not (it reads
// ELECTRON_EXEC_PATH or the electron package's path.txt), so it is handed on
// as the executable it names, the way the electron package names it. Without
// it, Electron's npm package fetches its binary on first use; where that
// cannot happen, say so in one line instead of a stack trace.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const electronDir = dirname(require.resolve('electron/package.json'));

/** The executable's name inside an Electron distribution, as the electron package reads it. */
function executableName(): string {
  const pathFile = join(electronDir, 'path.txt');
  return existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : 'electron';
}

/** The Electron to run: ELECTRON_EXEC_PATH, or the one ELECTRON_OVERRIDE_DIST_PATH names (electron's index.js does the same join). */
export function electronExecutable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.ELECTRON_EXEC_PATH) return env.ELECTRON_EXEC_PATH;
  if (env.ELECTRON_OVERRIDE_DIST_PATH)
    return join(env.ELECTRON_OVERRIDE_DIST_PATH, executableName());
  const pathFile = join(electronDir, 'path.txt');
  return existsSync(pathFile)
    ? join(electronDir, 'dist', readFileSync(pathFile, 'utf8'))
    : undefined;
}

/** electron-vite's command line script, found through its package.json (its exports allow nothing else). */
export function electronViteBin(): string {
  const manifest = require.resolve('electron-vite/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(manifest), bin['electron-vite']!);
}

/** The one line npm start says when it cannot have Electron. */
export function cannotStartMessage(reason?: string): string {
  return (
    `Store Admin cannot start: the Electron binary could not be downloaded${reason ? ` (${reason.slice(0, 160)})` : ''}. ` +
    'To see the app in a browser instead, run npm run harness; to open it here, set ELECTRON_OVERRIDE_DIST_PATH to an unpacked Electron (or to tools/electron-standin/dist).'
  );
}

function start(mode: 'dev' | 'preview'): void {
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  let executable = electronExecutable();
  if (override && (!executable || !existsSync(executable))) {
    console.error(
      `Store Admin cannot start: ELECTRON_OVERRIDE_DIST_PATH is ${override}, but there is no ${executableName()} in it.`,
    );
    process.exit(1);
  }
  if (!executable || !existsSync(executable)) {
    console.log('Downloading the Electron binary (once)...');
    const install = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
      encoding: 'utf8',
    });
    executable = electronExecutable();
    if (install.status !== 0 || !executable || !existsSync(executable)) {
      const reason = `${install.stderr ?? ''}${install.stdout ?? ''}`
        .split('\n')
        .find((line) => /error|fail|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/i.test(line))
        ?.trim();
      console.error(cannotStartMessage(reason));
      process.exit(1);
    }
  }

  // What follows `npm start --` goes to Electron (its own switches: --inspect, --remote-debugging-port, …).
  const electronArgs = process.argv.slice(3);
  const child = spawn(
    process.execPath,
    [electronViteBin(), mode, ...(electronArgs.length > 0 ? ['--', ...electronArgs] : [])],
    { stdio: 'inherit', env: { ...process.env, ELECTRON_EXEC_PATH: executable } },
  );
  // Passed on, so the app quits as it does when the desktop asks it to.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
}

if (import.meta.main) start(process.argv[2] === 'dev' ? 'dev' : 'preview');
