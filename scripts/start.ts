// npm start / npm run dev. Electron's npm package fetches its binary on first
// use; where that cannot happen (no access to Electron's downloads) say so in
// one line instead of a stack trace, then hand over to electron-vite.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const mode = process.argv[2] === 'dev' ? 'dev' : 'preview';
const require = createRequire(import.meta.url);
const electronDir = dirname(require.resolve('electron/package.json'));

function binaryPresent(): boolean {
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) return true;
  const pathFile = join(electronDir, 'path.txt');
  return (
    existsSync(pathFile) && existsSync(join(electronDir, 'dist', readFileSync(pathFile, 'utf8')))
  );
}

/** The one line npm start says when it cannot have Electron. */
export function cannotStartMessage(reason?: string): string {
  return (
    `Store Admin cannot start: the Electron binary could not be downloaded${reason ? ` (${reason.slice(0, 160)})` : ''}. ` +
    'To see the app in a browser instead, run npm run harness; to open it here, set ELECTRON_OVERRIDE_DIST_PATH to an unpacked Electron.'
  );
}

function start(): void {
  if (!binaryPresent()) {
    console.log('Downloading the Electron binary (once)...');
    const install = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
      encoding: 'utf8',
    });
    if (install.status !== 0 || !binaryPresent()) {
      const reason = `${install.stderr ?? ''}${install.stdout ?? ''}`
        .split('\n')
        .find((line) => /error|fail|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/i.test(line))
        ?.trim();
      console.error(cannotStartMessage(reason));
      process.exit(1);
    }
  }

  const child = spawn(
    process.execPath,
    [require.resolve('electron-vite/bin/electron-vite.js'), mode],
    { stdio: 'inherit' },
  );
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
}

if (import.meta.main) start();
