// The development harness (`npm run harness`, the end-to-end tests and the
// renderer benchmarks), never part of the packaged app: the real
// main-process services in this process, on a data folder and a sandbox of
// the caller's, with what tests inject into them (a disk that fails, a
// recheck schedule of their own), wired as src/main/index.ts wires them —
// createAppServices, its handlers registered by ipc/handle.ts's registerIpc
// on the Electron stand-in's ipcMain, events and order streams through
// emitTo and streamOrdersTo (a MessageChannelMain port sent with
// webContents.postMessage) — and the window made by window.ts's
// createMainWindow in the stand-in's Chromium: the built page
// (out/renderer) with the built preload (out/preload/index.cjs) in its
// isolated world. From the preload up it is the app as Electron runs it;
// only the services' process differs.
//
// Several harnesses may share a process (tests open two apps at once), as
// several windows share an Electron main process: ipcMain has one handler
// per channel, which answers each window from that window's own services.

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { createAppServices, type AppServices } from '../../src/main/app-services.ts';
import type { RecheckSchedule } from '../../src/main/domains/recheck-schedule.ts';
import {
  DEFAULT_SETTINGS,
  type EnvironmentService,
  type Settings,
} from '../../src/main/environments/environment-service.ts';
import { parseSettings } from '../../src/main/environments/settings.ts';
import type { Emit, Handlers } from '../../src/main/ipc/handlers.ts';
import { KeyStore } from '../../src/main/keys/key-store.ts';
import { MemoryCiphertextStore } from '../../src/main/keys/memory-ciphertext-store.ts';
import { declineKeyForOrigin } from '../../src/main/keys/origin-confirmation.ts';
import type { SafeStorageLike } from '../../src/main/keys/storage-protection.ts';
import type { LocalFiles } from '../../src/main/local-data/local-files.ts';
import type * as HandleModule from '../../src/main/ipc/handle.ts';
import type * as WindowModule from '../../src/main/window.ts';
import type { AppPage } from '../../src/main/window.ts';
import { CHANNELS, type EventName, type EventPayloads } from '../../src/shared/ipc-contract.ts';
import type * as StandinElectron from '../electron-standin/electron/index.ts';
import { useStandinInProcess, type InProcessStandin } from '../electron-standin/in-process.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** The built page, as main's index.ts names it. */
const APP_PAGE: AppPage = { file: join(ROOT, 'out', 'renderer', 'index.html') };
const PRELOAD_DIR = join(ROOT, 'out', 'preload');

/** The harness has no OS secret store: keys stay in memory for the session, and the app says so. */
const noEncryption: SafeStorageLike = {
  isAsyncEncryptionAvailable: async () => false,
  encryptStringAsync: () => Promise.reject(new Error('no encryption in the harness')),
  decryptStringAsync: () => Promise.reject(new Error('no encryption in the harness')),
};

export interface HarnessOptions {
  /** Settings and local data; a fresh temporary folder per test. */
  readonly dataDir: string;
  /** Where the sandbox environment points (a sandbox the caller runs). */
  readonly sandbox: { readonly baseUrl: string; readonly key: string };
  /** Told of every event main pushes, as it is pushed (the benchmarks time the download by them). */
  readonly onEvent?: <E extends EventName>(event: E, payload: EventPayloads[E]) => void;
  /** How local data reaches the disk (the end-to-end tests inject one that fails as a full disk would). */
  readonly files?: LocalFiles;
  /** When watched domains are checked again; the interface's schedule unless a test gives a shorter one. */
  readonly recheckSchedule?: RecheckSchedule;
  /** The page's size (headless); the window's own otherwise. */
  readonly viewport?: { readonly width: number; readonly height: number };
  /** Run on the window's page before the app is loaded in it (tests set their watchers there). */
  readonly prepare?: (page: Page) => Promise<void>;
  /**
   * false: the window stays empty, for a caller that loads `url` itself once
   * it is ready (the benchmarks time the app's first start). Default true.
   */
  readonly load?: boolean;
  /** Chromium with a window of its own (default: headless). The process's first harness decides. */
  readonly headful?: boolean;
  /** Where Chromium's DevTools listen (default: a free port). The process's first harness decides. */
  readonly devtoolsPort?: number;
}

export interface Harness {
  /** The app's page, as the window loads it; a caller may add `&name` parameters after its fragment. */
  readonly url: string;
  /** The window's page in the stand-in's Chromium. */
  readonly page: Page;
  /** The running Chromium's DevTools endpoint (http://127.0.0.1:port). */
  readonly devtools: string;
  readonly service: EnvironmentService;
  /** Closes the services and starts new ones on the same data folder, in the same window, as a restart of the app does. */
  restart(): Promise<Harness>;
  /** Closes the window and the services. */
  close(): Promise<void>;
}

