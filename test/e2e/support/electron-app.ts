// The whole app (the built out/: real main bundle, real preload, real page)
// opened the way Playwright drives any Electron app: `_electron.launch` from
// playwright-core, which starts an Electron with Node's inspector and
// Chromium's DevTools port, evaluates in main through the inspector and takes
// the app's windows from DevTools. The Electron is the `electron` package's
// own binary where it is installed and runs (CI on Linux, macOS and Windows),
// else the Electron stand-in (tools/electron-standin, as `npm start` uses it
// through ELECTRON_OVERRIDE_DIST_PATH); E2E_ELECTRON=electron or =standin
// insists on one, and E2E_ELECTRON=standin-without-channel runs the stand-in
// as a real Electron run goes (no control channel, the seam's tests skipped),
// so a run here shows that every other test needs nothing but Electron.
//
// A test says what it needs through Electron's own switches and environment:
// a home of its own (`--user-data-dir`, XDG folders), a keyring or none
// (`--password-store`), a proxy or a CA (the environment). What only the
// stand-in can do (answer a native dialog, click a notification, turn the
// person to another app, report what the app told Electron) is behind one
// seam, `run.standin()`, in tests named by `itNeedsStandin`, which a run on
// the real Electron skips saying why.
//
// As on the harness, what the app's windows throw and do against their
// Content-Security-Policy is kept, and the run's end (close, stop) fails the
// test on any of it that the test did not say it expected
// (`run.pageProblems.expect`).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  _electron,
  chromium,
  type Browser,
  type ElectronApplication,
  type Page,
} from 'playwright-core';
import { describe, it } from 'vitest';
import { folderOf, PageProblems } from './page-problems.ts';
import {
  ROOT,
  STANDIN_DIST,
  STANDIN_ELECTRON,
  standinChannel,
  standinRunsHere,
  waitFor,
  type StandinChannel,
} from './standin.ts';

/** The Electron the whole-app tests run on. */
export interface ElectronUnderTest {
  readonly kind: 'electron' | 'standin';
  readonly executablePath: string;
  /** Whether the stand-in's control channel is there (the seam's tests run). */
  readonly channel: boolean;
  /** Why this one (said once per run, so a run tells which Electron it proved things on). */
  readonly why: string;
}

/** The electron package's binary, when it was downloaded and runs (never downloading it here). */
function installedElectron(): { path: string; version: string } | { missing: string } {
  const packageDir = join(ROOT, 'node_modules', 'electron');
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return { missing: 'the electron package has no binary (path.txt)' };
  const path = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(path)) return { missing: `${path} does not exist` };
  const probe = spawnSync(path, ['-e', 'process.stdout.write(process.versions.electron ?? "")'], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const version = probe.stdout?.trim();
  return probe.status === 0 && version
    ? { path, version }
    : { missing: `${path} did not run (${probe.error?.message ?? probe.stderr?.trim() ?? ''})` };
}

function chooseElectron(): ElectronUnderTest {
  const wanted = process.env.E2E_ELECTRON;
  const standin = (channel: boolean, why: string): ElectronUnderTest => ({
    kind: 'standin',
    executablePath: STANDIN_ELECTRON,
    channel,
    why,
  });
  if (wanted === 'standin') return standin(true, 'the Electron stand-in (E2E_ELECTRON=standin)');
  if (wanted === 'standin-without-channel')
    return standin(false, 'the Electron stand-in without its control channel');
  const installed = installedElectron();
  if ('path' in installed)
    return {
      kind: 'electron',
      executablePath: installed.path,
      channel: false,
      why: `Electron ${installed.version} from the electron package`,
    };
  if (wanted === 'electron')
    throw new Error(`E2E_ELECTRON=electron, but ${installed.missing}: run npx install-electron`);
  return standin(true, `the Electron stand-in (${installed.missing})`);
}

export const electronUnderTest = chooseElectron();
/** Whether the whole-app tests run on the electron package's own binary. */
export const realElectron = electronUnderTest.kind === 'electron';
/** Whether the whole app can run here at all (the stand-in runs on Linux, with Chromium). */
export const canRunApp = realElectron || standinRunsHere;

/**
 * A test that needs what only the stand-in can do, named with the reason: a
 * run without the stand-in's channel (a real Electron) lists it as skipped
 * "(needs the stand-in: …)".
 */
export function itNeedsStandin(
  name: string,
  why: string,
  test: () => Promise<void> | void,
  timeoutMs?: number,
): void {
  it.skipIf(!electronUnderTest.channel)(`${name} (needs the stand-in: ${why})`, test, timeoutMs);
}

/** A whole file of tests that needs the stand-in, named with the reason, as itNeedsStandin. */
export function describeNeedsStandin(name: string, why: string, tests: () => void): void {
  describe.skipIf(!canRunApp || !electronUnderTest.channel)(
    `${name} (needs the stand-in: ${why})`,
    tests,
  );
}

