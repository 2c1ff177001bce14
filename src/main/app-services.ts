// Everything the main process runs, put together once: the environments, the
// local order data and the IPC handlers over them. Electron's entry point, the
// development harness and the tests all build the app through this, each with
// its own settings, key store, data folder and way of asking the clerk.
// Local order data belongs to the service an environment points at (its
// scope), so a new address starts empty and an old one finds its data again.

import { mkdirSync } from 'node:fs';
import { ENVIRONMENT_IDS, type EnvironmentId } from '../shared/environments.ts';
import { BulkJournal } from './bulk-cancel/journal.ts';
import { BulkCancelQueue } from './bulk-cancel/queue.ts';
import { adoptUnscopedFiles, type ServiceScope } from './environments/service-scope.ts';
import { realTiming, type Timing } from './quota/clock.ts';
import { quotaFolder, SharedGateFolder } from './quota/shared-gate-files.ts';
import { DomainWorkspaceStore } from './domains/workspace-store.ts';
import {
  EnvironmentService,
  type EnvironmentServiceDeps,
} from './environments/environment-service.ts';
import { createHandlers, type Emit, type Handlers } from './ipc/handlers.ts';
import type { OpenOrderStream } from './orders/order-stream.ts';
import { CancelLog } from './orders/cancel-log.ts';
import { OrderCache } from './orders/order-cache.ts';
import { ReviewMarksStore } from './orders/review-marks.ts';

export interface AppServicesDeps extends EnvironmentServiceDeps {
  /** Where the order cache, cancel log and review marks live. */
  readonly dataDir: string;
  readonly timing?: Timing;
}

export interface AppServices {
  readonly service: EnvironmentService;
  readonly cache: OrderCache;
  readonly cancelLog: CancelLog;
  readonly reviewMarks: ReviewMarksStore;
  readonly domains: DomainWorkspaceStore;
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
  mkdirSync(deps.dataDir, { recursive: true, mode: 0o700 });
  const timing = deps.timing ?? realTiming;
  const service = new EnvironmentService({
    // Per key and address, shared with the CLI when it uses the same data folder.
    quotaStore: new SharedGateFolder(quotaFolder(deps.dataDir), timing.now),
    ...deps,
  });
  for (const environment of ENVIRONMENT_IDS) {
    const scope = service.scopeOf(environment);
    if (scope) adoptUnscopedFiles(deps.dataDir, scope);
  }
  const cache = new OrderCache(deps.dataDir);
  void cache.sweepTemporaryFiles();
  const cancelLog = new CancelLog(deps.dataDir);
  const reviewMarks = new ReviewMarksStore(deps.dataDir);
  const domains = new DomainWorkspaceStore(deps.dataDir);
  const now = timing.now;
  let emitBulk: (environment: EnvironmentId) => void = () => undefined;

  /** Each environment's bulk cancel, for the service it points at now. */
  const current = new Map<EnvironmentId, ScopedQueue>();
  /** Bulk cancels of earlier addresses, finishing the answers already on their way, by scope. */
  const leaving = new Map<string, Promise<void>>();
  const queueFor = (scope: ServiceScope): BulkCancelQueue => {
    const queue: BulkCancelQueue = new BulkCancelQueue({
      environment: scope.environment,
      journal: new BulkJournal(deps.dataDir, scope),
      client: () => service.clientFor(scope),
      timing,
      onChange: () => {
        if (current.get(scope.environment)?.queue === queue) emitBulk(scope.environment);
      },
      onResult: (result) =>
        cancelLog.append(scope, {
          at: result.at,
          environment: scope.environment,
          orderId: result.orderId,
          result: result.outcome,
          message: result.message,
          ...(result.delivery ? { delivery: result.delivery } : {}),
        }),
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
    bulkCancelOf,
    currentBulkCancels: () => [...current.values()].map((entry) => entry.queue),
    resumeWork: async () => {
      await Promise.all(ENVIRONMENT_IDS.map((environment) => bulkCancelOf(environment)));
    },
    handlers: (emit, openOrderStream) => {
      service.onQuota((environment, quota) => emit('quota:changed', { environment, quota }));
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
      return createHandlers(
        { service, cache, cancelLog, reviewMarks, domains, bulkCancelOf, now, openOrderStream },
        emit,
      );
    },
    close: async () => {
      await Promise.all([
        ...[...current.values()].map((entry) => entry.queue.pauseForShutdown()),
        ...leaving.values(),
      ]);
      await service.close();
    },
  };
}
