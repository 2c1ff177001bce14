// A large list is scanned on a thread of its own, so that the machine's
// second core reads the orders while main reads the socket and writes the
// cache: the refresh then takes about as long as the longer of the two,
// not their sum. Each chunk is copied once, into a ring both threads share,
// and handed over in batches of about half a megabyte; the rows so far come
// back after each batch as views on columns both threads share (rowsSoFar),
// so rows reach the screen while the list downloads; once the list is read,
// main keeps those columns (no copy) and the thread lets go of them.
// A list that is not what the interface says fails with the scanner's own
// words, as on main.

import { Worker } from 'node:worker_threads';
import type { OrderColumns } from '../../shared/order-columns.ts';
import { InvalidOrdersError, OrderListScanner } from '../../shared/order-list-scanner.ts';
import {
  extentOf,
  rowsWithin,
  type FromScanner,
  type RowsExtent,
  type ToScanner,
  wholeListWithin,
} from './list-scanner-messages.ts';

/**
 * The built app has the thread's script beside main's (electron.vite.config.ts
 * makes it an entry of its own); the sources run it as TypeScript.
 */
const SCRIPT = new URL(
  import.meta.url.endsWith('.ts') ? './list-scanner-worker.ts' : './list-scanner-worker.js',
  import.meta.url,
);

/**
 * Bytes of the shared buffers main's objects hold (the columns the thread
 * writes). V8 counts them in the memory of the thread that made them, not
 * main's: `sharedBytesHeld` is what main holds of them, so that what main
 * holds can be measured whole. The columns come over only when one has grown
 * (see the thread's rowsSoFar); the objects of the last time are garbage then,
 * so after a collection each buffer is counted once.
 */
let sharedBytes = 0;
const sharedFreed = new FinalizationRegistry<number>((bytes) => {
  sharedBytes -= bytes;
});

function holdShared(columns: OrderColumns): OrderColumns {
  for (const value of Object.values(columns)) {
    if (ArrayBuffer.isView(value) && value.buffer instanceof SharedArrayBuffer) {
      sharedBytes += value.buffer.byteLength;
      sharedFreed.register(value.buffer, value.buffer.byteLength);
    }
  }
  return columns;
}

/** The bytes of shared column buffers main's objects still hold (memory V8 counts as the thread's). */
export function sharedBytesHeld(): number {
  return sharedBytes;
}

/** A thread that read its last list whole, kept for the next (unref'd: it keeps no process alive). */
let idle: Worker | undefined;

function spawn(): Worker {
  const worker = new Worker(SCRIPT);
  worker.on('exit', () => {
    if (idle === worker) idle = undefined;
  });
  return worker;
}

/**
 * Starts the thread a large list will be read on, if none is waiting, so
 * that the first list's rows need not wait for a thread to start. Resolves
 * once it runs (or could not start: the list then fails in plain words).
 */
export function prepareListThread(): Promise<void> {
  if (broken) return Promise.resolve();
  if (!idle) {
    idle = spawn();
    idle.unref();
  }
  const worker = idle;
  return new Promise((resolve) => {
    worker.postMessage({ kind: 'ping' } satisfies ToScanner);
    const done = () => {
      worker.off('message', done);
      worker.off('exit', done);
      resolve();
    };
    worker.on('message', done);
    worker.on('exit', done);
  });
}

/** Body bytes handed over and not read yet before `push` makes the download wait. */
const MAX_UNREAD_BYTES = 16 * 1024 * 1024;
/**
 * Chunks are copied into a ring both threads share, read in place by the
 * scanner's thread (which keeps none of it): a download of thousands of
 * chunks leaves no buffer per chunk for main's collector.
 */
const RING_BYTES = 8 * 1024 * 1024;
/** A chunk larger than this goes over on a buffer of its own. */
const RING_CHUNK_MAX = RING_BYTES / 4;
/**
 * A thread that could not start or stopped before telling of any row (its
 * script missing from a package, a platform without workers): the lists after
 * it are read on main, as a small one is.
 */
let broken = false;

/** A thread has told of rows once: the threads work here, and main reads only the first bytes too. */
let proven = false;
/** What main reads of a list too once the threads are proven (the first rows, at once). */
const HEAD_BYTES = 1024 * 1024;

/** Whether a large list may be read on a thread of its own (see `broken`). */
export function listThreadUsable(): boolean {
  return !broken;
}

/** Chunks are handed over in batches of about this many bytes: a message each would cost more than it carries. */
const BATCH_BYTES = 512 * 1024;

