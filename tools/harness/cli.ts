// npm run harness: the renderer in any browser, against the real main-process
// services and a sandbox on loopback. Development only. Takes the sandbox's
// options too, so limits and faults can be tried in the app without a second
// sandbox; builds the renderer only when the build is older than its sources.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseCliArgs, USAGE as SANDBOX_USAGE } from '../../src/main/sandbox/cli.ts';
import { startSandbox } from '../../src/main/sandbox/server.ts';
import { PLAN_IDS } from '../../src/shared/plans.ts';
import { rendererBuildIsCurrent } from './build-state.ts';
import { startHarness } from './server.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export const USAGE = `Usage: npm run harness -- [options]

Serves the built app in any browser on 127.0.0.1, against the real
main-process services and a sandbox of its own. Development only.

Harness options:
  --port N             port of the page (default: a free one)
  --data-dir DIR       settings and local data (default: a new temporary folder)
  --plan PLAN          plan of the key the Sandbox environment uses:
                       ${PLAN_IDS.join(', ')} (default: pro)
  --rebuild            build the app even when the build is current
  -h, --help           show this help

Sandbox options, passed through (e.g. --plan free --minute-ms 10000
--faults 5xx@0.2 to see the limits and faults in the app):
${SANDBOX_USAGE.split('\n')
  .slice(1)
  .filter((line) => !/^\s+--(port|help)\b/.test(line))
  .join('\n')}`;

const OWN_WITH_VALUE = new Set(['--port', '--data-dir', '--plan']);
const OWN_FLAGS = new Set(['--rebuild', '--help', '-h']);

/** Splits the harness's own options from the sandbox's. */
function split(argv: readonly string[]): { own: string[]; sandbox: string[] } {
  const own: string[] = [];
  const sandbox: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.split('=')[0]!;
    if (OWN_WITH_VALUE.has(name)) {
      own.push(arg);
      if (!arg.includes('=') && i + 1 < argv.length) own.push(argv[++i]!);
    } else if (OWN_FLAGS.has(name)) own.push(arg);
    else sandbox.push(arg);
  }
  return { own, sandbox };
}

export function parseHarnessArgs(argv: readonly string[]) {
  const parts = split(argv);
  const { values } = parseArgs({
    args: parts.own,
    strict: true,
    options: {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string' },
      plan: { type: 'string', default: 'pro' },
      rebuild: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65_535)
    throw new Error(`--port must be a whole number from 0 to 65535, got "${values.port}"`);
  const plan = PLAN_IDS.find((id) => id === values.plan);
  if (!plan) throw new Error(`--plan must be one of ${PLAN_IDS.join(', ')}, got "${values.plan}"`);
  // The sandbox listens on a free port of its own; --port is the page's.
  const sandbox = { ...parseCliArgs(parts.sandbox), port: 0 };
  return {
    help: values.help,
    port,
    plan: plan,
    rebuild: values.rebuild,
    ...(values['data-dir'] !== undefined ? { dataDir: values['data-dir'] } : {}),
    sandbox,
  };
}

async function main(): Promise<void> {
  let options: ReturnType<typeof parseHarnessArgs>;
  try {
    options = parseHarnessArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`harness: ${(error as Error).message.split('\n')[0]} (see --help)`);
    process.exitCode = 2;
    return;
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  if (options.rebuild || !rendererBuildIsCurrent(ROOT)) {
    // electron-vite's exports name no script: its bin is found through its package.json.
    const require = createRequire(import.meta.url);
    const manifest = require.resolve('electron-vite/package.json');
    const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
    const build = spawnSync(
      process.execPath,
      [join(dirname(manifest), bin['electron-vite']!), 'build'],
      { cwd: ROOT, stdio: 'inherit' },
    );
    if (build.status !== 0) {
      process.exitCode = 1;
      return;
    }
  } else {
    console.log('The build is current: not building again (--rebuild to force it).');
  }
  const sandbox = await startSandbox(options.sandbox);
  const key = sandbox.keys.find((k) => k.plan === options.plan)?.key;
  if (!key) {
    console.error(`harness: the sandbox has no key for the ${options.plan} plan (see --key)`);
    await sandbox.close();
    process.exitCode = 2;
    return;
  }
  const harness = await startHarness({
    port: options.port,
    dataDir: options.dataDir ?? mkdtempSync(join(tmpdir(), 'store-admin-harness-')),
    sandbox: { baseUrl: sandbox.baseUrl, key },
  });
  console.log(`Store Admin harness: open ${harness.url}`);
  console.log(`Sandbox: ${sandbox.baseUrl} (the Sandbox environment uses ${options.plan}: ${key})`);
  const stop = async (): Promise<void> => {
    await harness.close();
    await sandbox.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

if (import.meta.main) await main();
