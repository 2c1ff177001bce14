// Everything the main process runs, put together once: the environments, the
// local order data, the services that hold each capability's operations
// (orders, quota, bulk cancel, domains, deprecations) and the IPC handlers
// over them (the command line builds its own over the same services, in
// src/cli/cli-services.ts). Electron's entry point, the
// development harness and the tests all build the app through this, each with
// its own settings, key store, data folder and way of asking the clerk.
// Local order data belongs to the service an environment points at (its
// scope), so a new address starts empty and an old one finds its data again.

import { join } from 'node:path';
import { setDisplayLocale } from '../shared/display-format.ts';
import { ENVIRONMENT_IDS, type EnvironmentId } from '../shared/environments.ts';
import type { AppState } from '../shared/ipc-contract.ts';
import { BulkCancelService } from './bulk-cancel/bulk-cancel-service.ts';
import type { BulkCancelQueue } from './bulk-cancel/queue.ts';
import { DomainWatcher } from './domains/domain-watcher.ts';
import { DomainsService } from './domains/domains-service.ts';
import type { RecheckSchedule } from './domains/recheck-schedule.ts';
import { DomainWorkspaceStore } from './domains/workspace-store.ts';
import { Connectivity } from './environments/connectivity.ts';
import {
  EnvironmentService,
  type EnvironmentServiceDeps,
  type SettingsStore,
} from './environments/environment-service.ts';
import { adoptUnscopedFiles } from './environments/service-scope.ts';
import { createHandlers, type Emit, type Handlers } from './ipc/handlers.ts';
import { newerFilesIn, refusingNewer, type NewerDataError } from './local-data/data-files.ts';
import { carryOverEarlierSchedules } from './local-data/earlier-domain-schedules.ts';
import { EARLIER_QUOTA_STATE } from './local-data/earlier-quota-state.ts';
import { makeFolder, nodeFiles, type LocalFiles } from './local-data/local-files.ts';
import { StorageHealth } from './local-data/storage-health.ts';
import { CancelLog } from './orders/cancel-log.ts';
import { OrderChangesTracker } from './orders/changes.ts';
import { OrderCache } from './orders/order-cache.ts';
import type { OpenOrderStream } from './orders/order-stream.ts';
import { OrdersService } from './orders/orders-service.ts';
import { ReviewMarksStore } from './orders/review-marks.ts';
import { QuotaService } from './quota/quota-service.ts';
import { quotaFolder, SharedGateFolder } from './quota/shared-gate-files.ts';
import { realTiming, type Timing } from './store-api/clock.ts';
import { DeprecationNotices } from './store-api/deprecation-notices.ts';
import { DeprecationsService } from './store-api/deprecations-service.ts';
import { UpdateSettings, type UpdateFeed } from './updates/update-settings.ts';

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
  /** The update address the company gave when it built the app (its app-update.yml), if any. */
  readonly buildUpdateFeed?: UpdateFeed;
  /**
   * The desktop's locale for dates, times and numbers (Electron's
   * app.getSystemLocale()): main's own messages and the page follow it.
   * Without one, each side uses its runtime's default.
   */
  readonly locale?: string;
  /**
   * The userData folder's files (settings, keys, the window's place) saved
   * by a newer version: left as they are, said in the storage notice.
   */
  readonly newerUserData?: readonly NewerDataError[];
}

export interface AppServices {
  /** The environments: addresses, keys, and each one's client and gate. */
  readonly service: EnvironmentService;
  readonly orders: OrdersService;
  readonly quota: QuotaService;
  readonly bulkCancel: BulkCancelService;
  readonly domains: DomainsService;
  /** Re-checks saved domains by itself; says when one's status changes. */
  readonly domainWatcher: DomainWatcher;
  readonly deprecations: DeprecationsService;
  /** Where updates come from: the build's address, else the one set in Settings. */
  readonly updates: UpdateSettings;
  /** Whether each environment's service answers, as inferred from every call to it. */
  readonly connectivity: Connectivity;
  /** Whether the data folder takes what the app saves; the app goes on from memory when not. */
  readonly storage: StorageHealth;
  /** The environments as the renderer sees them, with a storage problem if there is one. */
  state(): AppState;
  /**
   * The bulk cancel of the service an environment points at now, loaded
   * from its journal; undefined while a remote environment has no address.
   */
  bulkCancelOf(environment: EnvironmentId): Promise<BulkCancelQueue | undefined>;
  /** The bulk-cancel queues of the environments' current addresses, as loaded so far. */
  currentBulkCancels(): BulkCancelQueue[];
  /** Restores bulk cancels from their journals, carrying on with those that were running. */
  resumeWork(): Promise<void>;
  /**
   * The machine woke, the screen was unlocked or the network came back
   * (wake/wake-watcher.ts): the domain checks are rescheduled from the wall
   * clock, and each service the app works with now is checked at once (the
   * active environment's, one that could not be reached, one with a bulk
   * cancel not over, which carries on as soon as its service answers).
   */
  afterWake(): Promise<void>;
  /** The IPC handlers, sending events through `emit` and lists' rows through `openOrderStream`. */
  handlers(emit: Emit, openOrderStream?: OpenOrderStream): Handlers;
  close(): Promise<void>;
}

