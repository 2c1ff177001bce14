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
import type { CancelResult } from '../../shared/orders-local.ts';
import { checkCertificate } from '../domains/certificate-check.ts';
import { checkDomainDns } from '../domains/dns-check.ts';
import type { DomainWorkspaceStore } from '../domains/workspace-store.ts';
import type { EnvironmentId } from '../../shared/environments.ts';
import { BulkCancelActiveError, type BulkCancelQueue } from '../bulk-cancel/queue.ts';
import type { EnvironmentService } from '../environments/environment-service.ts';
import { failure } from '../store-api/errors.ts';
import type { CancelLog } from '../orders/cancel-log.ts';
import type { OrderCache } from '../orders/order-cache.ts';
import { refreshOrders } from '../orders/refresh.ts';
import type { ReviewMarksStore } from '../orders/review-marks.ts';
import { isStoreApiError } from '../store-api/client.ts';

export interface HandlerDeps {
  readonly service: EnvironmentService;
  readonly domains: DomainWorkspaceStore;
  readonly bulkCancel: Readonly<Record<EnvironmentId, BulkCancelQueue>>;
  readonly cache: OrderCache;
  readonly cancelLog: CancelLog;
  readonly reviewMarks: ReviewMarksStore;
  readonly now: () => number;
}

export type Handlers = {
  readonly [C in Channel]: (...args: ChannelArgs<C>) => Promise<ChannelResults[C]>;
};

export type Emit = <E extends EventName>(event: E, payload: EventPayloads[E]) => void;

const PROGRESS_INTERVAL_MS = 100;

export function createHandlers(deps: HandlerDeps, emit: Emit): Handlers {
  const { service, cache, cancelLog, reviewMarks, domains, bulkCancel, now } = deps;
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
      if (
        isStoreApiError(error) &&
        (error.failure.kind === 'network' || error.failure.kind === 'timeout')
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
    environment: Parameters<EnvironmentService['client']>[0],
    orderId: string,
    error: unknown,
  ): Promise<void> {
    if (!isStoreApiError(error)) return;
    await cancelLog.append({
      at: now(),
      environment,
      orderId,
      result: 'failed',
      message: error.failure.message,
      delivery: error.failure.delivery,
    });
  }

  return {
    'app:get-state': async () => service.state(),
    'environments:select': async (environment) => service.select(environment),
    'environments:set-base-url': async (environment, url) => service.setBaseUrl(environment, url),
    'keys:set': async (environment, key, options) => {
      const status = service.setKey(environment, key, options ?? {});
      emit('keys:changed', { environment, status });
      return status;
    },
    'keys:remove': async (environment) => {
      const status = service.removeKey(environment);
      emit('keys:changed', { environment, status });
      return status;
    },
    'connection:test': async (environment) => {
      const client = await service.client(environment);
      const check = await talking(environment, () => client.checkConnection());
      return { environment, ...check };
    },
    'orders:list': async (environment) => {
      const client = await service.client(environment);
      let lastProgress = 0;
      const list = await talking(environment, () =>
        refreshOrders(client, cache, environment, {
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
        body: list.body,
        count: list.count,
        receivedAt: list.receivedAt,
        bytes: list.bytes,
      };
    },
    'orders:cached': async (environment) => {
      // The sandbox moves port at each start; its cache is still its own.
      const expected = environment === 'sandbox' ? undefined : service.baseUrlOf(environment);
      if (environment !== 'sandbox' && expected === undefined)
        return { found: false, reason: 'other-service' };
      const read = await cache.read(environment, expected);
      if (!read.ok) return { found: false, reason: read.problem };
      const { body, count, receivedAt } = read.value;
      return {
        found: true,
        list: { environment, body, count, receivedAt, bytes: Buffer.byteLength(body) },
      };
    },
    'orders:cancel': async (environment, orderId) => {
      const client = await service.client(environment).catch(async (error: unknown) => {
        await logFailure(environment, orderId, error);
        throw error;
      });
      try {
        const outcome = await talking(environment, () => client.cancelOrder(orderId));
        await cancelLog.append({
          at: now(),
          environment,
          orderId,
          result: outcome.kind as CancelResult,
          message: outcome.message,
        });
        return { ...outcome, environment, orderId };
      } catch (error) {
        await logFailure(environment, orderId, error);
        throw error;
      }
    },
    'cancel-log:list': async (environment) => cancelLog.read(environment),
    'review-marks:list': async (environment) => reviewMarks.all(environment),
    'review-marks:set': async (environment, orderId, mark) =>
      reviewMarks.set(environment, orderId, mark, now()),
    'quota:get': async (environment) => service.quota(environment),
    'bulk-cancel:start': async (environment, orderIds) => {
      try {
        return await bulkCancel[environment].start(orderIds);
      } catch (error) {
        if (error instanceof BulkCancelActiveError)
          throw failure('conflict', error.message, 'not-sent');
        throw error;
      }
    },
    'bulk-cancel:pause': async (environment) => {
      await bulkCancel[environment].pause('user');
      return bulkCancel[environment].snapshot() ?? null;
    },
    'bulk-cancel:resume': async (environment) => {
      await bulkCancel[environment].resume();
      return bulkCancel[environment].snapshot() ?? null;
    },
    'bulk-cancel:stop': async (environment) => {
      await bulkCancel[environment].stop();
      return bulkCancel[environment].snapshot() ?? null;
    },
    'bulk-cancel:status': async (environment) => bulkCancel[environment].snapshot() ?? null,
    'bulk-cancel:results': async (environment) => [...bulkCancel[environment].results()],
    'bulk-cancel:dismiss': async (environment) => {
      await bulkCancel[environment].dismiss();
      return bulkCancel[environment].snapshot() ?? null;
    },
    'domains:check': async (request) => checkDomainDns(request),
    'domains:certificate': async (request) => checkCertificate(request),
    'domains:workspace': async (environment) => domains.get(environment),
    'domains:save-settings': async (environment, settings) =>
      domains.saveSettings(environment, settings),
    'domains:save-progress': async (environment, progress) =>
      domains.saveProgress(environment, progress),
    'domains:remove-progress': async (environment, domain) =>
      domains.removeProgress(environment, domain),
    'domains:save-config': async (environment, config) => domains.saveConfig(environment, config),
  };
}
