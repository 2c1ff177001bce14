// One refresh of an environment's order list: download, then write the cache
// file while validating, and keep it only if the list is valid. A failed or
// malformed refresh leaves the last good cache untouched.

import type { EnvironmentId } from '../../shared/environments.ts';
import {
  checkOrderList,
  type ListOptions,
  type OrderListBody,
  type StoreClient,
} from '../store-api/client.ts';
import type { OrderCache } from './order-cache.ts';

export async function refreshOrders(
  client: StoreClient,
  cache: OrderCache,
  environment: EnvironmentId,
  options: ListOptions & {
    /**
     * Saving the valid list failed: return true when it is the disk's doing
     * (full, read-only), to show the list from memory; the last saved copy stays.
     */
    readonly cacheNotSaved?: (error: unknown) => boolean;
    readonly cacheSaved?: () => void;
  } = {},
): Promise<OrderListBody> {
  const list = await client.fetchOrderListText(options);
  const pending = cache.begin(
    { environment, baseUrl: client.baseUrl, receivedAt: list.receivedAt },
    list.raw ?? list.body,
  );
  let count: number;
  try {
    count = checkOrderList(list.body);
  } catch (error) {
    await pending.abort();
    throw error;
  }
  try {
    await pending.commit(count);
    options.cacheSaved?.();
  } catch (error) {
    if (!options.cacheNotSaved?.(error)) throw error;
  }
  return { body: list.body, receivedAt: list.receivedAt, bytes: list.bytes, count };
}
