// The implementation of every channel of the IPC contract, over the
// environment service. Plain Node: used by Electron's ipcMain (handle.ts) and
// by the development harness alike. Arguments arrive already validated.

import type {
  Channel,
  ChannelArgs,
  ChannelResults,
  EventName,
  EventPayloads,
} from '../../shared/ipc-contract.ts';
import { checkCertificateViaDns } from '../domains/certificate-via-dns.ts';
import { checkDomainDns } from '../domains/dns-check.ts';
import type { DomainWorkspaceStore } from '../domains/workspace-store.ts';
import type { EnvironmentId } from '../../shared/environments.ts';
import { BulkCancelActiveError, type BulkCancelQueue } from '../bulk-cancel/queue.ts';
import { addressNotSet, type EnvironmentService } from '../environments/environment-service.ts';
import { failure } from '../store-api/errors.ts';
import type { CancelLog } from '../orders/cancel-log.ts';
import type { OrderCache } from '../orders/order-cache.ts';
import { DamagedCacheError, readCachedColumns } from '../orders/read-cached.ts';
import { refreshOrderColumns } from '../orders/refresh.ts';
import { RowsSender, type OpenOrderStream } from '../orders/order-stream.ts';
import type { ReviewMarksStore } from '../orders/review-marks.ts';
import { serviceScope, type ServiceScope } from '../environments/service-scope.ts';
import { isStoreApiError } from '../store-api/client.ts';
import type { StorageHealth } from '../local-data/storage-health.ts';
import type { OrderChangesTracker } from '../orders/changes.ts';
import type { DeprecationNotices } from '../store-api/deprecation-notices.ts';
import type { DomainWatcher } from '../domains/domain-watcher.ts';

export interface HandlerDeps {
  readonly service: EnvironmentService;
  readonly domains: DomainWorkspaceStore;
  /** The bulk cancel of the service an environment points at now (see app-services.ts). */
  readonly bulkCancelOf: (environment: EnvironmentId) => Promise<BulkCancelQueue | undefined>;
  readonly cache: OrderCache;
  readonly cancelLog: CancelLog;
  readonly reviewMarks: ReviewMarksStore;
  /** Where a failure to save (a full or read-only disk) is told; the app goes on from memory. */
  readonly storage?: StorageHealth;
  readonly now: () => number;
  /** Where a list's rows go to the renderer while they are read (a MessagePort in Electron). */
  readonly openOrderStream?: OpenOrderStream;
  /** Changes since the last refresh, per service (issue 13 §1). */
  readonly changes: OrderChangesTracker;
  /** The service's deprecation notices (issue 13 §2). */
  readonly deprecations: DeprecationNotices;
  /** Opens a vetted https address in the system's browser; absent where there is none (the harness). */
  readonly openExternal?: (url: string) => void;
  /** The domains main re-checks by itself (issue 13 §3). */
  readonly watcher: DomainWatcher;
}

export type Handlers = {
  readonly [C in Channel]: (...args: ChannelArgs<C>) => Promise<ChannelResults[C]>;
};

export type Emit = <E extends EventName>(event: E, payload: EventPayloads[E]) => void;

const PROGRESS_INTERVAL_MS = 100;