export function createAppServices(deps: AppServicesDeps): AppServices {
  // Main's own messages (a hold's end, a ban's) read as the window does.
  if (deps.locale) setDisplayLocale(deps.locale);
  const storage = new StorageHealth(deps.dataDir);
  try {
    makeFolder(deps.dataDir);
  } catch (error) {
    if (!storage.failed(error, deps.dataDir)) throw error;
  }
  // A file a newer version saved is left as it is, and said once (as a full disk would be).
  const files = storage.watch(refusingNewer(deps.files ?? nodeFiles()));
  for (const newer of [...newerFilesIn(deps.dataDir), ...(deps.newerUserData ?? [])])
    storage.failed(newer, newer.file);
  const timing = deps.timing ?? realTiming;
  const now = timing.now;
  const service = new EnvironmentService({
    // Per key and address, shared with the CLI when it uses the same data folder.
    quotaStore: new SharedGateFolder(
      quotaFolder(deps.dataDir),
      timing.now,
      (file, error) => (error === undefined ? storage.saved(file) : storage.failed(error, file)),
      { earlierState: join(deps.dataDir, EARLIER_QUOTA_STATE) },
    ),
    ...deps,
    settings: settingsInMemoryWhenUnsaved(deps.settings, storage),
  });
  for (const environment of ENVIRONMENT_IDS) {
    const scope = service.scopeOf(environment);
    if (scope) adoptUnscopedFiles(deps.dataDir, scope);
  }
  carryOverEarlierSchedules(deps.dataDir);
  const cache = new OrderCache(deps.dataDir, files);
  void cache.sweepTemporaryFiles();
  const cancelLog = new CancelLog(deps.dataDir, files);
  const workspaces = new DomainWorkspaceStore(deps.dataDir, files);
  const notices = new DeprecationNotices(deps.dataDir);
  service.onDeprecation(
    (environment, endpoint, said) =>
      void notices.observe(environment, endpoint, said, now()).catch(() => undefined),
  );
  // Re-checks run in main, so they go on whichever screen is open.
  const watcher = new DomainWatcher({
    workspaces,
    dir: deps.dataDir,
    timing,
    ...(deps.recheckSchedule ? { schedule: deps.recheckSchedule } : {}),
  });
  workspaces.onChange((project) => void watcher.refresh(project));

  // Every attempt to reach a service, whoever made it, tells whether it can be reached.
  const connectivity = new Connectivity(now);
  service.onAttempt((environment, outcome) => connectivity.record(environment, outcome));
  service.onBaseUrlChange((environment) => connectivity.forget(environment));
  const orders = new OrdersService({
    access: service,
    cache,
    cancelLog,
    now,
    saves: storage,
    reviewMarks: new ReviewMarksStore(deps.dataDir, files),
    changes: new OrderChangesTracker(cache, cancelLog),
  });
  const quota = new QuotaService({
    access: service,
    view: (environment) => service.quota(environment),
  });
  const bulkCancel = new BulkCancelService({
    dataDir: deps.dataDir,
    files,
    timing,
    scopeOf: (environment) => service.scopeOf(environment),
    clientFor: (scope) => service.clientFor(scope),
    logHooks: (scope) => orders.cancelLogHooks(scope),
    connectivity,
  });
  service.onBaseUrlChange(
    (environment) => void bulkCancel.queueOf(environment).catch(() => undefined),
  );
  service.onQuota((environment, view) => bulkCancel.observeQuota(environment, view));
  const domains = new DomainsService(workspaces, watcher);
  const deprecations = new DeprecationsService(notices, deps.openExternal);
  const updates = new UpdateSettings({
    file: join(deps.dataDir, 'update-settings.json'),
    files,
    ...(deps.buildUpdateFeed ? { build: deps.buildUpdateFeed } : {}),
  });
  const state = (): AppState => {
    const problem = storage.problem();
    return {
      ...service.state(),
      ...(problem ? { storageProblem: problem } : {}),
      connectivity: connectivity.states(),
      ...(deps.locale ? { locale: deps.locale } : {}),
    };
  };

  return {
    service,
    orders,
    quota,
    bulkCancel,
    domains,
    domainWatcher: watcher,
    deprecations,
    updates,
    connectivity,
    storage,
    state,
    bulkCancelOf: (environment) => bulkCancel.queueOf(environment),
    currentBulkCancels: () => bulkCancel.currentQueues(),
    resumeWork: async () => {
      await Promise.all([bulkCancel.resumeAll(), watcher.start()]);
    },
    afterWake: async () => {
      watcher.reschedule();
      const active = service.state().activeEnvironment;
      const waiting = ENVIRONMENT_IDS.filter((environment) => {
        const job = bulkCancel.snapshotNow(environment);
        return (
          environment === active ||
          connectivity.isUnreachable(environment) ||
          (job !== undefined && (job.status === 'running' || job.status === 'paused'))
        );
      });
      // A check that fails says so as any does (connectivity, the notices).
      await Promise.all(
        waiting.map((environment) => quota.check(environment).catch(() => undefined)),
      );
    },
    handlers: (emit, openOrderStream) =>
      createHandlers(
        {
          environments: service,
          state,
          orders,
          quota,
          bulkCancel,
          domains,
          deprecations,
          connectivity,
          now,
          storage,
          notices,
          watcher,
          updates,
          ...(openOrderStream ? { openOrderStream } : {}),
        },
        emit,
      ),
    close: async () => {
      await Promise.all([bulkCancel.close(), watcher.close()]);
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
