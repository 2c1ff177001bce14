// Every channel of the IPC contract, as a thin adapter over the services
// that hold the app's operations (src/main/<capability>/*-service.ts, put
// together in app-services.ts), and the services' events pushed to the
// renderer. The command line is the other adapter over the same services, so
// the two cannot drift: a new channel is its contract entry, its service
// operation and one line here. Plain Node: used by Electron's ipcMain
// (handle.ts) and by the development harness alike. Arguments arrive already
// validated.

import type {
  AppState,
  Channel,
  ChannelArgs,
  ChannelResults,
  EventName,
  EventPayloads,
} from '../../shared/ipc-contract.ts';
import type { EnvironmentId } from '../../shared/environments.ts';
import type { BulkCancelService } from '../bulk-cancel/bulk-cancel-service.ts';
import type { DomainWatcher } from '../domains/domain-watcher.ts';
import type { DomainsService } from '../domains/domains-service.ts';
import type { Connectivity } from '../environments/connectivity.ts';
import type { EnvironmentService } from '../environments/environment-service.ts';
import type { StorageHealth } from '../local-data/storage-health.ts';
import { RowsSender, type OpenOrderStream } from '../orders/order-stream.ts';
import type { ListWatcher, OrdersService } from '../orders/orders-service.ts';
import type { QuotaService } from '../quota/quota-service.ts';
import type { DeprecationNotices } from '../store-api/deprecation-notices.ts';
import type { DeprecationsService } from '../store-api/deprecations-service.ts';
import type { UpdateSettings } from '../updates/update-settings.ts';

/** The services the channels are adapters over, and where their events come from. */
export interface HandlerServices {
  readonly environments: EnvironmentService;
  readonly state: () => AppState;
  readonly orders: OrdersService;
  readonly quota: QuotaService;
  readonly bulkCancel: BulkCancelService;
  readonly domains: DomainsService;
  readonly deprecations: DeprecationsService;
  readonly connectivity: Connectivity;
  readonly now: () => number;
  /** Where a failure to save (a full or read-only disk) is told. */
  readonly storage?: StorageHealth;
  readonly notices?: DeprecationNotices;
  readonly watcher?: DomainWatcher;
  /** Where updates come from. */
  readonly updates: UpdateSettings;
  /** Where a list's rows go to the renderer while they are read (a MessagePort in Electron). */
  readonly openOrderStream?: OpenOrderStream;
}

export type Handlers = {
  readonly [C in Channel]: (...args: ChannelArgs<C>) => Promise<ChannelResults[C]>;
};

export type Emit = <E extends EventName>(event: E, payload: EventPayloads[E]) => void;

const PROGRESS_INTERVAL_MS = 100;
/** Bulk-cancel progress goes out at most this often per environment; the last one always does. */
const BULK_EVENT_INTERVAL_MS = 200;

