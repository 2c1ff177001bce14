// Everything the main process runs, put together once: the environments, the
// local order data and the IPC handlers over them. Electron's entry point, the
// development harness and the tests all build the app through this, each with
// its own settings, key store, data folder and way of asking the clerk.
// Local order data belongs to the service an environment points at (its
// scope), so a new address starts empty and an old one finds its data again.

import { ENVIRONMENT_IDS, type EnvironmentId } from '../shared/environments.ts';
import { BulkJournal } from './bulk-cancel/journal.ts';
import { BulkCancelQueue } from './bulk-cancel/queue.ts';
import { adoptUnscopedFiles, type ServiceScope } from './environments/service-scope.ts';
import { realTiming, type Timing } from './store-api/clock.ts';
import { quotaFolder, SharedGateFolder } from './quota/shared-gate-files.ts';
import { DomainWorkspaceStore } from './domains/workspace-store.ts';
import {
  EnvironmentService,
  type EnvironmentServiceDeps,
} from './environments/environment-service.ts';
import { createHandlers, type Emit, type Handlers } from './ipc/handlers.ts';
import type { OpenOrderStream } from './orders/order-stream.ts';
import { makeFolder, nodeFiles, type LocalFiles } from './local-data/local-files.ts';
import { StorageHealth } from './local-data/storage-health.ts';
import type { SettingsStore } from './environments/environment-service.ts';
import { CancelLog, cancelLogEntryOf, earlierCancelOf } from './orders/cancel-log.ts';
import { OrderChangesTracker } from './orders/changes.ts';
import { DeprecationNotices } from './store-api/deprecation-notices.ts';
import { DomainWatcher } from './domains/domain-watcher.ts';
import type { RecheckSchedule } from './domains/recheck-schedule.ts';
import { OrderCache } from './orders/order-cache.ts';
import { ReviewMarksStore } from './orders/review-marks.ts';

export interface AppServicesDeps extends EnvironmentServiceDeps {
  /** Where the order cache, cancel log and review marks live. */
  readonly dataDir: string;
  readonly timing?: Timing;
  /** How local data reaches the disk (tests inject one that fails as a full disk would). */
  readonly files?: LocalFiles;
  /** Opens a vetted https address in the system's browser (Electron's shell); none in the harness. */
  readonly openExternal?: (url: string) => void;
  /** When a watched domain is checked again (default: the interface's schedule); shorter in e2e tests. */
  readonly recheckSchedule?: RecheckSchedule;
}

export interface AppServices {
  readonly service: EnvironmentService;
  readonly cache: OrderCache;
  readonly cancelLog: CancelLog;
  readonly reviewMarks: ReviewMarksStore;
  readonly domains: DomainWorkspaceStore;
  /** Whether the data folder takes what the app saves; the app goes on from memory when not. */
  readonly storage: StorageHealth;
  readonly changes: OrderChangesTracker;
  readonly deprecations: DeprecationNotices;
  readonly watcher: DomainWatcher;
  /**
   * The bulk cancel of the service an environment points at now, loaded
   * from its journal; undefined while a remote environment has no address.
   */
  bulkCancelOf(environment: EnvironmentId): Promise<BulkCancelQueue | undefined>;
  /** The bulk-cancel queues of the environments' current addresses, as loaded so far. */
  currentBulkCancels(): BulkCancelQueue[];
  /** Restores bulk cancels from their journals, carrying on with those that were running. */
  resumeWork(): Promise<void>;
  /** The IPC handlers, sending events through `emit` and lists' rows through `openOrderStream`. */
  handlers(emit: Emit, openOrderStream?: OpenOrderStream): Handlers;
  close(): Promise<void>;
}

interface ScopedQueue {
  readonly scope: ServiceScope;
  readonly queue: BulkCancelQueue;
  readonly loaded: Promise<void>;
}