const NO_ROWS: OrderColumns = {
  count: 0,
  idText: new Uint8Array(0),
  lineStarts: new Uint32Array(1),
  tabs: new Uint32Array(0),
  idHighs: new Float64Array(0),
  idLows: new Uint32Array(0),
  petIdHighs: new Float64Array(0),
  petIdLows: new Uint32Array(0),
  quantities: new Float64Array(0),
  shipText: new Uint8Array(0),
  shipStarts: new Uint32Array(1),
  shipTimes: new Float64Array(0),
  shipForms: new Uint8Array(0),
  complete: new Uint8Array(0),
  widestId: 0,
  widestPetId: 0,
};

export class ListScannerThread {
  readonly #worker: Worker;
  /** The columns the thread writes, and how far its rows go in them. */
  #shared = NO_ROWS;
  #extent: RowsExtent = extentOf(NO_ROWS);
  #unreadBytes = 0;
  readonly #ring = new Uint8Array(new SharedArrayBuffer(RING_BYTES));
  /** Where the next chunk goes in the ring. */
  #ringAt = 0;
  /** The chunks copied into the ring and not handed over yet: where they start, and their bytes. */
  #batchAt = 0;
  #batchBytes = 0;
  /** Where each chunk handed over and not read yet starts in the ring (-1: on a buffer of its own). */
  readonly #unread: number[] = [];
  /**
   * The list read on main as well until the thread has told of rows: the
   * first rows reach the screen at once however long the thread takes to
   * start, a list refused by its first bytes fails at once, and a thread that
   * cannot start leaves main with every byte read (`#onMain`). Once a thread
   * has told of rows (`proven`), only the first HEAD_BYTES. Undefined once the
   * thread has caught up with it.
   */
  #head: OrderListScanner | undefined = new OrderListScanner();
  #headBytes = 0;
  /** The head has read every byte so far: main can go on alone. */
  #headWhole = true;
  /** The thread stopped before telling of any row: main reads the list, on `#head`. */
  #onMain = false;
  #columns: OrderColumns | undefined;
  #failure: Error | undefined;
  #wake: (() => void) | undefined;