/** Settings in a file of the data folder, written whole (the real app uses electron-store). */
function fileSettings(dataDir: string) {
  const file = join(dataDir, 'settings.json');
  return {
    read: (): Settings =>
      existsSync(file) ? parseSettings(JSON.parse(readFileSync(file, 'utf8'))) : DEFAULT_SETTINGS,
    // A new file renamed into place: a full disk or a crash leaves the old one whole.
    write: (settings: Settings) => {
      writeFileSync(`${file}.tmp`, JSON.stringify(settings));
      renameSync(`${file}.tmp`, file);
    },
  };
}

/** The window whose services answer its calls, by its webContents. */
const hosted = new Map<Electron.WebContents, { handlers: Handlers }>();

/**
 * What is set up once per process: the Electron edge's modules, loaded only
 * now that `electron` maps to the stand-in; each window locked down as
 * index.ts does; and one registration per channel, answering each window
 * from its own services.
 */
let edge:
  | Promise<{
      readonly handle: typeof HandleModule;
      readonly window: typeof WindowModule;
      readonly electron: typeof StandinElectron;
    }>
  | undefined;

function loadEdge(standin: InProcessStandin) {
  edge ??= (async () => {
    const handle = await import('../../src/main/ipc/handle.ts');
    const window = await import('../../src/main/window.ts');
    const electron = await import('../electron-standin/electron/index.ts');
    const { app } = electron;
    app.on('web-contents-created', (_event: unknown, contents: Electron.WebContents) => {
      window.lockDown(contents, APP_PAGE);
      window.addContextMenu(contents);
    });
    // A harness's window closing leaves the others, and the process, as they are.
    app.on('window-all-closed', () => undefined);
    const ownHandlers = (): Handlers => {
      const sender = standin.currentSender();
      const own = sender && hosted.get(sender);
      if (!own) throw new Error('a call from a window the harness does not host');
      return own.handlers;
    };
    const routed = Object.fromEntries(
      CHANNELS.map((channel) => [
        channel,
        (...args: unknown[]) =>
          (ownHandlers()[channel] as (...a: unknown[]) => Promise<unknown>)(...args),
      ]),
    ) as unknown as Handlers;
    handle.registerIpc(
      routed,
      (event) => hosted.has(event.sender) && window.isAppUrl(event.senderFrame?.url, APP_PAGE),
    );
    return { handle, window, electron };
  })();
  return edge;
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  for (const built of [APP_PAGE.file, join(PRELOAD_DIR, 'index.cjs')])
    if (!existsSync(built)) throw new Error(`No built app (${built}): run "npm run build" first.`);
  mkdirSync(options.dataDir, { recursive: true });
  const standin = await useStandinInProcess({
    appPath: ROOT,
    headless: options.headful !== true,
    ...(options.devtoolsPort !== undefined ? { devtoolsPort: options.devtoolsPort } : {}),
  });
  let window: Electron.BrowserWindow | undefined;
  try {
    const { handle, window: edgeWindow } = await loadEdge(standin);
    const made = edgeWindow.createMainWindow(APP_PAGE, PRELOAD_DIR);
    window = made;
    const side = standin.windowSide(made);
    const release = side.holdLoads();
    const contents = made.webContents;
    const emit = handle.emitTo(() => contents);
    const emitAndTell: Emit = (event, payload) => {
      options.onEvent?.(event, payload);
      emit(event, payload);
    };
    const open = async (): Promise<AppServices> => {
      const services = createAppServices({
        dataDir: join(options.dataDir, 'local-data'),
        settings: fileSettings(options.dataDir),
        keys: new KeyStore({
          safeStorage: noEncryption,
          store: new MemoryCiphertextStore(),
          platform: 'linux',
        }),
        // No dialog of main's own to ask in: a key moved to another address is entered again.
        confirmKeyForOrigin: declineKeyForOrigin,
        startSandbox: async () => ({ ...options.sandbox, close: async () => undefined }),
        ...(options.files ? { files: options.files } : {}),
        ...(options.recheckSchedule ? { recheckSchedule: options.recheckSchedule } : {}),
      });
      hosted.set(contents, {
        handlers: services.handlers(
          emitAndTell,
          handle.streamOrdersTo(() => contents),
        ),
      });
      await services.resumeWork();
      return services;
    };
    let services = await open();
    const page = await side.page();
    if (options.viewport) await page.setViewportSize(options.viewport);
    await options.prepare?.(page);
    if (options.load !== false) {
      const loaded = new Promise<void>((done) => contents.once('did-finish-load', () => done()));
      release();
      await loaded;
    }
    const url = `${pathToFileURL(APP_PAGE.file).href}#harness`;
    const harness = (): Harness => ({
      url,
      page,
      devtools: standin.devtools,
      service: services.service,
      async restart() {
        // The page goes first, as it does when the app quits; the new services find its data.
        release();
        await made.loadURL('about:blank');
        await services.close();
        services = await open();
        await made.loadFile(APP_PAGE.file);
        return harness();
      },
      async close() {
        hosted.delete(contents);
        if (!made.isDestroyed()) made.destroy();
        await services.close();
        await standin.release();
      },
    });
    return harness();
  } catch (error) {
    if (window) {
      hosted.delete(window.webContents);
      if (!window.isDestroyed()) window.destroy();
    }
    await standin.release();
    throw error;
  }
}