/** A place the app keeps its files, the same across restarts: its data folder, caches, the stand-in's keyring. */
export interface AppHome {
  readonly dir: string;
  /** The app's data folder (app.getPath('userData')), given with --user-data-dir. */
  readonly userData: string;
  readonly env: NodeJS.ProcessEnv;
  remove(): void;
}

export function appHome(extraEnv: NodeJS.ProcessEnv = {}): AppHome {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-app-'));
  const env: NodeJS.ProcessEnv = {
    // Linux's folders (the stand-in's keyring lives under XDG_DATA_HOME); userData itself is --user-data-dir.
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    ...extraEnv,
  };
  return {
    dir,
    userData: join(dir, 'user-data'),
    env,
    // Chromium may still be closing its profile for a moment after the app ended.
    remove: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }),
  };
}

export interface LaunchOptions {
  readonly home: AppHome;
  /** The app to run: its folder (default: this checkout's, the built out/), or none for a packaged executable. */
  readonly app?: string | null;
  readonly cwd?: string;
  /**
   * safeStorage's backend on Linux, by Electron's own switch: a keyring
   * (`gnome-libsecret`, default; on a real Linux desktop it needs the
   * Secret Service running) or none (`basic`). macOS and Windows ignore it.
   */
  readonly passwordStore?: 'gnome-libsecret' | 'basic';
  /** More of Electron's switches. */
  readonly switches?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** Another executable than the Electron under test (npm start as Electron, in the ways-in tests). */
  readonly executablePath?: string;
  /** How long the start may take (a bound for a busy machine; a build first takes longer). */
  readonly timeoutMs?: number;
}

export interface WindowState {
  readonly id: number;
  readonly url: string;
  readonly visible: boolean;
  readonly focused: boolean;
  readonly minimized: boolean;
}

export interface AppRun {
  /** Playwright's handle on the app (evaluate in main, windows, the process). */
  readonly electronApp: ElectronApplication;
  /** The exit code once the app ended (1 for a signal). */
  readonly exited: Promise<number>;
  /** What the app printed since it started (stdout and stderr). */
  output(): string;
  /** What the app's pages said on their consoles since the app started (and what they threw). */
  consoleLines(): readonly string[];
  /**
   * What the app's windows threw and nothing caught, and what they did against
   * their Content-Security-Policy, since the driver had the app (a window's
   * first lines may come before it, as `consoleLines`'s). close() and stop()
   * fail on any of it; a test that causes one on purpose says so first with
   * `pageProblems.expect(/…/)`.
   */
  readonly pageProblems: Pick<PageProblems, 'seen' | 'expect'>;
  /** The app's first window, once it shows the app's page. */
  page(timeoutMs?: number): Promise<Page>;
  /** The windows as main sees them. */
  windows(): Promise<WindowState[]>;
  /** Clicks an item of the application menu by its labels (["Help", "About Store Admin"]), as main's menu does. */
  clickMenu(path: readonly string[]): Promise<void>;
  /** The menu's Quit (File > Quit, or the app menu's on macOS). */
  quitFromMenu(): Promise<void>;
  /** The stand-in's own channel (dialogs, notifications, what the app told Electron); only on the stand-in. */
  standin(): StandinChannel;
  /**
   * Ends the app as Playwright does (app.quit()) and gives its exit code;
   * throws if a window threw or broke its policy unexpectedly (pageProblems).
   */
  close(): Promise<number>;
  /**
   * Ends the run whatever state it is in (a quit, then for good; nothing if
   * it ended by itself), then throws as close() does.
   */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The command line after the executable: the home's data folder, the keyring, the test's switches, the app. */
function appArguments(options: LaunchOptions): string[] {
  const app = options.app === undefined ? ROOT : options.app;
  return [
    // Chromium's sandbox needs a set-uid helper or user namespaces a CI machine may not allow;
    // Playwright's driver gives Electron this switch on Linux too.
    ...(process.platform === 'linux' ? ['--no-sandbox'] : []),
    `--user-data-dir=${options.home.userData}`,
    `--password-store=${options.passwordStore ?? 'gnome-libsecret'}`,
    ...(options.switches ?? []),
    ...(app === null ? [] : [app]),
  ];
}

function appEnvironment(options: LaunchOptions, controlDir: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.home.env,
    ...options.env,
    CI: 'true',
  };
  if (electronUnderTest.kind === 'standin') {
    env.ELECTRON_OVERRIDE_DIST_PATH ??= STANDIN_DIST;
    // The stand-in has no display to need: its windows are headless Chromium pages.
    env.ELECTRON_STANDIN_HEADLESS ??= '1';
    if (controlDir) env.ELECTRON_STANDIN_CONTROL = controlDir;
  } else {
    // A real Electron run: nothing of the stand-in's may steer it.
    delete env.ELECTRON_OVERRIDE_DIST_PATH;
    delete env.ELECTRON_EXEC_PATH;
  }
  return env;
}

