// The bulk-cancel capability's operations, once: each environment's bulk
// cancel for the service it points at now (loaded from its journal), and
// start, pause, resume, stop, dismiss, status and results over it. A job of
// an address the environment no longer points at stops sending, as on quit,
// and carries on when the address comes back; it never sends to the new one.

import type { BulkCancelSnapshot, BulkLeftOver, BulkResult } from '../../shared/bulk-cancel.ts';
import { ENVIRONMENT_IDS, type EnvironmentId } from '../../shared/environments.ts';
import type { QuotaView } from '../../shared/quota.ts';
import { addressNotSet } from '../environments/environment-service.ts';
import type { Connectivity } from '../environments/connectivity.ts';
import type { ServiceScope } from '../environments/service-scope.ts';
import type { LocalFiles } from '../local-data/local-files.ts';
import type { CancelLogHooks } from '../orders/orders-service.ts';
import type { Timing } from '../store-api/clock.ts';
import type { StoreClient } from '../store-api/client.ts';
import { failure } from '../store-api/errors.ts';
import { BulkJournal, journaledForLog, replay } from './journal.ts';
import { BulkCancelActiveError, BulkCancelQueue } from './queue.ts';

export interface BulkCancelServiceDeps {
  readonly dataDir: string;
  readonly files: LocalFiles;
  readonly timing: Timing;
  /** The service an environment points at now (undefined while its address is unset). */
  readonly scopeOf: (environment: EnvironmentId) => ServiceScope | undefined;
  /** The client of an environment, only while it still points at `scope`'s service. */
  readonly clientFor: (scope: ServiceScope) => Promise<StoreClient>;
  /** The cancel log, as single cancels use it (OrdersService.cancelLogHooks). */
  readonly logHooks: (scope: ServiceScope) => CancelLogHooks;
  /**
   * Whether each environment's service can be reached (the app's one state):
   * a job pauses for it only when it says unreachable, and carries on as soon
   * as it says reachable again. Without it, a DELETE left unanswered pauses the job.
   */
  readonly connectivity?: Pick<Connectivity, 'isUnreachable' | 'onChange'>;
}

interface ScopedQueue {
  readonly scope: ServiceScope;
  readonly queue: BulkCancelQueue;
  readonly loaded: Promise<void>;
}

export class BulkCancelService {
  readonly #deps: BulkCancelServiceDeps;
  /** Each environment's bulk cancel, for the service it points at now. */
  readonly #current = new Map<EnvironmentId, ScopedQueue>();
  /** Bulk cancels of earlier addresses, finishing the answers already on their way, by scope. */
  readonly #leaving = new Map<string, Promise<void>>();
  readonly #listeners = new Set<(environment: EnvironmentId) => void>();

  constructor(deps: BulkCancelServiceDeps) {
    this.#deps = deps;
    deps.connectivity?.onChange(({ environment, reachable }) => {
      if (reachable) void this.#current.get(environment)?.queue.serviceAnswers();
    });
  }

