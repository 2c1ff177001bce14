// The orders capability's operations, written once for the app's IPC and the
// command line alike: refresh the list (read into columns as it downloads,
// then cached), read the cached list back, cancel an order (send, then log
// the attempt, whatever came of it, with what the log knows of earlier
// cancels), and the cancel log, review marks and changes of a service.

import type { BulkResult } from '../../shared/bulk-cancel.ts';
import type { EnvironmentId } from '../../shared/environments.ts';
import type { CancelOutcomeView, CachedOrderList } from '../../shared/ipc-contract.ts';
import type { OrderChangesView } from '../../shared/order-changes.ts';
import type { OrderColumns } from '../../shared/order-columns.ts';
import type { CancelLogEntry, ReviewMarks } from '../../shared/orders-local.ts';
import type { SaveReports, ServiceAccess } from '../environments/service-access.ts';
import { serviceScope, type ServiceScope } from '../environments/service-scope.ts';
import { addressNotSet } from '../environments/environment-service.ts';
import { isStoreApiError, THREAD_FROM_BYTES, type OrderColumnList } from '../store-api/client.ts';
import type { EarlierCancel } from '../store-api/errors.ts';
import type { CancelLog } from './cancel-log.ts';
import { cancelLogEntryOf, earlierCancelOf, unloggedResults } from './cancel-log.ts';
import type { OrderChangesTracker } from './changes.ts';
import type { OrderCache } from './order-cache.ts';
import type { RowsSoFar } from './order-stream.ts';
import { DamagedCacheError, readCachedColumns } from './read-cached.ts';
import { refreshOrderColumns } from './refresh.ts';
import type { ReviewMarksStore } from './review-marks.ts';
import { prepareListThread } from '../store-api/list-scanner-thread.ts';

export interface OrdersServiceDeps {
  readonly access: ServiceAccess;
  readonly cache: OrderCache;
  readonly cancelLog: CancelLog;
  readonly now: () => number;
  /** Told whether each list reached the disk; without it a list the disk refuses fails the refresh. */
  readonly saves?: SaveReports;
  readonly reviewMarks?: ReviewMarksStore;
  readonly changes?: OrderChangesTracker;
}

export interface ListWatcher {
  /** The rows read so far, after each chunk. */
  readonly onRows?: (read: RowsSoFar) => void;
  /** The whole list is read and valid (its cache may still be being written). */
  readonly onValid?: (columns: OrderColumns) => void;
  readonly onProgress?: (progress: { receivedBytes: number; totalBytes?: number }) => void;
}

export type CancelResult = CancelOutcomeView & {
  readonly environment: EnvironmentId;
  readonly orderId: string;
};

/** What a bulk cancel of a service shares with single cancels: the log, both ways. */
export interface CancelLogHooks {
  readonly onResult: (result: BulkResult) => Promise<void>;
  readonly earlierCancel: (orderId: string) => Promise<EarlierCancel | undefined>;
  /** Logs the answers a job's journal holds and the log lacks (called once the job is loaded). */
  readonly logJournaled: (results: readonly BulkResult[]) => Promise<void>;
}

export class OrdersService {
  readonly #deps: OrdersServiceDeps;
  /** The ids of the last list read for a 404 (OrderColumns.idText), and whose list it was. */
  #lastIds: WeakRef<Uint8Array> | undefined;
  #lastIdsOf: { readonly key: string; readonly receivedAt: number } | undefined;

  constructor(deps: OrdersServiceDeps) {
    this.#deps = deps;
  }

  /** Downloads the whole list into columns and caches it; the last good cache stays on failure. */
  async refresh(environment: EnvironmentId, watch: ListWatcher = {}): Promise<OrderColumnList> {
    const { access, cache, saves } = this.#deps;
    const client = await access.client(environment);
    const file = cache.fileOf(serviceScope(environment, client.baseUrl));
    return refreshOrderColumns(client, cache, environment, {
      ...(saves
        ? {
            cacheNotSaved: (error: unknown) => saves.failed(error, file),
            cacheSaved: () => saves.saved(file),
          }
        : {}),
      ...(watch.onRows ? { onChunk: (_chunk, read) => watch.onRows!(read) } : {}),
      ...(watch.onValid ? { onValid: ({ columns }) => watch.onValid!(columns) } : {}),
      ...(watch.onProgress ? { onProgress: watch.onProgress } : {}),
    });
  }

  /** The list last cached for the service an environment points at, read back into columns. */
  async cached(
    environment: EnvironmentId,
    watch: Pick<ListWatcher, 'onRows' | 'onValid'> = {},
  ): Promise<CachedOrderList> {
    const scope = this.#deps.access.scopeOf(environment);
    if (!scope) return { found: false, reason: 'other-service' };
    const opened = await this.#deps.cache.open(scope);
    if (!opened.ok) return { found: false, reason: opened.problem };
    const reader = opened.value;
    // The app reads its cache first: when the last list was large, the thread the next one is
    // read on (list-scanner-thread.ts) starts meanwhile, not with the refresh.
    if (reader.bytes >= THREAD_FROM_BYTES) void prepareListThread();
    try {
      const columns = await readCachedColumns(reader, watch.onRows);
      watch.onValid?.(columns);
    } catch (error) {
      if (error instanceof DamagedCacheError) return { found: false, reason: 'damaged' };
      throw error;
    }
    const { count, receivedAt, bytes } = reader;
    return { found: true, list: { environment, count, receivedAt, bytes } };
  }

