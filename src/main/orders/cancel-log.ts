// The local record of every cancel attempt, per service (an environment's
// address: see service-scope.ts): one JSON line per attempt, appended. An append either lands whole or leaves a torn last
// line, which reading skips, so a crash never loses earlier entries.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BulkResult } from '../../shared/bulk-cancel.ts';
import type { EnvironmentId } from '../../shared/environments.ts';
import type { CancelLogEntry } from '../../shared/orders-local.ts';
import { scopedFileName, type ServiceScope } from '../environments/service-scope.ts';
import { nodeFiles, type LocalFiles } from '../local-data/local-files.ts';
import { storageErrorCode } from '../local-data/storage-health.ts';

/** A bulk cancel's result as the log keeps it (the app's and the command line's alike). */
export function cancelLogEntryOf(environment: EnvironmentId, result: BulkResult): CancelLogEntry {
  return {
    at: result.at,
    environment,
    orderId: result.orderId,
    result: result.outcome,
    message: result.message,
    ...(result.delivery ? { delivery: result.delivery } : {}),
  };
}

export class CancelLog {
  readonly #dir: string;
  readonly #files: LocalFiles;
  /** Entries a full or read-only disk would not take, by scope key: kept for this session. */
  readonly #unsaved = new Map<string, CancelLogEntry[]>();

  constructor(dir: string, files: LocalFiles = nodeFiles()) {
    this.#dir = dir;
    this.#files = files;
  }

  #file(scope: ServiceScope): string {
    return join(this.#dir, scopedFileName('cancel-log', scope));
  }

  /** Appends to the log of the service the attempt went to. */
  async append(scope: ServiceScope, entry: CancelLogEntry): Promise<void> {
    if (entry.environment !== scope.environment)
      throw new TypeError('A cancel log entry belongs to its own environment.');
    try {
      await this.#files.append(this.#file(scope), `${JSON.stringify(entry)}\n`);
    } catch (error) {
      if (storageErrorCode(error) === undefined) throw error;
      this.#unsaved.set(scope.key, [...(this.#unsaved.get(scope.key) ?? []), entry]);
    }
  }

  async read(scope: ServiceScope): Promise<CancelLogEntry[]> {
    const { environment } = scope;
    const unsaved = this.#unsaved.get(scope.key) ?? [];
    let text: string;
    try {
      text = await readFile(this.#file(scope), 'utf8');
    } catch {
      return [...unsaved];
    }
    const entries: CancelLogEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const entry = JSON.parse(line) as CancelLogEntry;
        if (entry.environment === environment && typeof entry.orderId === 'string')
          entries.push(entry);
      } catch {
        // a torn line from a crash mid-append
      }
    }
    return [...entries, ...unsaved];
  }
}
