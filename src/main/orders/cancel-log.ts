// The local record of every cancel attempt, per environment: one JSON line
// per attempt, appended. An append either lands whole or leaves a torn last
// line, which reading skips, so a crash never loses earlier entries.

import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EnvironmentId } from '../../shared/environments.ts';
import type { CancelLogEntry } from '../../shared/orders-local.ts';

export class CancelLog {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  #file(environment: EnvironmentId): string {
    return join(this.#dir, `cancel-log-${environment}.jsonl`);
  }

  async append(entry: CancelLogEntry): Promise<void> {
    await appendFile(this.#file(entry.environment), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }

  async read(environment: EnvironmentId): Promise<CancelLogEntry[]> {
    let text: string;
    try {
      text = await readFile(this.#file(environment), 'utf8');
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
