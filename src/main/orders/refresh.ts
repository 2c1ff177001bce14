// One refresh of an environment's order list: the body is read into columns
// as it downloads, and its bytes go to a new cache file as they arrive; the
// file replaces the last good cache only once the whole list is valid. A
// failed, cut-off or malformed refresh leaves the last good cache untouched.
// A disk that takes nothing (full, read-only) does too, and with
// `cacheNotSaved` saying it is the disk's doing the list is still shown, from
// memory.

import type { EnvironmentId } from '../../shared/environments.ts';
import type { ColumnListOptions, OrderColumnList, StoreClient } from '../store-api/client.ts';
import type { OrderCache, PendingCacheWrite } from './order-cache.ts';

/** What a refresh tells its caller about saving the list (see StorageHealth). */
export interface CacheSaveOutcome {
  /**
   * Saving the valid list failed: return true when it is the disk's doing
   * (full, read-only), to show the list from memory; the last saved copy stays.
   */
  readonly cacheNotSaved?: (error: unknown) => boolean;
  readonly cacheSaved?: () => void;
}

export type RefreshOptions = ColumnListOptions &
  CacheSaveOutcome & {
    /**
     * The whole list is read and valid, before its cache file is committed: the
     * renderer can get its last rows while the disk finishes. The refresh can
     * still fail after this (the commit), so the caller's answer comes after.
     */
    readonly onValid?: (list: OrderColumnList) => void;
  };

/** The list as columns, cached. */
export async function refreshOrderColumns(
  client: StoreClient,
  cache: OrderCache,
  environment: EnvironmentId,
  options: RefreshOptions = {},
): Promise<OrderColumnList> {
  let pending: PendingCacheWrite | undefined;
  let list: OrderColumnList;
  try {
    list = await client.listOrderColumns({
      ...options,
      onChunk: async (chunk, read) => {
        // The file is begun with the first byte: an answer that never comes leaves nothing behind.
        pending ??= cache.begin({ environment, baseUrl: client.baseUrl });
        // A failed write does not stop the download (append never rejects): commit reports it.
        await Promise.all([pending.append(chunk), options.onChunk?.(chunk, read)]);
      },
    });
    options.onValid?.(list);
  } catch (error) {
    await pending?.abort();
    throw error;
  }
  try {
    // A valid list has at least one byte, so its file was begun.
    await pending!.commit(list.columns.count, list.receivedAt, list.columns);
  } catch (error) {
    await pending!.abort();
    if (!options.cacheNotSaved?.(error)) throw error;
    return list;
  }
  options.cacheSaved?.();
  return list;
}
