// Everything the main process runs, put together once: the environments, the
// local order data and the IPC handlers over them. Electron's entry point, the
// development harness and the tests all build the app through this, each with
// its own settings, key store and data folder.

import { mkdirSync } from 'node:fs';
import { ENVIRONMENT_IDS, type EnvironmentId } from '../shared/environments.ts';
import { BulkJournal } from './bulk-cancel/journal.ts';
import { BulkCancelQueue } from './bulk-cancel/queue.ts';
import { realTiming, type Timing } from './quota/clock.ts';
import { quotaFolder, SharedGateFolder } from './quota/shared-gate-files.ts';
import { DomainWorkspaceStore } from './domains/workspace-store.ts';
import {
  EnvironmentService,
  type EnvironmentServiceDeps,
} from './environments/environment-service.ts';
import { createHandlers, type Emit, type Handlers } from './ipc/handlers.ts';
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
  readonly bulkCancel: Readonly<Record<EnvironmentId, BulkCancelQueue>>;
  /** Restores bulk cancels from their journals, carrying on with those that were running. */
  resumeWork(): Promise<void>;
  /** The IPC handlers, sending events through `emit`. */
  handlers(emit: Emit): Handlers;
  close(): Promise<void>;
}

export function createAppServices(deps: AppServicesDeps): AppServices {
  mkdirSync(deps.dataDir, { recursive: true, mode: 0o700 });
  const timing = deps.timing ?? realTiming;
  const service = new EnvironmentService({
    // Per key and address, shared with the CLI when it uses the same data folder.
    quotaStore: new SharedGateFolder(quotaFolder(deps.dataDir), timing.now),
    ...deps,
  });
  const cache = new OrderCache(deps.dataDir);
  void cache.sweepTemporaryFiles();
  const cancelLog = new CancelLog(deps.dataDir);
  const reviewMarks = new ReviewMarksStore(deps.dataDir);
  const domains = new DomainWorkspaceStore(deps.dataDir);
  const now = timing.now;
  let emitBulk: (environment: EnvironmentId) => void = () => undefined;
  const bulkCancel = Object.fromEntries(
    ENVIRONMENT_IDS.map((environment) => [
      environment,
      new BulkCancelQueue({
        environment,
        journal: new BulkJournal(deps.dataDir, environment),
        client: () => service.client(environment),
        timing,
        onChange: () => emitBulk(environment),
        onResult: (result) =>
          cancelLog.append({
            at: result.at,
            environment,
            orderId: result.orderId,
            result: result.outcome,
            message: result.message,
            ...(result.delivery ? { delivery: result.delivery } : {}),
          }),
      }),
    ]),
  ) as Record<EnvironmentId, BulkCancelQueue>;
  service.onQuota((environment, quota) => bulkCancel[environment].observeQuota(quota));
  return {
    service,
    cache,
    cancelLog,
    reviewMarks,
    domains,
    bulkCancel,
    resumeWork: async () => {
      await Promise.all(ENVIRONMENT_IDS.map((environment) => bulkCancel[environment].load()));
    },
    handlers: (emit) => {
      service.onQuota((environment, quota) => emit('quota:changed', { environment, quota }));
      // Progress events at most every 200 ms per environment; the last one always goes out.
      const timers = new Map<EnvironmentId, ReturnType<typeof setTimeout>>();
      emitBulk = (environment) => {
        if (timers.has(environment)) return;
        timers.set(
          environment,
          setTimeout(() => {
            timers.delete(environment);
            const snapshot = bulkCancel[environment].snapshot();
            if (snapshot) emit('bulk-cancel:changed', { environment, snapshot });
          }, 200),
        );
      };
      return createHandlers(
        { service, cache, cancelLog, reviewMarks, domains, bulkCancel, now },
        emit,
      );
    },
    close: async () => {
      await Promise.all(
        ENVIRONMENT_IDS.map((environment) => bulkCancel[environment].pauseForShutdown()),
      );
      await service.close();
    },
  };
}