function newControlDir(home: AppHome): string | undefined {
  if (!electronUnderTest.channel) return undefined;
  const dir = join(home.dir, `control-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Kills what is left of a launched process (its group, where there is one). */
function kill(pid: number | undefined): void {
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' });
    return;
  }
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

let said = false;

/** Opens the app through Playwright's Electron driver. */
export async function launchApp(options: LaunchOptions): Promise<AppRun> {
  if (!said) console.log(`The whole app runs on ${electronUnderTest.why}.`);
  said = true;
  const controlDir = newControlDir(options.home);
  const electronApp = await _electron.launch({
    executablePath: options.executablePath ?? electronUnderTest.executablePath,
    args: appArguments(options),
    cwd: options.cwd ?? ROOT,
    env: appEnvironment(options, controlDir) as Record<string, string>,
    timeout: options.timeoutMs ?? 60_000,
  });
  const child = electronApp.process();
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  let done = child.exitCode !== null || child.signalCode !== null;
  const exited: Promise<number> = done
    ? Promise.resolve(child.signalCode ? 1 : (child.exitCode ?? 0))
    : new Promise((resolve) =>
        child.once('exit', (code, signal) => {
          done = true;
          resolve(signal ? 1 : (code ?? 0));
        }),
      );
  const channel = controlDir
    ? standinChannel(
        controlDir,
        () => done,
        () => output,
      )
    : undefined;
  const consoleLines: string[] = [];
  const problems = new PageProblems();
  // Every window's, the ones the app opens later included: the context is the app's.
  electronApp.context().on('console', (message) => {
    consoleLines.push(message.text());
    problems.console(message, folderOf(message.page()?.url()));
  });
  electronApp.context().on('weberror', (error) => {
    consoleLines.push(error.error().message);
    problems.threw(error.error().message);
  });

  const run: AppRun = {
    electronApp,
    exited,
    output: () => output,
    consoleLines: () => [...consoleLines],
    pageProblems: {
      seen: () => problems.seen(),
      expect: (pattern) => problems.expect(pattern),
    },
    async page(timeoutMs = 60_000) {
      const page = await electronApp.firstWindow({ timeout: timeoutMs });
      await page.waitForURL((url) => url.protocol !== 'about:', { timeout: timeoutMs });
      return page;
    },
    windows: () =>
      electronApp.evaluate(({ BrowserWindow }) =>
        BrowserWindow.getAllWindows().map((w) => ({
          id: w.id,
          url: w.webContents.getURL(),
          visible: w.isVisible(),
          focused: w.isFocused(),
          minimized: w.isMinimized(),
        })),
      ),
    async clickMenu(path) {
      const clicked = await electronApp.evaluate(({ BrowserWindow, Menu }, labels) => {
        let items = Menu.getApplicationMenu()?.items ?? [];
        let item: Electron.MenuItem | undefined;
        for (const label of labels) {
          item = items.find((candidate) => candidate.label === label);
          items = item?.submenu?.items ?? [];
        }
        if (!item) return false;
        const window = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
        const keys = { shiftKey: false, ctrlKey: false, altKey: false, metaKey: false };
        item.click({ ...keys, triggeredByAccelerator: false }, window, window?.webContents);
        return true;
      }, path);
      if (!clicked) throw new Error(`no menu item ${path.join(' > ')}`);
    },
    async quitFromMenu() {
      const path = await electronApp.evaluate(({ Menu }) => {
        const find = (items: Electron.MenuItem[], trail: string[]): string[] | undefined => {
          for (const item of items) {
            if (item.role?.toLowerCase() === 'quit') return [...trail, item.label];
            const inside = item.submenu && find(item.submenu.items, [...trail, item.label]);
            if (inside) return inside;
          }
          return undefined;
        };
        return find(Menu.getApplicationMenu()?.items ?? [], []);
      });
      if (!path) throw new Error('the menu has no Quit');
      await run.clickMenu(path);
    },
    standin() {
      if (!channel)
        throw new Error(
          `This needs the Electron stand-in's channel, and runs on ${electronUnderTest.why}.`,
        );
      return channel;
    },
    async close() {
      await electronApp.close();
      const code = await exited;
      problems.check();
      return code;
    },
    async stop() {
      if (!done) {
        // As Playwright closes an app (app.quit()), bounded: a quit guard may hold it.
        const closed = await Promise.race([
          electronApp.close().then(
            () => true,
            () => false,
          ),
          sleep(10_000).then(() => false),
        ]);
        if (!closed || !done) kill(child.pid);
        await Promise.race([exited, sleep(5_000)]);
      }
      problems.check();
    },
  };
  return run;
}

