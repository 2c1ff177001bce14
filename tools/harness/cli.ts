// npm run harness: the app in Chromium through the Electron stand-in, its
// main-process services in this process against a sandbox of its own.
// Development only. Takes the sandbox's options too, so limits and faults
// can be tried in the app without a second sandbox; builds the app only when
// the build is older than its sources. A window where there is a display;
// without one, Chromium runs headless and the harness says where to look:
// the page in DevTools (live, and usable through DevTools' screencast) and a
// screenshot of the first screen.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseCliArgs, USAGE as SANDBOX_USAGE } from '../../src/main/sandbox/cli.ts';
import { startSandbox } from '../../src/main/sandbox/server.ts';
import { PLAN_IDS } from '../../src/shared/plans.ts';
import { buildIsCurrent } from './build-state.ts';
import { startHarness, type Harness } from './harness.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export const USAGE = `Usage: npm run harness -- [options]

Opens the app in Chromium through the Electron stand-in, against the real
main-process services and a sandbox of its own. Development only. A window
where there is a display; headless otherwise, with the page's DevTools
address and a screenshot of the first screen to look at.

Harness options:
  --port N             port of Chromium's DevTools (default: a free one)
  --data-dir DIR       settings and local data (default: a new temporary folder)
  --plan PLAN          plan of the key the Sandbox environment uses:
                       ${PLAN_IDS.join(', ')} (default: pro)
  --headless           no window, even where there is a display
  --rebuild            build the app even when the build is current
  -h, --help           show this help

Sandbox options, passed through (e.g. --plan free --minute-ms 10000
--faults 5xx@0.2 to see the limits and faults in the app):
${SANDBOX_USAGE.split('\n')
  .slice(1)
  .filter((line) => !/^\s+--(port|help)\b/.test(line))
  .join('\n')}`;

const OWN_WITH_VALUE = new Set(['--port', '--data-dir', '--plan']);
const OWN_FLAGS = new Set(['--headless', '--rebuild', '--help', '-h']);

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
      headless: { type: 'boolean', default: false },
      rebuild: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65_535)
    throw new Error(`--port must be a whole number from 0 to 65535, got "${values.port}"`);
  const plan = PLAN_IDS.find((id) => id === values.plan);
  if (!plan) throw new Error(`--plan must be one of ${PLAN_IDS.join(', ')}, got "${values.plan}"`);
  // The sandbox listens on a free port of its own; --port is DevTools'.
  const sandbox = { ...parseCliArgs(parts.sandbox), port: 0 };
  return {
    help: values.help,
    port,
    plan: plan,
    headless: values.headless,
    rebuild: values.rebuild,
    ...(values['data-dir'] !== undefined ? { dataDir: values['data-dir'] } : {}),
    sandbox,
  };
}

/** As the stand-in's launcher decides: ELECTRON_STANDIN_HEADLESS, else whether there is a display. */
function headlessHere(env: NodeJS.ProcessEnv): boolean {
  if (env.ELECTRON_STANDIN_HEADLESS === '1') return true;
  if (env.ELECTRON_STANDIN_HEADLESS === '0') return false;
  return !(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** The page's DevTools, served by Chromium itself (no network needed). */
async function inspectorUrl(harness: Harness): Promise<string> {
  const cdp = await harness.page.context().newCDPSession(harness.page);
  const { targetInfo } = await cdp.send('Target.getTargetInfo');
  await cdp.detach();
  const { host } = new URL(harness.devtools);
  return `${harness.devtools}/devtools/inspector.html?ws=${host}/devtools/page/${targetInfo.targetId}`;
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
  if (options.rebuild || !buildIsCurrent(ROOT)) {
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
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'store-admin-harness-'));
  const headless = options.headless || headlessHere(process.env);
  const harness = await startHarness({
    dataDir,
    sandbox: { baseUrl: sandbox.baseUrl, key },
    headful: !headless,
    devtoolsPort: options.port,
    ...(headless ? { viewport: { width: 1280, height: 800 } } : {}),
  });
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await harness.close();
    await sandbox.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // The person closed the window.
  harness.page.once('close', () => void stop());
  console.log(`Sandbox: ${sandbox.baseUrl} (the Sandbox environment uses ${options.plan}: ${key})`);
  console.log(`Data folder: ${dataDir}`);
  if (!headless) {
    console.log(
      `Store Admin harness: the app's window is open. Close it, or press Ctrl-C, to stop.`,
    );
    return;
  }
  console.log(`Store Admin harness: the app is open in headless Chromium (no display here).`);
  console.log(
    `  See and use it in DevTools, in a browser on this machine: ${await inspectorUrl(harness)}`,
  );
  console.log(
    `  (from another machine: ssh -L ${new URL(harness.devtools).port}:127.0.0.1:${new URL(harness.devtools).port} first)`,
  );
  // The first screen once its list shows (or as it is after half a minute).
  await harness.page
    .locator('[role="grid"] [role="row"][aria-rowindex="2"]')
    .waitFor({ timeout: 30_000 })
    .catch(() => undefined);
  const screenshot = join(dataDir, 'first-screen.png');
  await harness.page.screenshot({ path: screenshot });
  console.log(`  The first screen: ${screenshot}`);
  console.log('Press Ctrl-C to stop.');
}

if (import.meta.main) await main();
