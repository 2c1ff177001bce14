// The last good order list of each service (see service-scope.ts), on disk, for offline review.
// Lists can be ~100 MB, past what electron-store suits, so each is one file:
// a fixed-size JSON header line, then the list exactly as the service sent
// it (no serialisation to pay for, one parse to read).
//
// Writes are atomic and two-phase: `begin` starts a temporary file that the
// body's bytes are appended to as they arrive, while the caller validates
// them; `commit` fills in the header, fsyncs and renames it over the old
// file; `abort` deletes it. So the disk write overlaps the download and the
// validation, a list that fails validation never replaces the last good one,
// and a crash at any point leaves the previous file whole. (write-file-atomic
// does the same in one step, which would put the write after validation.)
//
// The list it replaces is kept as the previous generation (`.previous.cache`,
// a hard link, so no copy), which is what "changes since the last refresh"
// compares with, offline and after a restart too (orders/changes.ts).

import { randomBytes } from 'node:crypto';
import {
  copyFile,
  link,
  open,
  readdir,
  readFile,
  rename,
  rm,
  type FileHandle,
} from 'node:fs/promises';
import { join } from 'node:path';
import type { EnvironmentId } from '../../shared/environments.ts';
import type { OrderColumns } from '../../shared/order-columns.ts';
import { scopedFileName, serviceScope, type ServiceScope } from '../environments/service-scope.ts';
import { DATA_FILES, NewerDataError, refuseNewer, tellNewer } from '../local-data/data-files.ts';
import { processAlive } from '../local-data/file-lock.ts';
import { inFileSection } from '../local-data/file-section.ts';
import { lazySchema } from '../local-data/lazy-schema.ts';
import { nodeFiles, type LocalFiles, type StreamedFile } from '../local-data/local-files.ts';

const FORMAT = 'store-admin-orders';
const VERSION = DATA_FILES.orderCache.version;
const HEADER_BYTES = 1024;
/** Body bytes queued for the disk before `append` makes the caller wait. */
const MAX_WAITING_BYTES = 16 * 1024 * 1024;
/** Body bytes written between two flushes to the disk. */
const SYNC_EVERY_BYTES = 16 * 1024 * 1024;

