// The implementation of every channel of the IPC contract, over the
// environment service. Plain Node: used by Electron's ipcMain (handle.ts) and
// by the development harness alike. Arguments arrive already validated.

import type { Channel, ChannelArgs, ChannelResults, EventName, EventPayloads } from '../../shared/ipc-contract.ts';
import type { EnvironmentService } from '../environments/environment-service.ts';
import { isStoreApiError } from '../store-api/client.ts';

export type Handlers = {
  readonly [C in Channel]: (...args: ChannelArgs<C>) => Promise<ChannelResults[C]>;
};

export type Emit = <E extends EventName>(event: E, payload: EventPayloads[E]) => void;

const PROGRESS_INTERVAL_MS = 100;

export function createHandlers(service: EnvironmentService, emit: Emit): Handlers {
  /** Tells the renderer whether the service answered, after each call that talks to it. */
  async function talking<T>(environment: Parameters<EnvironmentService['client']>[0], call: () => Promise<T>): Promise<T> {
    try {
      const value = await call();
      emit('connectivity:changed', { environment, reachable: true });
      return value;
    } catch (error) {
      if (isStoreApiError(error) && (error.failure.kind === 'network' || error.failure.kind === 'timeout')) {
        emit('connectivity:changed', { environment, reachable: false, message: error.failure.message });
      } else if (isStoreApiError(error) && error.failure.delivery !== 'not-sent') {
        emit('connectivity:changed', { environment, reachable: true });
      }
      throw error;
    }
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
        client.listOrders({
          onProgress: (progress) => {
            const now = Date.now();
            const done = progress.totalBytes !== undefined && progress.receivedBytes >= progress.totalBytes;
            if (done || now - lastProgress >= PROGRESS_INTERVAL_MS) {
              lastProgress = now;
              emit('orders:progress', { environment, ...progress });
            }
          },
        }),
      );
      return { environment, orders: list.orders, receivedAt: list.receivedAt, bytes: list.bytes };
    },
    'orders:cancel': async (environment, orderId) => {
      const client = await service.client(environment);
      const outcome = await talking(environment, () => client.cancelOrder(orderId));
      return { ...outcome, environment, orderId };
    },
    'quota:get': async (environment) => service.quota(environment),
  };
}
