// The real app in the Electron stand-in (tools/electron-standin), for tests of
// what only Electron runs: a command (the app's own `electron .`, npm start,
// npm run dev, a packaged executable) started with ELECTRON_OVERRIDE_DIST_PATH
// on the stand-in and a home of its own (XDG folders: the app's data, the
// stand-in's keyring), then reached the way a test reaches Electron: the
// page over the DevTools protocol (playwright's connectOverCDP), dialogs,
// menus and quitting over the stand-in's control socket. Each started run is
// ended by `stop` (its whole process group), so nothing outlives a test.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { hasChromium } from '../../../tools/browser/chromium.ts';

export const ROOT = join(import.meta.dirname, '../../..');
export const STANDIN_DIST = join(ROOT, 'tools/electron-standin/dist');
export const STANDIN_ELECTRON = join(STANDIN_DIST, 'electron');

/**
 * Whether the stand-in runs here: its executable is a POSIX shell script, and
 * its windows are Debian's Chromium (CHROMIUM_PATH), so Linux with Chromium.
 */
export const standinRunsHere = process.platform === 'linux' && hasChromium;
/** What a test that runs only on the stand-in says where it is skipped. */
export const STANDIN_RUNS_ON = 'the Electron stand-in, on Linux with Chromium';

/** A place the app and the stand-in keep their files: the same home across restarts. */
export interface StandinHome {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  /** The app's user-data folder ("Store Admin" under XDG_CONFIG_HOME). */
  readonly userData: string;
  remove(): void;
}

export function standinHome(extraEnv: NodeJS.ProcessEnv = {}): StandinHome {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-standin-'));
  const env: NodeJS.ProcessEnv = {
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'data'),
    // The command line's folder of earlier releases, which the app merges in at its start.
    XDG_CACHE_HOME: join(dir, 'cache'),
    ELECTRON_OVERRIDE_DIST_PATH: STANDIN_DIST,
    ELECTRON_STANDIN_HEADLESS: '1',
    // A desktop without a keyring unless a test says otherwise.
    ELECTRON_STANDIN_PASSWORD_STORE: 'gnome_libsecret',
    ...extraEnv,
  };
  return {
    dir,
    env,
    userData: join(dir, 'config', 'Store Admin'),
    // Chromium may still be closing its profile for a moment after the app ended.
    remove: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }),
  };
}

export interface StandinInfo {
  readonly pid: number;
  readonly socket: string;
  readonly devtools?: string;
}

export interface Happening {
  readonly seq: number;
  readonly kind: string;
  readonly detail: Record<string, unknown> | number | null;
}

export interface StandinState {
  readonly ready: boolean;
  readonly windows: {
    id: number;
    url: string;
    visible: boolean;
    focused: boolean;
    focusCount: number;
    minimized: boolean;
    /** Messages sent to the preload's world through a file (large ones). */
    spilled: number;
    /** Each value the app gave setProgressBar (the taskbar's progress). */
    progressBar: number[];
  }[];
  readonly menu: unknown;
  readonly dialogs: { id: number; kind: string; options: Record<string, unknown> }[];
  readonly dialogsShown: { id: number; kind: string; options: Record<string, unknown> }[];
  readonly safeStorage: {
    backend: string;
    selected: string;
    plainText: boolean;
    calls: { encrypt: number; decrypt: number };
  };
  readonly session: {
    permissionRequestHandler: boolean;
    permissionCheckHandler: boolean;
    webRequest: string[];
  };
  readonly crashReporter: Record<string, unknown>[];
  /** powerMonitor's events emitted through the channel, and the network as net.isOnline tells it. */
  readonly power: {
    happened: string[];
    online: boolean;
    /** How many times the app asked net.isOnline (or net.online). */
    asked: number;
  };
  /** Notifications shown, oldest first (`open`: still on screen). */
  readonly notifications: {
    id: number;
    title: string;
    body: string;
    open: boolean;
    clicked: boolean;
  }[];
}

