// `npm start` where Electron cannot be had says so in one line and exits 1,
// never with a stack trace: Electron's download failing (a mirror that does
// not answer), and ELECTRON_OVERRIDE_DIST_PATH naming a folder without an
// Electron in it.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../e2e/support/standin.ts';

const empty = mkdtempSync(join(tmpdir(), 'store-admin-no-electron-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

function npmStart(env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    // npm is a .cmd on Windows, which only a shell runs.
    const windows = process.platform === 'win32';
    const child = spawn(windows ? 'npm.cmd' : 'npm', ['start'], {
      shell: windows,
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

describe('npm start without an Electron', () => {
  it('says in one line that the download failed, and how to go on', async () => {
    const { code, output } = await npmStart({
      ELECTRON_OVERRIDE_DIST_PATH: '',
      ELECTRON_EXEC_PATH: '',
      ELECTRON_MIRROR: 'http://127.0.0.1:9/',
      electron_config_cache: join(empty, 'cache'),
    });
    expect(code).toBe(1);
    const line = output.split('\n').find((l) => l.startsWith('Store Admin cannot start'));
    expect(line).toMatch(/the Electron binary could not be downloaded/);
    expect(line).toMatch(/ELECTRON_OVERRIDE_DIST_PATH/);
    expect(output).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
  });

  it('names the folder when ELECTRON_OVERRIDE_DIST_PATH holds no Electron', async () => {
    const { code, output } = await npmStart({
      ELECTRON_OVERRIDE_DIST_PATH: empty,
      ELECTRON_EXEC_PATH: '',
    });
    expect(code).toBe(1);
    expect(output).toContain(
      `Store Admin cannot start: ELECTRON_OVERRIDE_DIST_PATH is ${empty}, but there is no electron in it.`,
    );
    expect(output).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
  });
});
