// One refresh of an environment's order list: the body is read into columns
// as it downloads, and its bytes go to a new cache file as they arrive; the
// file replaces the last good cache only once the whole list is valid. A
// failed, cut-off or malformed refresh leaves the last good cache untouched.

import type { EnvironmentId } from '../../shared/environments.ts';
import type {
  ColumnListOptions,
  ListOptions,
  OrderColumnList,
  OrderListBody,
  StoreClient,
} from '../store-api/client.ts';
import type { OrderCache, PendingCacheWrite } from './order-cache.ts';

/** The list as columns, cached. */
export async function refreshOrderColumns(
  client: StoreClient,
  cache: OrderCache,
  environment: EnvironmentId,
  options: ColumnListOptions = {},
): Promise<OrderColumnList> {
  let pending: PendingCacheWrite | undefined;
  try {
    const list = await client.listOrderColumns({
      ...options,
      onChunk: async (chunk) => {
        // The file is begun with the first byte: an answer that never comes leaves nothing behind.
        pending ??= cache.begin({ environment, baseUrl: client.baseUrl });
        await Promise.all([pending.append(chunk), options.onChunk?.(chunk)]);
      },
    });
    // A valid list has at least one byte, so its file was begun.
    await pending!.commit(list.columns.count, list.receivedAt, list.columns);
    return list;
  } catch (error) {
    await pending?.abort();
    throw error;
  }
}

/**
 * The list as the JSON text the service sent, cached: what `orders:list`
 * hands the renderer today. Read by the same scanner; the text is kept from
 * the chunks only for this hand-over.
 */
export async function refreshOrders(
  client: StoreClient,
  cache: OrderCache,
  environment: EnvironmentId,
  options: ListOptions = {},
): Promise<OrderListBody> {
  const chunks: Uint8Array[] = [];
  const { columns, receivedAt, bytes } = await refreshOrderColumns(client, cache, environment, {
    ...options,
    onChunk: (chunk) => void chunks.push(chunk),
  });
  return { body: Buffer.concat(chunks).toString('utf8'), count: columns.count, receivedAt, bytes };
}
