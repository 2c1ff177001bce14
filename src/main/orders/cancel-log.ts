// The local record of every cancel attempt, per service (an environment's
// address: see service-scope.ts): one JSON line per attempt, appended. An append either lands whole or leaves a torn last
// line, which reading skips, so a crash never loses earlier entries.

import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CancelLogEntry } from '../../shared/orders-local.ts';
import { scopedFileName, type ServiceScope } from '../environments/service-scope.ts';

export class CancelLog {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  #file(scope: ServiceScope): string {
    return join(this.#dir, scopedFileName('cancel-log', scope));
  }

  /** Appends to the log of the service the attempt went to. */
  async append(scope: ServiceScope, entry: CancelLogEntry): Promise<void> {
    if (entry.environment !== scope.environment)
      throw new TypeError('A cancel log entry belongs to its own environment.');
    await appendFile(this.#file(scope), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }

  async read(scope: ServiceScope): Promise<CancelLogEntry[]> {
    const { environment } = scope;
    let text: string;
    try {
      text = await readFile(this.#file(scope), 'utf8');
    } catch {
      return [];
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
    return entries;
  }
}