export function createAppServices(deps: AppServicesDeps): AppServices {
  const storage = new StorageHealth(deps.dataDir);
  try {
    makeFolder(deps.dataDir);
  } catch (error) {
    if (!storage.failed(error, deps.dataDir)) throw error;
  }
  const files = storage.watch(deps.files ?? nodeFiles());
  const timing = deps.timing ?? realTiming;
  const service = new EnvironmentService({
    // Per key and address, shared with the CLI when it uses the same data folder.
    quotaStore: new SharedGateFolder(quotaFolder(deps.dataDir), timing.now, (file, error) =>
      error === undefined ? storage.saved(file) : storage.failed(error, file),
    ),
    ...deps,
    settings: settingsInMemoryWhenUnsaved(deps.settings, storage),
  });
  for (const environment of ENVIRONMENT_IDS) {
    const scope = service.scopeOf(environment);
    if (scope) adoptUnscopedFiles(deps.dataDir, scope);
  }
  const cache = new OrderCache(deps.dataDir, files);
  void cache.sweepTemporaryFiles();
  const cancelLog = new CancelLog(deps.dataDir, files);
  const reviewMarks = new ReviewMarksStore(deps.dataDir, files);
  const domains = new DomainWorkspaceStore(deps.dataDir, files);
  const now = timing.now;
  const changes = new OrderChangesTracker(cache, cancelLog);
  const deprecations = new DeprecationNotices(deps.dataDir);
  service.onDeprecation(
    (environment, endpoint, said) =>
      void deprecations.observe(environment, endpoint, said, now()).catch(() => undefined),
  );
  // Re-checks run in main, so they go on whichever screen is open.
  const watcher = new DomainWatcher({
    workspaces: domains,
    dir: deps.dataDir,
    timing,
    ...(deps.recheckSchedule ? { schedule: deps.recheckSchedule } : {}),
  });
  domains.onChange((environment) => void watcher.refresh(environment));
  let emitBulk: (environment: EnvironmentId) => void = () => undefined;

  /** Each environment's bulk cancel, for the service it points at now. */
  const current = new Map<EnvironmentId, ScopedQueue>();
  /** Bulk cancels of earlier addresses, finishing the answers already on their way, by scope. */
  const leaving = new Map<string, Promise<void>>();
  const queueFor = (scope: ServiceScope): BulkCancelQueue => {
    const queue: BulkCancelQueue = new BulkCancelQueue({
      environment: scope.environment,
      journal: new BulkJournal(deps.dataDir, scope, { files }),
      client: () => service.clientFor(scope),
      timing,
      onChange: () => {
        if (current.get(scope.environment)?.queue === queue) emitBulk(scope.environment);
      },
      onResult: (result) => cancelLog.append(scope, cancelLogEntryOf(scope.environment, result)),
      earlierCancel: async (orderId) => earlierCancelOf(await cancelLog.read(scope), orderId),
    });
    return queue;
  };
  /**
   * The old address's job stops sending, as on quit, so it carries on when
   * the address comes back; that waits until its last answers are journaled.
   */
  const retire = (environment: EnvironmentId, entry: ScopedQueue): void => {
    current.delete(environment);
    const stopped = entry.queue
      .pauseForShutdown()
      .then(() => entry.loaded)
      .catch(() => undefined)
      .then(() => entry.queue.idle());
    leaving.set(entry.scope.key, stopped);
    void stopped.then(() => {
      if (leaving.get(entry.scope.key) === stopped) leaving.delete(entry.scope.key);
    });
  };
  const bulkCancelOf = async (environment: EnvironmentId): Promise<BulkCancelQueue | undefined> => {
    const scope = service.scopeOf(environment);
    let entry = current.get(environment);
    if (entry && entry.scope.key !== scope?.key) {
      retire(environment, entry);
      entry = undefined;
    }
    if (!scope) return undefined;
    if (!entry) {
      const queue = queueFor(scope);
      const earlier = leaving.get(scope.key) ?? Promise.resolve();
      entry = { scope, queue, loaded: earlier.then(() => queue.load()) };
      current.set(environment, entry);
    }
    await entry.loaded;
    return entry.queue;
  };
  service.onBaseUrlChange((environment) => void bulkCancelOf(environment).catch(() => undefined));
  service.onQuota((environment, quota) => current.get(environment)?.queue.observeQuota(quota));
  return {
    service,
    cache,
    cancelLog,
    reviewMarks,
    domains,
    storage,
    changes,
    deprecations,
    watcher,
    bulkCancelOf,
    currentBulkCancels: () => [...current.values()].map((entry) => entry.queue),
    resumeWork: async () => {
      await Promise.all([
        ...ENVIRONMENT_IDS.map((environment) => bulkCancelOf(environment)),
        watcher.start(),
      ]);
    },
    handlers: (emit, openOrderStream) => {
      service.onQuota((environment, quota) => emit('quota:changed', { environment, quota }));
      storage.onChange((problem) => emit('storage:changed', { problem: problem ?? null }));
      // Progress events at most every 200 ms per environment; the last one always goes out.
      const timers = new Map<EnvironmentId, ReturnType<typeof setTimeout>>();
      emitBulk = (environment) => {
        if (timers.has(environment)) return;
        timers.set(
          environment,
          setTimeout(() => {
            timers.delete(environment);
            const snapshot = current.get(environment)?.queue.snapshot();
            if (snapshot) emit('bulk-cancel:changed', { environment, snapshot });
          }, 200),
        );
      };
      deprecations.onChange(
        (environment) =>
          void deprecations
            .list(environment)
            .then((notices) => emit('deprecations:changed', { environment, notices })),
      );
      watcher.onChange((watch, previous) =>
        emit('domains:watch-changed', { watch, ...(previous ? { previous } : {}) }),
      );
      return createHandlers(
        {
          service,
          cache,
          cancelLog,
          reviewMarks,
          domains,
          bulkCancelOf,
          storage,
          now,
          changes,
          deprecations,
          watcher,
          ...(deps.openExternal ? { openExternal: deps.openExternal } : {}),
          ...(openOrderStream ? { openOrderStream } : {}),
        },
        emit,
      );
    },
    close: async () => {
      await Promise.all([
        ...[...current.values()].map((entry) => entry.queue.pauseForShutdown()),
        ...leaving.values(),
        watcher.close(),
      ]);
      await service.close();
    },
  };
}

/**
 * Settings that a full or read-only disk will not take are kept in memory
 * for the session (the file keeps the last saved ones), so choosing an
 * environment or an address still works.
 */
function settingsInMemoryWhenUnsaved(
  settings: SettingsStore,
  storage: StorageHealth,
): SettingsStore {
  let unsaved: ReturnType<SettingsStore['read']> | undefined;
  return {
    read: () => unsaved ?? settings.read(),
    write: (next) => {
      try {
        settings.write(next);
        unsaved = undefined;
        storage.saved('settings');
      } catch (error) {
        if (!storage.failed(error, 'settings')) throw error;
        unsaved = next;
      }
    },
  };
}