  /**
   * Cancels one order and logs the attempt in the log of the service the
   * request went to (even if the address changes meanwhile), whatever came of it.
   */
  async cancel(environment: EnvironmentId, orderId: string): Promise<CancelResult> {
    const { access, cancelLog, now } = this.#deps;
    const client = await access.client(environment).catch(async (error: unknown) => {
      await this.#logFailure(access.scopeOf(environment), orderId, error);
      throw error;
    });
    const scope = serviceScope(environment, client.baseUrl);
    try {
      const outcome = await client.cancelOrder(orderId, {
        earlierCancel: () => this.#earlierCancel(scope, orderId),
      });
      await cancelLog.append(scope, {
        at: now(),
        environment,
        orderId,
        result: outcome.kind,
        message: outcome.message,
        ...(outcome.listedAt !== undefined ? { listedAt: outcome.listedAt } : {}),
      });
      return { ...outcome, environment, orderId };
    } catch (error) {
      await this.#logFailure(scope, orderId, error);
      throw error;
    }
  }

  /** What a bulk cancel of `scope` logs and asks, as single cancels do. */
  cancelLogHooks(scope: ServiceScope): CancelLogHooks {
    return {
      onResult: (result) =>
        this.#deps.cancelLog.append(scope, cancelLogEntryOf(scope.environment, result)),
      earlierCancel: (orderId) => this.#earlierCancel(scope, orderId),
      logJournaled: async (results) => {
        const { cancelLog } = this.#deps;
        for (const result of unloggedResults(results, await cancelLog.read(scope)))
          await cancelLog.append(scope, cancelLogEntryOf(scope.environment, result));
      },
    };
  }

  async cancelLog(environment: EnvironmentId): Promise<CancelLogEntry[]> {
    const scope = this.#deps.access.scopeOf(environment);
    return scope ? this.#deps.cancelLog.read(scope) : [];
  }

  async reviewMarks(environment: EnvironmentId): Promise<ReviewMarks> {
    const scope = this.#deps.access.scopeOf(environment);
    return scope && this.#deps.reviewMarks ? this.#deps.reviewMarks.all(scope) : {};
  }

  async setReviewMark(
    environment: EnvironmentId,
    orderId: string,
    mark: { reviewed: boolean; note: string },
  ): Promise<ReviewMarks> {
    const scope = this.#deps.access.scopeOf(environment);
    if (!scope) throw addressNotSet(environment);
    if (!this.#deps.reviewMarks) throw new TypeError('This front end keeps no review marks.');
    return this.#deps.reviewMarks.set(scope, orderId, mark, this.#deps.now());
  }

  /** What changed between the last two lists of the service an environment points at. */
  async changes(environment: EnvironmentId): Promise<OrderChangesView> {
    const scope = this.#deps.access.scopeOf(environment);
    if (!scope || !this.#deps.changes)
      return { kind: 'nothing-to-compare', environment, reason: 'no-list' };
    return this.#deps.changes.changes(scope);
  }

  /**
   * What is known of an order before a 404 to its cancel: its cancel log,
   * and whether the last list held it (then it existed, and a 404 says only
   * that it no longer does).
   */
  async #earlierCancel(scope: ServiceScope, orderId: string): Promise<EarlierCancel | undefined> {
    const logged = earlierCancelOf(await this.#deps.cancelLog.read(scope), orderId);
    if (logged?.cancelledAt !== undefined) return logged;
    const listedAt = await this.#listedAt(scope, orderId).catch(() => undefined);
    return listedAt === undefined ? logged : { ...logged, listedAt };
  }

  /** When the last list saved for `scope` was received, if it holds the order. */
  async #listedAt(scope: ServiceScope, orderId: string): Promise<number | undefined> {
    const opened = await this.#deps.cache.open(scope);
    if (!opened.ok) return undefined;
    const reader = opened.value;
    let ids = this.#lastIds?.deref();
    if (
      ids &&
      this.#lastIdsOf?.key === scope.key &&
      this.#lastIdsOf.receivedAt === reader.receivedAt
    )
      await reader.close();
    else {
      ids = (await readCachedColumns(reader)).idText;
      // Kept while memory allows: a bulk cancel meeting many 404s reads the list once.
      this.#lastIds = new WeakRef(ids);
      this.#lastIdsOf = { key: scope.key, receivedAt: reader.receivedAt };
    }
    return listsId(ids, orderId) ? reader.receivedAt : undefined;
  }

  async #logFailure(
    scope: ServiceScope | undefined,
    orderId: string,
    error: unknown,
  ): Promise<void> {
    // Without an address there is no service whose log it would belong to; nothing was sent.
    if (!isStoreApiError(error) || !scope) return;
    await this.#deps.cancelLog.append(scope, {
      at: this.#deps.now(),
      environment: scope.environment,
      orderId,
      result: 'failed',
      message: error.failure.message,
      delivery: error.failure.delivery,
    });
  }
}

/** Whether a list's id text (`id \t petId \n` per order) has a line for `orderId`. */
function listsId(idText: Uint8Array, orderId: string): boolean {
  const text = Buffer.from(idText.buffer, idText.byteOffset, idText.byteLength);
  const needle = Buffer.from(`${orderId}\t`);
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1))
    if (at === 0 || text[at - 1] === 0x0a) return true;
  return false;
}
