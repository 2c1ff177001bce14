// The real main-process services, in-process, behind the same API the
// renderer gets from the preload: a real sandbox over loopback HTTP, the real
// environment service, handlers and dispatch, a real key store. Only
// safeStorage is the shared fake (the electron module is the one thing
// mocked). An order list's rows reach the renderer side as they would over a
// MessagePort: structured copies, delivered as tasks, on `orderStreams`.
// `received` records everything the renderer side was given, so tests can
// prove the key never reaches it. The data folder's file layer can be made to
// fail as a full or read-only disk would (`disk.fail`).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppServices, type AppServices } from '../../src/main/app-services.ts';
import type { UpdateFeed } from '../../src/main/updates/update-settings.ts';
import {
  DEFAULT_SETTINGS,
  type EnvironmentService,
  type Settings,
} from '../../src/main/environments/environment-service.ts';
import type { RecheckSchedule } from '../../src/main/domains/recheck-schedule.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import type { Emit } from '../../src/main/ipc/handlers.ts';
import { KeyStore } from '../../src/main/keys/key-store.ts';
import { MemoryCiphertextStore } from '../../src/main/keys/memory-ciphertext-store.ts';
import {
  declineKeyForOrigin,
  type ConfirmKeyForOrigin,
} from '../../src/main/keys/origin-confirmation.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/main/sandbox/server.ts';
import { realTiming, type Timing } from '../../src/main/store-api/clock.ts';
import {
  createApi,
  type Invoke,
  type StoreAdminApi,
  type Subscribe,
} from '../../src/shared/api.ts';
import { SANDBOX_DEMO_KEY } from '../../src/shared/environments.ts';
import type { EnvironmentId } from '../../src/shared/environments.ts';
import type { EventName } from '../../src/shared/ipc-contract.ts';
import type { Order } from '../../src/shared/order.ts';
import type { Result } from '../../src/shared/result.ts';
import type { OrderStreamMessage, OrderStreams } from '../../src/shared/order-stream.ts';
import type { OpenOrderStream } from '../../src/main/orders/order-stream.ts';
import { FakeSafeStorage, platformForBackend, type FakeStorageBackend } from './electron-mock.ts';
import { failingFiles, type FailingFiles } from './failing-files.ts';
import { ordersOfScreen } from './screen-orders.ts';

export interface InProcessApp {
  readonly api: StoreAdminApi;
  /** Where the lists asked for with a stream id arrive, as columns (give it to App). */
  readonly orderStreams: OrderStreams;
  /**
   * `orders:list` or `orders:cached` with a stream, as the renderer calls them:
   * the result, and the orders its rows came to (empty unless the list is whole).
   */
  readList(
    channel: 'orders:list' | 'orders:cached',
    environment: EnvironmentId,
  ): Promise<{ result: Result<unknown>; orders: Order[]; parts: number }>;
  /** The raw invoke under the API, for sending what the API's methods would not. */
  readonly invoke: (channel: string, ...args: unknown[]) => Promise<unknown>;
  readonly sandbox: Sandbox;
  readonly service: EnvironmentService;
  readonly services: AppServices;
  /** The app's local data folder (order cache, cancel log, review marks). */
  readonly dataDir: string;
  /** The data folder's disk: `disk.fail('ENOSPC')` fills it, `disk.fail(undefined)` frees it. */
  readonly disk: Pick<FailingFiles, 'fail'>;
  readonly keys: KeyStore;
  readonly safeStorage: FakeSafeStorage;
  /** Every result and event the renderer side received, in order. */
  readonly received: unknown[];
  readonly settings: () => Settings;
  /** The addresses main opened in the browser (Electron's shell stands in as a list). */
  readonly opened: readonly string[];
  close(): Promise<void>;
}

export { SANDBOX_DEMO_KEY };