/** A temporary file of this process beside `file`: a list being written, or one waiting to be removed. */
function temporaryOf(file: string): string {
  return `${file}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
}
const TEMPORARY = /^orders-[a-z0-9-]+\.cache\.(?:(\d+)-)?[0-9a-f]+\.tmp$/;

export interface CacheMeta {
  readonly environment: EnvironmentId;
  /** The service the list came from. */
  readonly baseUrl: string;
  /** Epoch ms of the answer. */
  readonly receivedAt: number;
}

export interface CachedOrders extends CacheMeta {
  readonly count: number;
  /** The validated JSON body. */
  readonly body: string;
}

interface Header extends CacheMeta {
  readonly format: typeof FORMAT;
  readonly version: number;
  readonly count: number;
  readonly bytes: number;
}

const headerSchema = lazySchema<Header>((z) =>
  z.object({
    format: z.literal(FORMAT),
    version: z.literal(VERSION),
    environment: z.enum(['sandbox', 'staging', 'production']),
    baseUrl: z.string(),
    receivedAt: z.number(),
    count: z.number(),
    bytes: z.number(),
  }),
);

export interface PendingCacheWrite {
  /**
   * Adds the next bytes of the body. Resolves at once unless too much is
   * still waiting for the disk, so a slow disk slows the download rather than
   * filling memory. Never rejects: a failed write is reported by `commit`.
   */
  append(chunk: Uint8Array): Promise<void>;
  /**
   * Makes the written list the cached one; `count` is what validation found,
   * `receivedAt` the answer's time (required if `begin` was not given it),
   * `columns` the list as read, handed to commit listeners so they need not
   * read it again.
   */
  commit(count: number, receivedAt?: number, columns?: OrderColumns): Promise<void>;
  /** Drops it; the previous cache stays. */
  abort(): Promise<void>;
}

export type CacheReadProblem = 'missing' | 'damaged' | 'other-service';

/** The cached list, or the one it replaced. */
export type CacheGeneration = 'current' | 'previous';

/** A list that just became the cached one of its service. */
export interface CacheCommit {
  readonly scope: ServiceScope;
  readonly receivedAt: number;
  readonly count: number;
  readonly columns?: OrderColumns;
}

export class OrderCache {
  readonly #dir: string;
  readonly #files: LocalFiles;
  /** Commits per file run one after another. */
  readonly #committing = new Map<string, Promise<unknown>>();
  /** The most recently begun write per file wins, whichever finishes last. */
  #sequence = 0;
  readonly #newestCommitted = new Map<string, number>();
  readonly #commitListeners = new Set<(commit: CacheCommit) => void>();
  readonly #removals = new Set<Promise<unknown>>();

  /** `files`: how the temporary file reaches the disk (tests inject a full one). */
  constructor(dir: string, files: LocalFiles = nodeFiles()) {
    this.#dir = dir;
    this.#files = files;
  }

  fileOf(scope: ServiceScope, generation: CacheGeneration = 'current'): string {
    const file = join(this.#dir, scopedFileName('orders', scope));
    return generation === 'current' ? file : file.replace(/\.cache$/, '.previous.cache');
  }

  /** Called each time a list becomes the cached one (after its file is in place). */
  onCommit(listener: (commit: CacheCommit) => void): () => void {
    this.#commitListeners.add(listener);
    return () => this.#commitListeners.delete(listener);
  }

  /** Removes a file no list needs any more, after the commit that freed it has answered. */
  #removeLater(file: string): void {
    const removal = rm(file, { force: true })
      .catch(() => undefined) // left to sweepTemporaryFiles at the next start
      .finally(() => this.#removals.delete(removal));
    this.#removals.add(removal);
  }

  /** Resolves once the files left for later are removed (a quit cut short leaves them to the sweep). */
  async settled(): Promise<void> {
    await Promise.all([...this.#removals]);
  }

  /**
   * Removes temporary files left by a write that a crash cut short (call at
   * start-up). A file of a process that still runs (a command-line run
   * saving a list in the same folder) is its write under way, and stays.
   */
  async sweepTemporaryFiles(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch {
      return;
    }
    const leftovers = names.filter((name) => {
      const match = TEMPORARY.exec(name);
      if (!match) return false;
      const pid = match[1] === undefined ? undefined : Number(match[1]);
      // Named without a process (0.4.0 and earlier), or by one that is gone.
      return pid === undefined || pid === process.pid || !processAlive(pid);
    });
    await Promise.all(leftovers.map((name) => rm(join(this.#dir, name), { force: true })));
  }

  /**
   * Starts writing a list: `body` (its UTF-8 bytes as received, or the text)
   * if it is all there, else the chunks given to `append` as they arrive.
   */
  begin(
    meta: Omit<CacheMeta, 'receivedAt'> & Partial<Pick<CacheMeta, 'receivedAt'>>,
    body?: string | Uint8Array,
  ): PendingCacheWrite {
    const scope = serviceScope(meta.environment, meta.baseUrl);
    const file = this.fileOf(scope);
    const previousFile = this.fileOf(scope, 'previous');
    const temporary = temporaryOf(file);
    const ticket = ++this.#sequence;
    let handle: StreamedFile | undefined;
    let failure: unknown;
    let bytes = 0;
    let waiting = 0;
    let unsynced = 0;
    let flushing: Promise<void> | undefined;
    // Writes run one after another on this chain; the first opens the file with a blank header.
    let chain: Promise<void> = (async () => {
      handle = await this.#files.create(temporary);
      const blankHeader = Buffer.alloc(HEADER_BYTES + 1, ' ');
      blankHeader[HEADER_BYTES] = 0x0a;
      await handle.writeAt([blankHeader], 0);
    })().catch((error: unknown) => {
      failure ??= error;
    });
    // Chunks that come while a write is under way wait in one batch, written with one writev:
    // a list arrives in thousands of chunks, and a write each would cost a system call each.
    let batch: Uint8Array[] | undefined;
    const append = (chunk: Uint8Array): Promise<void> => {
      waiting += chunk.byteLength;
      if (batch) {
        batch.push(chunk);
      } else {
        const chunks = [chunk];
        const position = HEADER_BYTES + 1 + bytes;
        batch = chunks;
        chain = chain.then(async () => {
          batch = undefined; // later chunks start the next batch
          const size = chunks.reduce((sum, part) => sum + part.byteLength, 0);
          waiting -= size;
          if (failure !== undefined) return;
          try {
            await handle!.writeAt(chunks, position);
            // Flush the bulk as it comes, so commit has only the tail and the header to sync;
            // the writes go on meanwhile (one flush at a time), and commit waits for the last.
            unsynced += size;
            if (unsynced >= SYNC_EVERY_BYTES && !flushing) {
              unsynced = 0;
              flushing = handle!
                .flush()
                .catch((error: unknown) => {
                  failure ??= error;
                })
                .finally(() => {
                  flushing = undefined;
                });
            }
          } catch (error) {
            failure ??= error;
          }
        });
      }
      bytes += chunk.byteLength;
      return waiting > MAX_WAITING_BYTES ? chain : Promise.resolve();
    };
    if (body !== undefined)
      void append(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
    const cleanup = async (): Promise<void> => {
      await handle?.close().catch(() => undefined);
      await rm(temporary, { force: true });
    };
    return {
      append,
      commit: async (count, receivedAt = meta.receivedAt, columns) => {
        try {
          await chain;
          await flushing;
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- the write's own failure, unchanged
          if (failure !== undefined) throw failure;
          if (receivedAt === undefined) throw new Error('the list has no time');
          const header: Header = {
            format: FORMAT,
            version: VERSION,
            environment: meta.environment,
            baseUrl: meta.baseUrl,
            receivedAt,
            count,
            bytes,
          };
          const text = Buffer.from(JSON.stringify(header), 'utf8');
          if (text.length > HEADER_BYTES) throw new Error('cache header too long');
          await handle!.writeAt([text], 0);
          await handle!.sync();
          await handle!.close();
        } catch (error) {
          await cleanup();
          throw error;
        }
        const previous = this.#committing.get(file) ?? Promise.resolve();
        const next = previous
          .catch(() => undefined)
          .then(async () => {
            if (ticket < (this.#newestCommitted.get(file) ?? 0)) {
              await rm(temporary, { force: true }); // a newer list is already in place
              return false;
            }
            this.#newestCommitted.set(file, ticket);
            // The app and a command-line run keep one cache per service: the two renames are one step.
            return inFileSection(file, async () => {
              try {
                // A list a newer version saved is left as it is: this one is shown, not saved.
                refuseNewer(file);
              } catch (error) {
                await rm(temporary, { force: true });
                throw error;
              }
              const replaced = await keepAsPrevious(file, previousFile);
              try {
                await rename(temporary, file);
              } finally {
                if (replaced !== undefined) this.#removeLater(replaced);
              }
              return true;
            });
          });
        this.#committing.set(file, next);
        if (await next) {
          for (const listener of [...this.#commitListeners])
            listener({ scope, receivedAt, count, ...(columns ? { columns } : {}) });
        }
      },
      abort: async () => {
        await chain;
        await flushing;
        await cleanup();
      },
    };
  }

  async write(entry: CachedOrders): Promise<void> {
    await this.begin(entry, entry.body).commit(entry.count);
  }

  /**
   * The cached list of the scope's service (or the one it replaced), if
   * there is a whole one. The sandbox's scope accepts any address (it moves
   * port at each start).
   */
  async read(
    scope: ServiceScope,
    generation: CacheGeneration = 'current',
  ): Promise<{ ok: true; value: CachedOrders } | { ok: false; problem: CacheReadProblem }> {
    let data: Buffer;
    try {
      data = await readFile(this.fileOf(scope, generation));
    } catch (error) {
      return { ok: false, problem: problemOf(error) };
    }
    const checked = await checkHeader(data.subarray(0, HEADER_BYTES + 1), data.length, scope);
    if (!checked.ok) return checked;
    return {
      ok: true,
      value: { ...listOf(scope, checked.header), body: data.toString('utf8', HEADER_BYTES + 1) },
    };
  }

  /**
   * The cached list of the scope's service, if there is a whole one, with its
   * body to read a chunk at a time (never all of it in memory at once).
   */
  async open(
    scope: ServiceScope,
    generation: CacheGeneration = 'current',
  ): Promise<{ ok: true; value: CachedOrderReader } | { ok: false; problem: CacheReadProblem }> {
    let handle: FileHandle;
    try {
      handle = await open(this.fileOf(scope, generation), 'r');
    } catch (error) {
      return { ok: false, problem: problemOf(error) };
    }
    try {
      const { size } = await handle.stat();
      const head = Buffer.alloc(HEADER_BYTES + 1);
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      const checked = await checkHeader(head.subarray(0, bytesRead), size, scope);
      if (!checked.ok) {
        await handle.close();
        return checked;
      }
      const { header } = checked;
      let position = HEADER_BYTES + 1;
      const file = handle;
      return {
        ok: true,
        value: {
          ...listOf(scope, header),
          bytes: header.bytes,
          async *chunks() {
            try {
              while (position < size) {
                // A fresh buffer each time: whoever reads a chunk may hold on to it.
                const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, size - position));
                const { bytesRead: read } = await file.read(chunk, 0, chunk.length, position);
                if (read === 0) throw new Error('the cache file ended early');
                position += read;
                yield chunk.subarray(0, read);
              }
            } finally {
              await file.close().catch(() => undefined);
            }
          },
          close: () => file.close().catch(() => undefined),
        },
      };
    } catch (error) {
      await handle.close().catch(() => undefined);
      return { ok: false, problem: problemOf(error) };
    }
  }
}

/** Bytes read at a time from a cache file's body. */
const READ_CHUNK_BYTES = 1024 * 1024;

/** A cached list opened for reading (see OrderCache.open). */
export interface CachedOrderReader extends CacheMeta {
  readonly count: number;
  /** The body's size. */
  readonly bytes: number;
  /** The body, a chunk at a time; the file closes when they are read (or the loop stops). */
  chunks(): AsyncIterable<Uint8Array>;
  /** Closes the file without reading it. */
  close(): Promise<void>;
}

function problemOf(error: unknown): CacheReadProblem {
  return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'damaged';
}

/** What a checked header says of its list, for the scope it was read for. */
function listOf(scope: ServiceScope, header: Header): CacheMeta & { readonly count: number } {
  return {
    environment: scope.environment,
    baseUrl: header.baseUrl,
    receivedAt: header.receivedAt,
    count: header.count,
  };
}

/** The header line of a cache file of `fileBytes` bytes, checked against the scope it should belong to. */
async function checkHeader(
  head: Uint8Array,
  fileBytes: number,
  scope: ServiceScope,
): Promise<{ ok: true; header: Header } | { ok: false; problem: CacheReadProblem }> {
  if (fileBytes <= HEADER_BYTES || head.length <= HEADER_BYTES || head[HEADER_BYTES] !== 0x0a)
    return { ok: false, problem: 'damaged' };
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(head.subarray(0, HEADER_BYTES)).toString('utf8'));
  } catch {
    return { ok: false, problem: 'damaged' };
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > VERSION) {
    // Saved by a newer version: left as it is, and said once.
    tellNewer(new NewerDataError(scopedFileName('orders', scope), version, VERSION));
    return { ok: false, problem: 'damaged' };
  }
  const parsed = (await headerSchema()).safeParse(json);
  if (
    !parsed.success ||
    parsed.data.environment !== scope.environment ||
    parsed.data.bytes !== fileBytes - HEADER_BYTES - 1
  ) {
    return { ok: false, problem: 'damaged' };
  }
  const header = parsed.data;
  if (scope.baseUrl !== undefined && header.baseUrl !== scope.baseUrl)
    return { ok: false, problem: 'other-service' };
  return { ok: true, header };
}

/**
 * Makes the list about to be replaced the previous generation: a hard link
 * renamed into place, so the previous file is always a whole list (the old
 * one, or after a crash between the two renames, the current one again).
 * The generation it replaces keeps a link of its own (a temporary name), so
 * the rename frees nothing: freeing a list's ~100 MB on the disk takes as long
 * as a tenth of its download. Returns that name, to remove once the new list
 * is in place (a crash leaves it to sweepTemporaryFiles).
 */
async function keepAsPrevious(file: string, previousFile: string): Promise<string | undefined> {
  const temporary = temporaryOf(file);
  let replaced: string | undefined = temporaryOf(file);
  try {
    try {
      await link(file, temporary);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // the first list
      // A file system without hard links: a copy does the same, more slowly.
      await copyFile(file, temporary);
    }
    await link(previousFile, replaced).catch(() => {
      replaced = undefined; // none yet (the second list), or no hard links: freed by the rename
    });
    await rename(temporary, previousFile);
    return replaced;
  } catch {
    if (replaced !== undefined) await rm(replaced, { force: true }).catch(() => undefined);
    // The new list still goes in; with no previous generation, changes say
    // there is nothing to compare with rather than compare with an older one.
    await rm(temporary, { force: true }).catch(() => undefined);
    await rm(previousFile, { force: true }).catch(() => undefined);
  }
}
