// The last good order list of each environment, on disk, for offline review.
// Lists can be ~100 MB, past what electron-store suits, so each is one file
// written atomically (temp file, fsync, rename: write-file-atomic): a crash
// mid-write leaves the previous file whole. The file is a one-line JSON
// header and then the list exactly as the service sent it (already
// validated), so writing costs no serialisation and reading is one parse.

import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { EnvironmentId } from '../../shared/environments.ts';

const FORMAT = 'store-admin-orders';
const VERSION = 1;

export interface CachedOrders {
  readonly environment: EnvironmentId;
  /** The service the list came from. */
  readonly baseUrl: string;
  /** Epoch ms of the answer. */
  readonly receivedAt: number;
  readonly count: number;
  /** The validated JSON body. */
  readonly body: string;
}

interface Header {
  readonly format: typeof FORMAT;
  readonly version: number;
  readonly environment: EnvironmentId;
  readonly baseUrl: string;
  readonly receivedAt: number;
  readonly count: number;
  readonly bytes: number;
}

export type CacheReadProblem = 'missing' | 'damaged' | 'other-service';

export class OrderCache {
  readonly #dir: string;
  /** Writes per environment run one after another; the last one wins. */
  readonly #writing = new Map<EnvironmentId, Promise<void>>();

  constructor(dir: string) {
    this.#dir = dir;
  }

  fileOf(environment: EnvironmentId): string {
    return join(this.#dir, `orders-${environment}.cache`);
  }

  /** Removes temporary files left by a write that a crash cut short (call at start-up). */
  async sweepTemporaryFiles(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch {
      return;
    }
    const leftovers = names.filter((name) => /^orders-[a-z]+\.cache\..+$/.test(name));
    await Promise.all(leftovers.map((name) => rm(join(this.#dir, name), { force: true })));
  }

  async write(entry: CachedOrders): Promise<void> {
    const header: Header = {
      format: FORMAT,
      version: VERSION,
      environment: entry.environment,
      baseUrl: entry.baseUrl,
      receivedAt: entry.receivedAt,
      count: entry.count,
      bytes: Buffer.byteLength(entry.body),
    };
    const previous = this.#writing.get(entry.environment) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(() => writeFileAtomic(this.fileOf(entry.environment), `${JSON.stringify(header)}\n${entry.body}`, { mode: 0o600 }));
    this.#writing.set(entry.environment, next);
    return next;
  }

  /**
   * The cached list, if there is a whole one for this environment's current
   * service. `expectedBaseUrl` undefined accepts any (the sandbox moves port).
   */
  async read(
    environment: EnvironmentId,
    expectedBaseUrl?: string,
  ): Promise<{ ok: true; value: CachedOrders } | { ok: false; problem: CacheReadProblem }> {
    let text: string;
    try {
      text = await readFile(this.fileOf(environment), 'utf8');
    } catch (error) {
      return { ok: false, problem: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'damaged' };
    }
    const newline = text.indexOf('\n');
    if (newline < 0) return { ok: false, problem: 'damaged' };
    let header: Header;
    try {
      header = JSON.parse(text.slice(0, newline)) as Header;
    } catch {
      return { ok: false, problem: 'damaged' };
    }
    const body = text.slice(newline + 1);
    if (
      header.format !== FORMAT ||
      header.version !== VERSION ||
      header.environment !== environment ||
      typeof header.receivedAt !== 'number' ||
      typeof header.count !== 'number' ||
      Buffer.byteLength(body) !== header.bytes
    ) {
      return { ok: false, problem: 'damaged' };
    }
    if (expectedBaseUrl !== undefined && header.baseUrl !== expectedBaseUrl) return { ok: false, problem: 'other-service' };
    return {
      ok: true,
      value: { environment, baseUrl: header.baseUrl, receivedAt: header.receivedAt, count: header.count, body },
    };
  }
}