  /** Called when the current job of an environment changes (often: throttle what it drives). */
  onChange(listener: (environment: EnvironmentId) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The bulk cancel of the service an environment points at now; undefined while it has no address. */
  async queueOf(environment: EnvironmentId): Promise<BulkCancelQueue | undefined> {
    const scope = this.#deps.scopeOf(environment);
    let entry = this.#current.get(environment);
    if (entry && entry.scope.key !== scope?.key) {
      this.#retire(environment, entry);
      entry = undefined;
    }
    if (!scope) return undefined;
    if (!entry) {
      const { queue, journal } = this.#queueFor(scope);
      const earlier = this.#leaving.get(scope.key) ?? Promise.resolve();
      const loaded = earlier.then(async () => {
        // The journal is the truth: answers a crash kept out of the cancel log are logged
        // first, before the job carries on and logs its own.
        const journaled = journaledForLog(replay(await journal.read()));
        await this.#deps.logHooks(scope).logJournaled(journaled);
        await queue.load();
      });
      entry = { scope, queue, loaded };
      this.#current.set(environment, entry);
    }
    await entry.loaded;
    return entry.queue;
  }

  /** The queues of the environments' current addresses, as loaded so far. */
  currentQueues(): BulkCancelQueue[] {
    return [...this.#current.values()].map((entry) => entry.queue);
  }

  /** The current job's snapshot as last known, without loading anything. */
  snapshotNow(environment: EnvironmentId): BulkCancelSnapshot | undefined {
    return this.#current.get(environment)?.queue.snapshot();
  }

  async start(
    environment: EnvironmentId,
    orderIds: readonly string[],
  ): Promise<BulkCancelSnapshot> {
    const queue = await this.queueOf(environment);
    if (!queue) throw addressNotSet(environment);
    try {
      return await queue.start(orderIds);
    } catch (error) {
      if (error instanceof BulkCancelActiveError)
        throw failure('conflict', error.message, 'not-sent');
      throw error;
    }
  }

  pause(environment: EnvironmentId): Promise<BulkCancelSnapshot | null> {
    return this.#then(environment, (queue) => queue.pause('user'));
  }

  resume(environment: EnvironmentId): Promise<BulkCancelSnapshot | null> {
    return this.#then(environment, (queue) => queue.resume());
  }

  stop(environment: EnvironmentId): Promise<BulkCancelSnapshot | null> {
    return this.#then(environment, (queue) => queue.stop());
  }

  dismiss(environment: EnvironmentId): Promise<BulkCancelSnapshot | null> {
    return this.#then(environment, (queue) => queue.dismiss());
  }

  /** The current job's snapshot, or null when there is none (or no address to have one for). */
  async status(environment: EnvironmentId): Promise<BulkCancelSnapshot | null> {
    return (await this.queueOf(environment))?.snapshot() ?? null;
  }

  async results(environment: EnvironmentId): Promise<BulkResult[]> {
    return [...((await this.queueOf(environment))?.results() ?? [])];
  }

  /** The orders the current job left without a result: never sent, and sent with no answer. */
  async leftOver(environment: EnvironmentId): Promise<BulkLeftOver> {
    return (await this.queueOf(environment))?.leftOver() ?? { notSent: [], unanswered: [] };
  }

  /** Follows an environment's quota, for the ETA. */
  observeQuota(environment: EnvironmentId, quota: QuotaView): void {
    this.#current.get(environment)?.queue.observeQuota(quota);
  }

  /** Restores every environment's bulk cancel from its journal, carrying on with those that ran. */
  async resumeAll(): Promise<void> {
    await Promise.all(ENVIRONMENT_IDS.map((environment) => this.queueOf(environment)));
  }

  /** Stops sending (without recording a pause) and waits for the answers on their way. */
  async close(): Promise<void> {
    await Promise.all([
      ...[...this.#current.values()].map((entry) => entry.queue.pauseForShutdown()),
      ...this.#leaving.values(),
    ]);
  }

  async #then(
    environment: EnvironmentId,
    action: (queue: BulkCancelQueue) => Promise<void>,
  ): Promise<BulkCancelSnapshot | null> {
    const queue = await this.queueOf(environment);
    if (queue) await action(queue);
    return queue?.snapshot() ?? null;
  }

  #queueFor(scope: ServiceScope): { queue: BulkCancelQueue; journal: BulkJournal } {
    const { dataDir, files, timing, clientFor, logHooks, connectivity } = this.#deps;
    const journal = new BulkJournal(dataDir, scope, { files });
    const queue: BulkCancelQueue = new BulkCancelQueue({
      environment: scope.environment,
      ...(connectivity
        ? { serviceUnreachable: () => connectivity.isUnreachable(scope.environment) }
        : {}),
      journal,
      client: () => clientFor(scope),
      timing,
      onChange: () => {
        if (this.#current.get(scope.environment)?.queue !== queue) return;
        for (const listener of [...this.#listeners]) listener(scope.environment);
      },
      ...logHooks(scope),
    });
    return { queue, journal };
  }

  /**
   * The old address's job stops sending, as on quit, so it carries on when
   * the address comes back; that waits until its last answers are journaled.
   */
  #retire(environment: EnvironmentId, entry: ScopedQueue): void {
    this.#current.delete(environment);
    const stopped = entry.queue
      .pauseForShutdown()
      .then(() => entry.loaded)
      .catch(() => undefined)
      .then(() => entry.queue.idle());
    this.#leaving.set(entry.scope.key, stopped);
    void stopped.then(() => {
      if (this.#leaving.get(entry.scope.key) === stopped) this.#leaving.delete(entry.scope.key);
    });
  }
}