export interface StandinRun {
  readonly child: ChildProcess;
  readonly controlDir: string;
  /** What the command printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or 1 for a signal) when the command ends. */
  readonly exited: Promise<number>;
  /** The stand-in process of this run (the app), once it has started. */
  info(timeoutMs?: number): Promise<StandinInfo>;
  /** The app's page, connected over CDP once its window has loaded something. */
  page(timeoutMs?: number): Promise<Page>;
  state(): Promise<StandinState>;
  events(after?: number): Promise<Happening[]>;
  /** Waits for the next dialog and returns it (the stand-in holds it until answered). */
  nextDialog(
    timeoutMs?: number,
  ): Promise<{ id: number; kind: string; options: Record<string, unknown> }>;
  answerDialog(id: number, response: number): Promise<void>;
  clickMenu(path: readonly string[]): Promise<void>;
  /** The person turns to another app: the focused window loses focus. */
  blur(): Promise<void>;
  /** The person clicks (or closes) a notification on the desktop. */
  notification(id: number, action: 'click' | 'close'): Promise<void>;
  /** Ends the run: what is still running of it is killed. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function call<T>(socket: string, method: string, path: string, body?: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath: socket, path, method, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => {
          if ((res.statusCode ?? 500) >= 400)
            reject(new Error(`${path}: ${res.statusCode} ${text}`));
          else resolve(JSON.parse(text) as T);
        });
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Polls `check` every 100 ms until it gives a value, for at most `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * The stand-in's control channel (tools/electron-standin/control.ts): what
 * only the stand-in can do or tell, for a run whose ELECTRON_STANDIN_CONTROL
 * is `controlDir`. `ended` says whether the run's process is gone.
 */
export interface StandinChannel {
  info(timeoutMs?: number): Promise<StandinInfo>;
  state(): Promise<StandinState>;
  events(after?: number): Promise<Happening[]>;
  /** Waits for the next dialog and returns it (the stand-in holds it until answered). */
  nextDialog(
    timeoutMs?: number,
  ): Promise<{ id: number; kind: string; options: Record<string, unknown> }>;
  answerDialog(id: number, response: number): Promise<void>;
  /** The person turns to another app: the focused window loses focus. */
  blur(): Promise<void>;
  /** The person clicks (or closes) a notification on the desktop. */
  notification(id: number, action: 'click' | 'close'): Promise<void>;
  /**
   * The machine's network goes (`false`) or comes back (`true`), as
   * `net.isOnline()` in main tells it (Electron has no way to say so but the
   * machine's own network). Resolves once main has asked since, so the app
   * has seen the change (Electron tells of none: the app looks now and then).
   */
  network(online: boolean, timeoutMs?: number): Promise<void>;
}

export function standinChannel(
  controlDir: string,
  ended: () => boolean,
  output: () => string,
): StandinChannel {
  const info = (timeoutMs = 60_000) =>
    waitFor(
      'the stand-in to start',
      () => {
        if (ended()) throw new Error(`the command ended before the app started:\n${output()}`);
        const name = existsSync(controlDir)
          ? readdirSync(controlDir).find((n) => n.startsWith('standin-') && n.endsWith('.json'))
          : undefined;
        if (!name) return undefined;
        const read = JSON.parse(readFileSync(join(controlDir, name), 'utf8')) as StandinInfo;
        return read.devtools ? read : undefined;
      },
      timeoutMs,
    );
  const channel: StandinChannel = {
    info,
    async state() {
      return call<StandinState>((await info()).socket, 'GET', '/state');
    },
    async events(after = 0) {
      return call<Happening[]>((await info()).socket, 'GET', `/events?after=${after}`);
    },
    async nextDialog(timeoutMs = 30_000) {
      return waitFor('a dialog', async () => (await channel.state()).dialogs[0], timeoutMs);
    },
    async answerDialog(id, response) {
      await call((await info()).socket, 'POST', '/dialog', { id, response });
    },
    async blur() {
      await call((await info()).socket, 'POST', '/blur');
    },
    async notification(id, action) {
      await call((await info()).socket, 'POST', '/notification', { id, action });
    },
    async network(online, timeoutMs = 30_000) {
      const { asked } = await call<{ asked: number }>((await info()).socket, 'POST', '/network', {
        online,
      });
      await waitFor(
        `main to ask whether the machine is ${online ? 'online' : 'offline'}`,
        async () => ((await channel.state()).power.asked > asked ? true : undefined),
        timeoutMs,
      );
    },
  };
  return channel;
}

export function startStandin(
  command: readonly string[],
  options: { cwd?: string; home: StandinHome; env?: NodeJS.ProcessEnv },
): StandinRun {
  const controlDir = join(
    options.home.dir,
    `control-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
  );
  mkdirSync(controlDir, { recursive: true });
  const [file, ...args] = command;
  const child = spawn(file!, args, {
    cwd: options.cwd ?? ROOT,
    env: {
      ...process.env,
      ...options.home.env,
      ...options.env,
      ELECTRON_STANDIN_CONTROL: controlDir,
      CI: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ? 1 : (code ?? 0))),
  );
  let done = false;
  void exited.then(() => (done = true));
  let browser: Browser | undefined;

  const info = (timeoutMs = 60_000) =>
    waitFor(
      'the stand-in to start',
      () => {
        if (done) throw new Error(`the command ended before the app started:\n${output}`);
        const name = existsSync(controlDir)
          ? readdirSync(controlDir).find((n) => n.startsWith('standin-') && n.endsWith('.json'))
          : undefined;
        if (!name) return undefined;
        const read = JSON.parse(readFileSync(join(controlDir, name), 'utf8')) as StandinInfo;
        return read.devtools ? read : undefined;
      },
      timeoutMs,
    );

  const run: StandinRun = {
    child,
    controlDir,
    output: () => output,
    exited,
    info,
    async page(timeoutMs = 60_000) {
      const { devtools } = await info(timeoutMs);
      browser ??= await chromium.connectOverCDP(devtools!);
      const connected = browser;
      return waitFor(
        "the app's window",
        () =>
          connected
            .contexts()
            .flatMap((context) => context.pages())
            .find((page) => page.url() !== 'about:blank' && page.url() !== ''),
        timeoutMs,
      );
    },
    async state() {
      return call<StandinState>((await info()).socket, 'GET', '/state');
    },
    async events(after = 0) {
      return call<Happening[]>((await info()).socket, 'GET', `/events?after=${after}`);
    },
    async nextDialog(timeoutMs = 30_000) {
      return waitFor('a dialog', async () => (await run.state()).dialogs[0], timeoutMs);
    },
    async answerDialog(id, response) {
      await call((await info()).socket, 'POST', '/dialog', { id, response });
    },
    async clickMenu(path) {
      await call((await info()).socket, 'POST', '/menu', { path });
    },
    async blur() {
      await call((await info()).socket, 'POST', '/blur');
    },
    async notification(id, action) {
      await call((await info()).socket, 'POST', '/notification', { id, action });
    },
    async stop() {
      await browser?.close().catch(() => undefined);
      if (done) return;
      // As the desktop asks an app to go (the stand-in quits on SIGTERM, as Electron does), then for good.
      const signal = (name: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, name);
        } catch {
          // already gone
        }
      };
      signal('SIGTERM');
      const ended = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
      if (!ended) {
        signal('SIGKILL');
        await exited;
      }
    },
  };
  return run;
}

/**
 * A fresh checkout of this working tree (its tracked and new files, no out/,
 * no dist/), sharing node_modules: what a user has after `git clone` and
 * `npm install`, so a command that needs another to have run first fails.
 */
export async function freshCheckout(): Promise<{ dir: string; remove(): void }> {
  const { execFileSync } = await import('node:child_process');
  const { cpSync, symlinkSync } = await import('node:fs');
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-clone-'));
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(ROOT, file)));
  for (const file of files) cpSync(join(ROOT, file), join(dir, file), { recursive: false });
  // A junction on Windows, which needs no administrator's rights.
  symlinkSync(
    join(ROOT, 'node_modules'),
    join(dir, 'node_modules'),
    process.platform === 'win32' ? 'junction' : 'dir',
  );
  // A process that just ended may hold a file a moment longer (Windows refuses to remove it meanwhile).
  return {
    dir,
    remove: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }),
  };
}