export async function startInProcessApp(
  options: {
    sandbox?: SandboxOptions;
    backend?: FakeStorageBackend;
    settings?: Settings;
    dataDir?: string;
    /** Stands in for main's dialog; declines (asks nobody) by default. */
    confirmKeyForOrigin?: ConfirmKeyForOrigin;
    /** When watched domains are checked again; a test in real time gives a short schedule. */
    recheckSchedule?: RecheckSchedule;
    /** The update address given when the app was built. */
    buildUpdateFeed?: UpdateFeed;
    /**
     * The desktop's locale, as Electron's app.getSystemLocale() gives it (dates,
     * times and numbers follow it); en-GB unless a test says otherwise.
     */
    locale?: string;
    /** Saved keys from an earlier run, and the safeStorage that wrote them. */
    ciphertexts?: MemoryCiphertextStore;
    safeStorage?: FakeSafeStorage;
  } = {},
): Promise<InProcessApp> {
  // The real clock, read from the globals at each call rather than captured, so a
  // test's fake timers (vi.useFakeTimers) move main's and the sandbox's clocks with the window's.
  const timing: Timing = { ...realTiming, now: () => Date.now() };
  const sandbox = await startSandbox({ port: 0, now: timing.now, ...options.sandbox });
  const safeStorage = options.safeStorage ?? new FakeSafeStorage(options.backend ?? 'keychain');
  const keys = new KeyStore({
    safeStorage,
    store: options.ciphertexts ?? new MemoryCiphertextStore(),
    platform: platformForBackend(safeStorage.backend),
  });
  // As main does: the saved keys are read before anything asks for them.
  await keys.ready();
  let settings = options.settings ?? DEFAULT_SETTINGS;
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'store-admin-app-'));
  const disk = failingFiles();
  const opened: string[] = [];
  const services = createAppServices({
    dataDir,
    timing,
    files: disk,
    settings: { read: () => settings, write: (next) => (settings = next) },
    keys,
    confirmKeyForOrigin: options.confirmKeyForOrigin ?? declineKeyForOrigin,
    startSandbox: async () => ({
      baseUrl: sandbox.baseUrl,
      key: SANDBOX_DEMO_KEY,
      close: async () => undefined,
    }),
    clientOptions: { attemptTimeoutMs: 5_000, totalTimeoutMs: 20_000, maxRetries: 2 },
    locale: options.locale ?? 'en-GB',
    openExternal: (url) => opened.push(url),
    ...(options.recheckSchedule ? { recheckSchedule: options.recheckSchedule } : {}),
    ...(options.buildUpdateFeed ? { buildUpdateFeed: options.buildUpdateFeed } : {}),
  });

  const received: unknown[] = [];
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  const emit: Emit = (event, payload) => {
    // Structured clone, as IPC does: the renderer gets copies, never live objects.
    const copy = structuredClone(payload);
    received.push({ event, payload: copy });
    listeners.get(event)?.forEach((listener) => listener(copy as never));
  };
  const streamListeners = new Map<string, (message: OrderStreamMessage) => void>();
  const openOrderStream: OpenOrderStream = (streamId) => ({
    post: (message) => {
      // Copied as a port copies it, and delivered as a task, in order.
      const copy = structuredClone(message);
      received.push({ stream: streamId, message: copy });
      setTimeout(() => streamListeners.get(streamId)?.(copy), 0);
    },
    close: () => undefined,
  });
  const orderStreams: OrderStreams = {
    listen: (streamId, onMessage) => {
      streamListeners.set(streamId, onMessage);
      return () => streamListeners.delete(streamId);
    },
  };
  const service = services.service;
  const handlers = services.handlers(emit, openOrderStream);
  await services.resumeWork();

  const invoke: Invoke = async (channel, ...args) => {
    const result = structuredClone(await dispatch(handlers, channel, args, () => undefined));
    received.push(result);
    return result as never;
  };
  const on: Subscribe = (event, listener) => {
    const set = listeners.get(event) ?? new Set();
    set.add(listener);
    listeners.set(event, set);
    return () => set.delete(listener);
  };

  let streams = 0;
  const readList: InProcessApp['readList'] = async (channel, environment) => {
    const streamId = `test-${++streams}`;
    const orders: Order[] = [];
    let parts = 0;
    let ended: () => void = () => undefined;
    const end = new Promise<void>((resolve) => (ended = resolve));
    const stop = orderStreams.listen(streamId, (message) => {
      if (message.kind === 'rows') {
        parts += 1;
        orders.push(...ordersOfScreen(message.columns));
      } else ended();
    });
    try {
      const result = (await invoke(channel, environment, streamId)) as Result<unknown>;
      const whole =
        result.ok && (channel === 'orders:list' || (result.value as { found: boolean }).found);
      if (!whole) return { result, orders: [], parts };
      await end;
      return { result, orders, parts };
    } finally {
      stop();
    }
  };

  let closing: Promise<void> | undefined;
  return {
    api: createApi(invoke, on),
    orderStreams,
    readList,
    invoke: invoke as unknown as InProcessApp['invoke'],
    sandbox,
    service,
    services,
    dataDir,
    disk,
    keys,
    safeStorage,
    received,
    settings: () => settings,
    opened,
    // Once, however often asked: a test may close the app itself and leave the same to its cleanup.
    close: () =>
      (closing ??= (async () => {
        await services.close();
        await sandbox.close();
        // A refresh the test left under way may still open its cache's temporary file while the
        // folder goes (the app sweeps such files at its next start): the removal tries again.
        if (ownDataDir) rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
      })()),
  };
}
