// The Chromium that shows the stand-in's windows: Debian's, driven by
// playwright-core through the DevTools protocol, with a profile of its own
// in the app's session-data folder (Electron keeps its Chromium profile
// there too), so localStorage outlives a restart as it does in Electron.
// Headless unless a display is there and nothing asks otherwise.

import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let context: BrowserContext | undefined;
let devtools: DevToolsEndpoint | undefined;

/** Where Chromium's DevTools listen: its HTTP origin, and the browser's own WebSocket. */
export interface DevToolsEndpoint {
  /** http://127.0.0.1:port, for connectOverCDP and the DevTools front end. */
  readonly http: string;
  /** ws://127.0.0.1:port/devtools/browser/<id>, as Chromium announces it. */
  readonly browser: string;
}

export interface ChromiumOptions {
  readonly profileDir: string;
  readonly headless: boolean;
  /** 0 for any free port: tests connect to the windows with connectOverCDP. */
  readonly remoteDebuggingPort?: number;
  /**
   * The GrantFileProtocolExtraPrivileges fuse: Electron lets file:// pages
   * load module scripts and fetch file:// URLs; Chromium does with this switch.
   */
  readonly fileProtocolPrivileges: boolean;
}

export async function startChromium(options: ChromiumOptions): Promise<BrowserContext> {
  if (context) return context;
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(
      `The Electron stand-in needs Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH to another).`,
    );
  // A port another program holds would answer for Chromium below: refuse it in plain words first.
  if (options.remoteDebuggingPort) await assertPortFree(options.remoteDebuggingPort);
  context = await chromium.launchPersistentContext(options.profileDir, {
    executablePath: CHROMIUM_PATH,
    headless: options.headless,
    chromiumSandbox: false,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    viewport: options.headless ? { width: 800, height: 600 } : null,
    // An Electron window draws its scroll bars, and the clerk drags them: playwright hides them
    // when headless (--hide-scrollbars), which leaves their room but neither draws nor moves them.
    ignoreDefaultArgs: ['--hide-scrollbars'],
    args: [
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(options.fileProtocolPrivileges ? ['--allow-file-access-from-files'] : []),
      ...(options.remoteDebuggingPort === undefined
        ? []
        : [`--remote-debugging-port=${options.remoteDebuggingPort}`]),
    ],
  });
  if (options.remoteDebuggingPort !== undefined)
    devtools = await findDevTools(options.profileDir, options.remoteDebuggingPort);
  return context;
}

/** How long Chromium may take to open its DevTools port once it runs (a bound for a busy machine). */
const DEVTOOLS_WAIT_MS = 30_000;

/**
 * Chromium writes DevToolsActivePort (its port, then the browser's path) only
 * for a port it chose itself (0), and a moment after it answers on its pipe;
 * a port given is never written down, so it is asked over HTTP instead.
 */
async function findDevTools(profileDir: string, port: number): Promise<DevToolsEndpoint> {
  const deadline = Date.now() + DEVTOOLS_WAIT_MS;
  for (;;) {
    const found = port === 0 ? fromActivePortFile(profileDir) : await fromVersion(port);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(
        port === 0
          ? `Chromium did not write ${join(profileDir, 'DevToolsActivePort')} within ${DEVTOOLS_WAIT_MS / 1000} s.`
          : `Chromium's DevTools did not answer on port ${port} within ${DEVTOOLS_WAIT_MS / 1000} s.`,
      );
    await sleep(50);
  }
}

function fromActivePortFile(profileDir: string): DevToolsEndpoint | undefined {
  let text: string;
  try {
    text = readFileSync(join(profileDir, 'DevToolsActivePort'), 'utf8');
  } catch {
    return undefined;
  }
  const [port, path] = text.split('\n');
  // Written in one go, but read it whole before trusting it.
  if (!/^\d+$/.test(port ?? '') || !path?.startsWith('/devtools/browser/')) return undefined;
  return { http: `http://127.0.0.1:${port}`, browser: `ws://127.0.0.1:${port}${path}` };
}

async function fromVersion(port: number): Promise<DevToolsEndpoint | undefined> {
  const http = `http://127.0.0.1:${port}`;
  try {
    const response = await fetch(`${http}/json/version`, { signal: AbortSignal.timeout(5_000) });
    const { webSocketDebuggerUrl } = (await response.json()) as { webSocketDebuggerUrl?: string };
    return webSocketDebuggerUrl ? { http, browser: webSocketDebuggerUrl } : undefined;
  } catch {
    return undefined;
  }
}

function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `Port ${port} is in use by another program: choose another for Chromium's DevTools.`
            : `Port ${port} cannot be used for Chromium's DevTools: ${error.message}`,
        ),
      ),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/**
 * A page for a new window. Chromium opens with one blank tab, which the first
 * window takes, so the app's windows are the only pages anyone attached to
 * the DevTools endpoint sees (playwright's Electron driver takes the first
 * page for the first window), as in Electron.
 */
export async function windowPage(): Promise<Page> {
  const current = chromiumContext();
  const blank = current.pages().find((page) => page.url() === 'about:blank' && !taken.has(page));
  const page = blank ?? (await current.newPage());
  taken.add(page);
  return page;
}

const taken = new WeakSet<Page>();

export function chromiumContext(): BrowserContext {
  if (!context) throw new Error('Chromium is not running yet (before the app is ready).');
  return context;
}

/** The DevTools endpoint, when remote debugging was asked for. */
export function devtoolsEndpoint(): DevToolsEndpoint | undefined {
  return devtools;
}

export async function stopChromium(): Promise<void> {
  const closing = context;
  context = undefined;
  devtools = undefined;
  await closing?.close().catch(() => undefined);
}
