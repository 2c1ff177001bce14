// The app's main-process services as one desktop runs them, with the
// built-in Sandbox environment pointed at a sandbox the test runs (on the
// key it chooses), and the test's own clock, data folder and file layer.
// The IPC handlers are built with an emit that records every event.
// Shared by the reliability tests, `npm run soak` and the quota tests.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppServices, type AppServices } from '../../src/main/app-services.ts';
import { DEFAULT_SETTINGS } from '../../src/main/environments/environment-service.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import type { Handlers } from '../../src/main/ipc/handlers.ts';
import { KeyStore } from '../../src/main/keys/key-store.ts';
import { MemoryCiphertextStore } from '../../src/main/keys/memory-ciphertext-store.ts';
import { declineKeyForOrigin } from '../../src/main/keys/origin-confirmation.ts';
import type { LocalFiles } from '../../src/main/local-data/local-files.ts';
import type { Timing } from '../../src/main/store-api/clock.ts';
import type { Sandbox } from '../../src/main/sandbox/server.ts';
import type { Result } from '../../src/shared/result.ts';
import type { SafeStorageLike } from '../../src/main/keys/storage-protection.ts';

export interface DesktopApp {
  readonly services: AppServices;
  readonly handlers: Handlers;
  readonly dataDir: string;
  /** Every event main pushed, in order. */
  readonly events: { readonly event: string; readonly payload: unknown }[];
  /** One IPC call as the renderer makes it (validated, dispatched, a Result). */
  call(channel: string, ...args: unknown[]): Promise<Result<unknown>>;
  close(): Promise<void>;
}

/**
 * A desktop without an OS secret store: keys entered stay in memory for the
 * session. Only the built-in Sandbox is used here, whose key comes with it.
 */
const NO_SECRET_STORE: SafeStorageLike = {
  isAsyncEncryptionAvailable: async () => false,
  encryptStringAsync: async () => {
    throw new Error('no secret store on this desktop');
  },
  decryptStringAsync: async () => {
    throw new Error('no secret store on this desktop');
  },
};

export function desktopApp(
  sandbox: Pick<Sandbox, 'baseUrl'>,
  options: {
    readonly key?: string;
    readonly timing?: Timing;
    readonly dataDir?: string;
    readonly files?: LocalFiles;
    /** Every request the client sends goes through it (to watch what leaves when). */
    readonly fetch?: typeof fetch;
  } = {},
): DesktopApp {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'desktop-'));
  let settings = DEFAULT_SETTINGS;
  const services = createAppServices({
    dataDir,
    ...(options.timing ? { timing: options.timing } : {}),
    ...(options.files ? { files: options.files } : {}),
    settings: { read: () => settings, write: (next) => (settings = next) },
    keys: new KeyStore({
      safeStorage: NO_SECRET_STORE,
      store: new MemoryCiphertextStore(),
      platform: 'linux',
    }),
    confirmKeyForOrigin: declineKeyForOrigin,
    startSandbox: async () => ({
      baseUrl: sandbox.baseUrl,
      key: options.key ?? 'demo-pro',
      close: async () => undefined,
    }),
    clientOptions: {
      attemptTimeoutMs: 5_000,
      totalTimeoutMs: 30_000,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
  });
  const events: DesktopApp['events'][number][] = [];
  const handlers = services.handlers((event, payload) =>
    events.push({ event, payload: structuredClone(payload) }),
  );
  return {
    services,
    handlers,
    dataDir,
    events,
    call: (channel, ...args) => dispatch(handlers, channel, args, () => undefined),
    close: async () => {
      await services.close();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