export function createHandlers(services: HandlerServices, emit: Emit): Handlers {
  const { environments, orders, quota, bulkCancel, domains, deprecations, now } = services;
  pushEvents(services, emit);

  /** A list's rows on the stream the renderer named, its progress as events; dropped unless whole. */
  async function streamed<T>(
    environment: EnvironmentId,
    streamId: string | undefined,
    read: (watch: ListWatcher) => Promise<T>,
  ): Promise<T> {
    const rows = new RowsSender(services.openOrderStream, streamId, now);
    let lastProgress = 0;
    try {
      return await read({
        onRows: (soFar) => rows.offer(soFar),
        onValid: (columns) => rows.end(columns),
        onProgress: (progress) => {
          const at = Date.now();
          const done =
            progress.totalBytes !== undefined && progress.receivedBytes >= progress.totalBytes;
          if (done || at - lastProgress >= PROGRESS_INTERVAL_MS) {
            lastProgress = at;
            emit('orders:progress', { environment, ...progress });
          }
        },
      });
    } finally {
      // A list that failed (before or after its last row) is dropped by the renderer.
      rows.fail();
    }
  }

  return {
    'app:get-state': async () => services.state(),
    'environments:select': async (environment) => environments.select(environment),
    'environments:set-base-url': async (environment, url) =>
      environments.setBaseUrl(environment, url),
    'keys:set': async (environment, key, options) =>
      environments.setKey(environment, key, options ?? {}),
    'keys:remove': async (environment) => environments.removeKey(environment),
    'keys:check': (environment) => environments.checkKey(environment),
    'keys:confirm-origin': (environment) => environments.confirmKeyOrigin(environment),
    'connection:test': (environment) => quota.check(environment),
    'orders:list': (environment, streamId) =>
      streamed(environment, streamId, async (watch) => {
        const list = await orders.refresh(environment, watch);
        const { receivedAt, bytes } = list;
        return { environment, count: list.columns.count, receivedAt, bytes };
      }),
    'orders:cached': (environment, streamId) =>
      streamed(environment, streamId, (watch) => orders.cached(environment, watch)),
    'orders:cancel': (environment, orderId) => orders.cancel(environment, orderId),
    'cancel-log:list': (environment) => orders.cancelLog(environment),
    'review-marks:list': (environment) => orders.reviewMarks(environment),
    'review-marks:set': (environment, orderId, mark) =>
      orders.setReviewMark(environment, orderId, mark),
    'orders:changes': (environment) => orders.changes(environment),
    'quota:get': async (environment) => quota.get(environment),
    'quota:try-now': (environment) => quota.tryNow(environment),
    'bulk-cancel:start': (environment, orderIds) => bulkCancel.start(environment, orderIds),
    'bulk-cancel:pause': (environment) => bulkCancel.pause(environment),
    'bulk-cancel:resume': (environment) => bulkCancel.resume(environment),
    'bulk-cancel:stop': (environment) => bulkCancel.stop(environment),
    'bulk-cancel:dismiss': (environment) => bulkCancel.dismiss(environment),
    'bulk-cancel:status': (environment) => bulkCancel.status(environment),
    'bulk-cancel:results': (environment) => bulkCancel.results(environment),
    'bulk-cancel:left-over': (environment) => bulkCancel.leftOver(environment),
    'domains:projects': () => domains.projects(),
    'domains:add-project': (name) => domains.addProject(name),
    'domains:check': (project, request) => domains.check(project, request),
    'domains:certificate': (project, { domain }) => domains.certificate(project, domain),
    'domains:workspace': (project) => domains.workspace(project),
    'domains:save-settings': (project, settings) => domains.saveSettings(project, settings),
    'domains:save-progress': (project, progress) => domains.saveProgress(project, progress),
    'domains:remove-progress': (project, domain) => domains.removeProgress(project, domain),
    'domains:save-config': (project, config) => domains.saveConfig(project, config),
    'domains:watch': async (project) => domains.watched(project),
    'deprecations:list': (environment) => deprecations.list(environment),
    'deprecations:dismiss': (environment, endpoint) => deprecations.dismiss(environment, endpoint),
    'deprecations:open-link': (environment, endpoint) =>
      deprecations.openLink(environment, endpoint),
    'updates:settings': async () => services.updates.view(),
    'updates:set-address': (address) => services.updates.setAddress(address),
  };
}

/** The services' changes, as the events the renderer listens for. */
function pushEvents(services: HandlerServices, emit: Emit): void {
  const { environments, bulkCancel, connectivity, storage, notices, watcher } = services;
  environments.onQuota((environment, quota) => emit('quota:changed', { environment, quota }));
  environments.onKeyChange((environment, status) => emit('keys:changed', { environment, status }));
  connectivity.onChange((change) => emit('connectivity:changed', change));
  storage?.onChange((problem) => emit('storage:changed', { problem: problem ?? null }));
  const timers = new Map<EnvironmentId, ReturnType<typeof setTimeout>>();
  bulkCancel.onChange((environment) => {
    if (timers.has(environment)) return;
    timers.set(
      environment,
      setTimeout(() => {
        timers.delete(environment);
        const snapshot = bulkCancel.snapshotNow(environment);
        if (snapshot) emit('bulk-cancel:changed', { environment, snapshot });
      }, BULK_EVENT_INTERVAL_MS),
    );
  });
  notices?.onChange(
    (environment) =>
      void notices
        .list(environment)
        .then((list) => emit('deprecations:changed', { environment, notices: list })),
  );
  watcher?.onChange((watch, previous) =>
    emit('domains:watch-changed', { watch, ...(previous ? { previous } : {}) }),
  );
}