  readonly #listeners = {
    message: (message: FromScanner) => {
      this.#heard(message);
    },
    error: (error: Error) => {
      if (!this.#readOnMain())
        this.#fail(new Error(`The order list could not be read: ${error.message}`));
    },
    exit: () => {
      if (!this.#readOnMain())
        this.#fail(new Error('The order list could not be read: its reader stopped.'));
    },
  };
  /** The thread read the list whole and has let go of it: it may read the next. */
  #reusable = false;
  #closed = false;

  /** `worker`: a thread of the caller's instead of the module's own (tests give one that fails). */
  constructor(expectedBytes: number | undefined, worker: Worker = idle ?? spawn()) {
    if (worker === idle) idle = undefined;
    worker.ref();
    worker.on('message', this.#listeners.message);
    worker.on('error', this.#listeners.error);
    worker.on('exit', this.#listeners.exit);
    this.#worker = worker;
    this.#post({ kind: 'start', expectedBytes, ring: this.#ring.buffer });
  }

  /** Orders read so far. */
  get count(): number {
    return Math.max(this.#extent.count, this.#head?.count ?? 0);
  }

  /** The orders read so far (see OrderListScanner.rowsSoFar); rows already read never change. */
  rowsSoFar(): OrderColumns {
    const head = this.#head;
    if (head && head.count > this.#extent.count) return head.rowsSoFar();
    return rowsWithin(this.#shared, this.#extent);
  }

  /** Hands a chunk over (a copy: the caller keeps its own); waits while too much is unread. */
  async push(chunk: Uint8Array): Promise<void> {
    this.#check();
    const length = chunk.byteLength;
    const head = this.#head;
    if (head && this.#extent.count === 0 && this.#headWhole) {
      // A refusal here is the thread's too, in the same words: said at once.
      try {
        head.push(chunk);
      } catch (error) {
        this.#fail(error as Error);
        throw error;
      }
      this.#headBytes += length;
      if (proven && this.#headBytes >= HEAD_BYTES) this.#headWhole = false;
    } else if (head && this.#extent.count >= head.count) {
      this.#head = undefined;
    } else {
      this.#headWhole = false;
    }
    if (this.#onMain) return;
    if (length > RING_CHUNK_MAX) {
      this.#postBatch(); // the worker reads in order
      const bytes = new Uint8Array(chunk);
      this.#unread.push(-1);
      this.#worker.postMessage({ kind: 'chunk', bytes } satisfies ToScanner, [bytes.buffer]);
    } else {
      let at = this.#roomFor(length);
      while (at < 0 && !this.#failure && !this.#onMain) {
        this.#postBatch();
        await this.#heardNext();
        at = this.#roomFor(length);
      }
      this.#check();
      if (this.#onMain) return;
      // A chunk that does not follow the batch in the ring starts a new one.
      if (at !== this.#ringAt) this.#postBatch();
      this.#ring.set(chunk, at);
      if (this.#batchBytes === 0) this.#batchAt = at;
      this.#ringAt = at + length;
      this.#batchBytes += length;
      if (this.#batchBytes >= BATCH_BYTES) this.#postBatch();
    }
    this.#unreadBytes += length;
    while (this.#unreadBytes > MAX_UNREAD_BYTES && !this.#failure && !this.#onMain) {
      this.#postBatch();
      await this.#heardNext();
    }
    this.#check();
  }

  /**
   * The thread stopped: if it had told of no row yet, main has read every
   * byte too and reads the rest; returns whether it does (or the list is done).
   */
  #readOnMain(): boolean {
    if (this.#columns || this.#failure) return true;
    if (!this.#head || !this.#headWhole || this.#extent.count > 0) return false;
    broken = true;
    this.#onMain = true;
    this.#wake?.();
    return true;
  }

  /** Hands over the chunks copied into the ring since the last batch, as one. */
  #postBatch(): void {
    if (this.#batchBytes === 0) return;
    this.#unread.push(this.#batchAt);
    this.#post({ kind: 'ring', at: this.#batchAt, length: this.#batchBytes });
    this.#batchBytes = 0;
  }

  /** Resolves once every chunk handed over is read (rowsSoFar holds their rows); throws as push does. */
  async read(): Promise<void> {
    if (this.#onMain) return;
    this.#postBatch();
    while (this.#unreadBytes > 0 && !this.#failure && !this.#onMain) await this.#heardNext();
    this.#check();
  }

  /** The columns of the whole list; throws if it is not a whole, valid list. */
  async finish(): Promise<OrderColumns> {
    this.#check();
    if (!this.#onMain) {
      this.#postBatch();
      this.#post({ kind: 'finish' });
      while (!this.#columns && !this.#failure && !this.#onMain) await this.#heardNext();
      this.#check();
    }
    if (this.#onMain) {
      try {
        this.#columns = this.#head!.finish();
      } catch (error) {
        this.#fail(error as Error);
        throw error;
      }
    }
    return this.#columns!;
  }

  /** Stops the thread (the list is read, failed or no longer wanted). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#columns ??= NO_ROWS;
    const worker = this.#worker;
    worker.off('message', this.#listeners.message);
    worker.off('error', this.#listeners.error);
    worker.off('exit', this.#listeners.exit);
    // A thread that read a whole list waits for the next one (its compiled scanner is warm then);
    // one stopped midway may still be reading, and one that cannot collect would keep the list.
    if (this.#reusable && idle === undefined) {
      worker.unref();
      idle = worker;
    } else {
      void worker.terminate();
    }
  }

  /** Where in the ring `length` bytes fit without overwriting a chunk not read yet; -1 if nowhere yet. */
  #roomFor(length: number): number {
    const oldest =
      this.#unread.find((at) => at >= 0) ?? (this.#batchBytes > 0 ? this.#batchAt : undefined);
    if (oldest === undefined) return 0;
    const next = this.#ringAt;
    // Unread chunks lie from `oldest` to `next`, or (wrapped round) from `oldest` to the end and on to `next`.
    if (next > oldest) {
      if (next + length <= RING_BYTES) return next;
      return length <= oldest ? 0 : -1;
    }
    return next + length <= oldest ? next : -1;
  }

  #post(message: ToScanner): void {
    this.#worker.postMessage(message);
  }

  #heard(message: FromScanner): void {
    if (message.kind === 'read') {
      proven = true;
      this.#unreadBytes -= message.bytes;
      this.#unread.shift();
      if (message.columns) this.#shared = holdShared(message.columns);
      this.#extent = message.extent;
    } else if (message.kind === 'done') {
      if (message.columns) this.#shared = holdShared(message.columns);
      this.#columns = wholeListWithin(this.#shared, message.extent);
      // A thread that cannot collect would keep the list's buffers while it waits: it is ended.
      this.#reusable = message.collects;
    } else if (message.kind === 'invalid') {
      this.#fail(new InvalidOrdersError(message.message));
    } else if (message.kind === 'crashed') {
      this.#fail(new Error(`The order list could not be read: ${message.message}`));
    }
    this.#wake?.();
  }

  #fail(error: Error): void {
    // The first failure is the one to report; a thread stopped after the list is whole is no failure.
    if (this.#failure || this.#columns) return;
    this.#failure = error;
    this.#wake?.();
  }

  #check(): void {
    if (this.#failure) throw this.#failure;
  }

  #heardNext(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = () => {
        this.#wake = undefined;
        resolve();
      };
    });
  }
}