export function createHandlers(deps: HandlerDeps, emit: Emit): Handlers {
  const {
    service,
    cache,
    cancelLog,
    reviewMarks,
    domains,
    bulkCancelOf,
    storage,
    now,
    openOrderStream,
  } = deps;
  /** The current job's snapshot, or null when there is none (or no address to have one for). */
  const bulkSnapshot = async (environment: EnvironmentId) =>
    (await bulkCancelOf(environment))?.snapshot() ?? null;
  /** Tells the renderer whether the service answered, after each call that talks to it. */
  async function talking<T>(
    environment: Parameters<EnvironmentService['client']>[0],
    call: () => Promise<T>,
  ): Promise<T> {
    try {
      const value = await call();
      emit('connectivity:changed', { environment, reachable: true });
      return value;
    } catch (error) {
      // A list cut off mid-download was answered: the service is there, the download failed.
      if (
        isStoreApiError(error) &&
        (error.failure.kind === 'network' || error.failure.kind === 'timeout') &&
        error.failure.delivery !== 'answered'
      ) {
        emit('connectivity:changed', {
          environment,
          reachable: false,
          message: error.failure.message,
        });
      } else if (isStoreApiError(error) && error.failure.delivery !== 'not-sent') {
        emit('connectivity:changed', { environment, reachable: true });
      }
      throw error;
    }
  }

  async function logFailure(
    scope: ServiceScope | undefined,
    orderId: string,
    error: unknown,
  ): Promise<void> {
    // Without an address there is no service whose log it would belong to; nothing was sent.
    if (!isStoreApiError(error) || !scope) return;
    const { environment } = scope;
    await cancelLog.append(scope, {
      at: now(),
      environment,
      orderId,
      result: 'failed',
      message: error.failure.message,
      delivery: error.failure.delivery,
    });
  }

  return {
    'app:get-state': async () => {
      const problem = storage?.problem();
      return { ...service.state(), ...(problem ? { storageProblem: problem } : {}) };
    },
    'environments:select': async (environment) => service.select(environment),
    'environments:set-base-url': async (environment, url) => service.setBaseUrl(environment, url),
    'keys:set': async (environment, key, options) => {
      const status = await service.setKey(environment, key, options ?? {});
      emit('keys:changed', { environment, status });
      return status;
    },
    'keys:remove': async (environment) => {
      const status = service.removeKey(environment);
      emit('keys:changed', { environment, status });
      return status;
    },
    'keys:confirm-origin': async (environment) => {
      const status = await service.confirmKeyOrigin(environment);
      emit('keys:changed', { environment, status });
      return status;
    },
    'connection:test': async (environment) => {
      const client = await service.client(environment);
      const check = await talking(environment, () => client.checkConnection());
      return { environment, ...check };
    },
    'orders:list': async (environment, streamId) => {
      const client = await service.client(environment);
      const cacheFile = cache.fileOf(serviceScope(environment, client.baseUrl));
      let lastProgress = 0;
      const rows = new RowsSender(openOrderStream, streamId, now);
      try {
        const list = await talking(environment, () =>
          refreshOrderColumns(client, cache, environment, {
            cacheNotSaved: (error) => storage?.failed(error, cacheFile) ?? false,
            cacheSaved: () => storage?.saved(cacheFile),
            onChunk: (_chunk, read) => rows.offer(read),
            onValid: ({ columns }) => rows.end(columns),
            onProgress: (progress) => {
              const at = Date.now();
              const done =
                progress.totalBytes !== undefined && progress.receivedBytes >= progress.totalBytes;
              if (done || at - lastProgress >= PROGRESS_INTERVAL_MS) {
                lastProgress = at;
                emit('orders:progress', { environment, ...progress });
              }
            },
          }),
        );
        return {
          environment,
          count: list.columns.count,
          receivedAt: list.receivedAt,
          bytes: list.bytes,
        };
      } finally {
        // A list that failed (before or after its last row) is dropped by the renderer.
        rows.fail();
      }
    },
    'orders:cached': async (environment, streamId) => {
      const scope = service.scopeOf(environment);
      if (!scope) return { found: false, reason: 'other-service' };
      const opened = await cache.open(scope);
      if (!opened.ok) return { found: false, reason: opened.problem };
      const reader = opened.value;
      const rows = new RowsSender(openOrderStream, streamId, now);
      try {
        const columns = await readCachedColumns(reader, (read) => rows.offer(read));
        rows.end(columns);
        const { count, receivedAt, bytes } = reader;
        return { found: true, list: { environment, count, receivedAt, bytes } };
      } catch (error) {
        if (error instanceof DamagedCacheError) return { found: false, reason: 'damaged' };
        throw error;
      } finally {
        rows.fail();
      }
    },
    'orders:cancel': async (environment, orderId) => {
      const client = await service.client(environment).catch(async (error: unknown) => {
        await logFailure(service.scopeOf(environment), orderId, error);
        throw error;
      });
      // The log of the service the request went to, even if the address changes meanwhile.
      const scope = serviceScope(environment, client.baseUrl);
      try {
        const earlierCancel = async () =>
          (await cancelLog.read(scope)).findLast(
            (entry) => entry.orderId === orderId && entry.result === 'cancelled',
          )?.at;
        const outcome = await talking(environment, () =>
          client.cancelOrder(orderId, { earlierCancel }),
        );
        await cancelLog.append(scope, {
          at: now(),
          environment,
          orderId,
          result: outcome.kind,
          message: outcome.message,
        });
        return { ...outcome, environment, orderId };
      } catch (error) {
        await logFailure(scope, orderId, error);
        throw error;
      }
    },
    'cancel-log:list': async (environment) => {
      const scope = service.scopeOf(environment);
      return scope ? cancelLog.read(scope) : [];
    },
    'review-marks:list': async (environment) => {
      const scope = service.scopeOf(environment);
      return scope ? reviewMarks.all(scope) : {};
    },
    'review-marks:set': async (environment, orderId, mark) =>
      reviewMarks.set(service.requireScope(environment), orderId, mark, now()),
    'quota:get': async (environment) => service.quota(environment),
    'quota:try-now': async (environment) => {
      const client = await service.client(environment);
      const check = await talking(environment, () => client.tryNow());
      return { environment, ...check };
    },
    'bulk-cancel:start': async (environment, orderIds) => {
      const queue = await bulkCancelOf(environment);
      if (!queue) throw addressNotSet(environment);
      try {
        return await queue.start(orderIds);
      } catch (error) {
        if (error instanceof BulkCancelActiveError)
          throw failure('conflict', error.message, 'not-sent');
        throw error;
      }
    },
    'bulk-cancel:pause': async (environment) => {
      await (await bulkCancelOf(environment))?.pause('user');
      return bulkSnapshot(environment);
    },
    'bulk-cancel:resume': async (environment) => {
      await (await bulkCancelOf(environment))?.resume();
      return bulkSnapshot(environment);
    },
    'bulk-cancel:stop': async (environment) => {
      await (await bulkCancelOf(environment))?.stop();
      return bulkSnapshot(environment);
    },
    'bulk-cancel:status': async (environment) => bulkSnapshot(environment),
    'bulk-cancel:results': async (environment) => [
      ...((await bulkCancelOf(environment))?.results() ?? []),
    ],
    'domains:check': async (environment, request) => {
      // Only the DNS server the clerk saved for this environment (or the system's).
      const { resolver } = (await domains.get(environment)).settings;
      return checkDomainDns({ ...request, ...(resolver !== undefined ? { resolver } : {}) });
    },
    'domains:certificate': async (environment, { domain }) => {
      // The site is looked up through the DNS server the DNS check asks, so
      // both checks look at the same site.
      const { resolver } = (await domains.get(environment)).settings;
      return checkCertificateViaDns({ domain, ...(resolver !== undefined ? { resolver } : {}) });
    },
    'bulk-cancel:dismiss': async (environment) => {
      await (await bulkCancelOf(environment))?.dismiss();
      return bulkSnapshot(environment);
    },
    'domains:workspace': async (environment) => domains.get(environment),
    'domains:save-settings': async (environment, settings) =>
      domains.saveSettings(environment, settings),
    'domains:save-progress': async (environment, progress) =>
      domains.saveProgress(environment, progress),
    'domains:remove-progress': async (environment, domain) =>
      domains.removeProgress(environment, domain),
    'domains:save-config': async (environment, config) => domains.saveConfig(environment, config),
    'orders:changes': async (environment) => {
      const scope = service.scopeOf(environment);
      return scope
        ? deps.changes.changes(scope)
        : { kind: 'nothing-to-compare', environment, reason: 'no-list' };
    },
    'deprecations:list': async (environment) => deps.deprecations.list(environment),
    'deprecations:dismiss': async (environment, endpoint) => {
      await deps.deprecations.dismiss(environment, endpoint);
      return deps.deprecations.list(environment);
    },
    'deprecations:open-link': async (environment, endpoint) => {
      // Only the link main read from the service's answer, and only https (checked when read).
      const link = await deps.deprecations.linkOf(environment, endpoint);
      if (link === undefined || !deps.openExternal) return { opened: false };
      deps.openExternal(link);
      return { opened: true };
    },
    'domains:watch': async (environment) => deps.watcher.list(environment),
  };
}