/**
 * The app started as a user starts it, with no driver attached: for a start
 * that is to end by itself (a second instance handing over, a start-up that
 * fails). Bounded: killed after `timeoutMs`.
 */
export function runApp(
  options: LaunchOptions,
  timeoutMs = 60_000,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      options.executablePath ?? electronUnderTest.executablePath,
      appArguments(options),
      {
        cwd: options.cwd ?? ROOT,
        env: appEnvironment(options, newControlDir(options.home)),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => kill(child.pid), timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: signal ? 1 : (code ?? 0), output });
    });
  });
}

/**
 * `npm run <script>` as the Electron Playwright launches (npm start, npm run
 * dev): Playwright's switches reach the Electron the script starts
 * (test/ways-in/support/npm-as-electron.mjs). Give its `env` to launchApp
 * with `app: null` (the script names the app itself).
 */
export function npmAsElectron(script: 'start' | 'dev'): {
  executablePath: string;
  env: NodeJS.ProcessEnv;
} {
  const shim = join(ROOT, 'test', 'ways-in', 'support', 'npm-as-electron');
  return {
    executablePath: process.platform === 'win32' ? `${shim}.cmd` : `${shim}.mjs`,
    env: { STORE_ADMIN_NPM_SCRIPT: script },
  };
}

/** A command run to its end (npm run package:dir) with the Electron under test. */
export function runCommand(
  command: readonly string[],
  options: { cwd: string; home: AppHome; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const windows = process.platform === 'win32';
    // npm is a .cmd on Windows, which only a shell runs: each argument quoted for it.
    const child = windows
      ? spawn(command.map((arg) => `"${arg.replace(/"/g, '\\"')}"`).join(' '), {
          cwd: options.cwd,
          env: appEnvironment({ home: options.home, env: options.env ?? {} }, undefined),
          stdio: ['ignore', 'pipe', 'pipe'],
          shell: true,
        })
      : spawn(command[0]!, command.slice(1), {
          cwd: options.cwd,
          env: appEnvironment({ home: options.home, env: options.env ?? {} }, undefined),
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => kill(child.pid), options.timeoutMs ?? 300_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: signal ? 1 : (code ?? 0), output });
    });
  });
}

export interface PackagedRun {
  readonly page: Page;
  readonly exited: Promise<number>;
  readonly pid: number;
  output(): string;
  standin(): StandinChannel;
  stop(): Promise<void>;
}

/**
 * A packaged app, whose fuses turn --inspect off (so Playwright's Electron
 * driver cannot reach its main process, by design): started with Chromium's
 * --remote-debugging-port=0, the one way in a fused Electron keeps, and its
 * window reached over DevTools at the address it announces.
 */
export async function openPackagedApp(
  executable: string,
  options: { home: AppHome; cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<PackagedRun> {
  const controlDir = newControlDir(options.home);
  const child = spawn(
    executable,
    [...appArguments({ home: options.home, app: null }), '--remote-debugging-port=0'],
    {
      cwd: options.cwd,
      env: appEnvironment({ home: options.home, env: options.env ?? {} }, controlDir),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  let done = false;
  const exited = new Promise<number>((resolve) =>
    child.on('exit', (code, signal) => {
      done = true;
      resolve(signal ? 1 : (code ?? 0));
    }),
  );
  const timeoutMs = options.timeoutMs ?? 60_000;
  let browser: Browser;
  try {
    const endpoint = await waitFor(
      'the DevTools address',
      () => {
        if (done) throw new Error(`the app ended before it started:\n${output}`);
        return /^DevTools listening on (ws:\/\/\S+)$/m.exec(output)?.[1];
      },
      timeoutMs,
    );
    browser = await chromium.connectOverCDP(endpoint);
  } catch (error) {
    kill(child.pid);
    throw error;
  }
  const page = await waitFor(
    "the app's window",
    () =>
      browser
        .contexts()
        .flatMap((context) => context.pages())
        .find((candidate) => candidate.url() !== '' && !candidate.url().startsWith('about:')),
    timeoutMs,
  );
  const channel = controlDir
    ? standinChannel(
        controlDir,
        () => done,
        () => output,
      )
    : undefined;
  return {
    page,
    exited,
    pid: child.pid!,
    output: () => output,
    standin() {
      if (!channel)
        throw new Error(
          `This needs the Electron stand-in's channel, and runs on ${electronUnderTest.why}.`,
        );
      return channel;
    },
    async stop() {
      await browser.close().catch(() => undefined);
      if (!done) kill(child.pid);
      await Promise.race([exited, sleep(5_000)]);
    },
  };
}
