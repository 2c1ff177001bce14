// Everything the main process runs, put together once: the environments, the
// local order data and the IPC handlers over them. Electron's entry point, the
// development harness and the tests all build the app through this, each with
// its own settings, key store and data folder.

import { mkdirSync } from 'node:fs';
import type { Timing } from './quota/clock.ts';
import { DomainWorkspaceStore } from './domains/workspace-store.ts';
import { EnvironmentService, type EnvironmentServiceDeps } from './environments/environment-service.ts';
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
  /** The IPC handlers, sending events through `emit`. */
  handlers(emit: Emit): Handlers;
  close(): Promise<void>;
}

export function createAppServices(deps: AppServicesDeps): AppServices {
  mkdirSync(deps.dataDir, { recursive: true, mode: 0o700 });
  const service = new EnvironmentService(deps);
  const cache = new OrderCache(deps.dataDir);
  void cache.sweepTemporaryFiles();
  const cancelLog = new CancelLog(deps.dataDir);
  const reviewMarks = new ReviewMarksStore(deps.dataDir);
  const domains = new DomainWorkspaceStore(deps.dataDir);
  const now = deps.timing?.now ?? Date.now;
  return {
    service,
    cache,
    cancelLog,
    reviewMarks,
    domains,
    handlers: (emit) => {
      service.onQuota((environment, quota) => emit('quota:changed', { environment, quota }));
      return createHandlers({ service, cache, cancelLog, reviewMarks, domains, now }, emit);
    },
    close: () => service.close(),
  };
}
