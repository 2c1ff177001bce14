// The Chromium that shows the stand-in's windows: Debian's, driven by
// playwright-core through the DevTools protocol, with a profile of its own
// in the app's session-data folder (Electron keeps its Chromium profile
// there too), so localStorage outlives a restart as it does in Electron.
// Headless unless a display is there and nothing asks otherwise.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let context: BrowserContext | undefined;
let devtools: string | undefined;

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
  if (options.remoteDebuggingPort !== undefined) {
    const [port] = readFileSync(join(options.profileDir, 'DevToolsActivePort'), 'utf8').split('\n');
    devtools = `http://127.0.0.1:${port}`;
  }
  return context;
}

export function chromiumContext(): BrowserContext {
  if (!context) throw new Error('Chromium is not running yet (before the app is ready).');
  return context;
}

/** The DevTools endpoint for connectOverCDP, when remote debugging was asked for. */
export function devtoolsEndpoint(): string | undefined {
  return devtools;
}

export async function stopChromium(): Promise<void> {
  const closing = context;
  context = undefined;
  await closing?.close().catch(() => undefined);
}
