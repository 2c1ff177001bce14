// For a newcomer: what `npm start` says where Electron cannot be
// had, and the harness's --help, options and build check.

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { cannotStartMessage } from '../../scripts/start.ts';
import { buildIsCurrent } from '../../tools/harness/build-state.ts';
import { parseHarnessArgs } from '../../tools/harness/cli.ts';

const run = promisify(execFile);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('npm start without Electron', () => {
  it('says in its one line that npm run harness shows the app in a browser', () => {
    const line = cannotStartMessage('getaddrinfo ENOTFOUND github.com');
    expect(line).not.toContain('\n');
    expect(line).toContain('ENOTFOUND');
    expect(line).toMatch(/in a browser.*npm run harness|npm run harness.*in a browser/);
  });
});

describe('npm run harness', () => {
  it('lists its options and the sandbox options it passes through with --help', async () => {
    const { stdout } = await run(process.execPath, ['tools/harness/cli.ts', '--help']);
    for (const option of [
      '--port',
      '--data-dir',
      '--plan',
      '--rebuild',
      '--help',
      '--minute-ms',
      '--faults',
      '--orders',
      '--key PLAN=KEY',
    ]) {
      expect(stdout).toContain(option);
    }
    // Its own --port, not the sandbox's (which always takes a free one).
    expect(stdout.match(/--port/g)).toHaveLength(1);
  });

  it('passes sandbox options through, and takes the plan of the Sandbox environment', () => {
    const options = parseHarnessArgs([
      '--plan',
      'free',
      '--minute-ms',
      '5000',
      '--faults',
      '5xx@0.5',
      '--orders=10',
      '--port',
      '4500',
    ]);
    expect(options).toMatchObject({
      plan: 'free',
      port: 4500,
      sandbox: { minuteMs: 5000, orders: 10, port: 0 },
    });
    expect(options.sandbox.faults).toBeDefined();
    expect(() => parseHarnessArgs(['--plan', 'gold'])).toThrow(/--plan must be one of/);
    expect(() => parseHarnessArgs(['--minute-ms', 'soon'])).toThrow(/--minute-ms/);
  });

  it('builds only when the build is older than its sources', () => {
    const root = mkdtempSync(join(tmpdir(), 'harness-build-'));
    dirs.push(root);
    mkdirSync(join(root, 'src', 'renderer'), { recursive: true });
    mkdirSync(join(root, 'out', 'renderer'), { recursive: true });
    mkdirSync(join(root, 'out', 'preload'), { recursive: true });
    writeFileSync(join(root, 'src', 'renderer', 'main.tsx'), '');
    expect(buildIsCurrent(root)).toBe(false); // never built
    writeFileSync(join(root, 'out', 'renderer', 'index.html'), '');
    expect(buildIsCurrent(root)).toBe(false); // the page without its preload
    writeFileSync(join(root, 'out', 'preload', 'index.cjs'), '');
    // A minute before the build, by the file system's clock (which stamped the build).
    const past = new Date(statSync(join(root, 'out', 'preload', 'index.cjs')).mtimeMs - 60_000);
    utimesSync(join(root, 'src', 'renderer', 'main.tsx'), past, past);
    utimesSync(join(root, 'src', 'renderer'), past, past);
    utimesSync(join(root, 'src'), past, past);
    expect(buildIsCurrent(root)).toBe(true);
    writeFileSync(join(root, 'src', 'renderer', 'main.tsx'), 'changed');
    expect(buildIsCurrent(root)).toBe(false);
  });
});
