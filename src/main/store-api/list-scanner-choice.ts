// Which scanner reads a list: on main, or on a thread of its own
// (list-scanner-thread.ts) when the list is large. A list whose size is
// declared (Content-Length of a body sent as it is) is chosen for at once; a
// list whose size is not known before it arrives (sent chunked, or
// compressed: the Content-Length of a gzip body is the compressed size, a
// fraction of what comes out) is chosen for by what arrives: read on main
// until THREAD_FROM_BYTES have come, then handed to a thread, which reads
// what came so far and the rest.

import type { OrderColumns } from '../../shared/order-columns.ts';
import { OrderListScanner } from '../../shared/order-list-scanner.ts';
import { ListScannerThread, listThreadUsable } from './list-scanner-thread.ts';

/** What the client needs of a scanner, wherever it reads. */
export interface ListScanner {
  readonly count: number;
  rowsSoFar(): OrderColumns;
  push(chunk: Uint8Array): void | Promise<void>;
  finish(): OrderColumns | Promise<OrderColumns>;
  /** Stops a thread it started (the list is read, failed or no longer wanted). */
  close(): void;
}

/**
 * The scanner for a list: `declaredBytes` is the body's size when it is the
 * list's own (undefined when not known); `threadFromBytes` the size from
 * which a list is read on a thread (Infinity: always on main).
 */
export function listScannerFor(
  declaredBytes: number | undefined,
  threadFromBytes: number,
): ListScanner {
  if (declaredBytes !== undefined) {
    if (declaredBytes >= threadFromBytes && listThreadUsable())
      return new ListScannerThread(declaredBytes);
    return onMain(new OrderListScanner({ expectedBytes: declaredBytes }));
  }
  return new ScannerByArrival(threadFromBytes);
}

function onMain(scanner: OrderListScanner): ListScanner {
  return Object.assign(scanner, { close: () => undefined });
}

class ScannerByArrival implements ListScanner {
  readonly #threadFromBytes: number;
  #main: OrderListScanner | undefined = new OrderListScanner();
  /** What came so far, for the thread to read from the start (dropped once it has it). */
  #kept: Uint8Array[] = [];
  #keptBytes = 0;
  #thread: ListScannerThread | undefined;

  constructor(threadFromBytes: number) {
    this.#threadFromBytes = threadFromBytes;
  }

  get count(): number {
    return this.#thread?.count ?? this.#main!.count;
  }

  rowsSoFar(): OrderColumns {
    return this.#thread ? this.#thread.rowsSoFar() : this.#main!.rowsSoFar();
  }

  async push(chunk: Uint8Array): Promise<void> {
    if (this.#thread) return this.#thread.push(chunk);
    // Read on main as it comes, so a list refused by its first bytes fails at once.
    this.#main!.push(chunk);
    this.#kept.push(chunk);
    this.#keptBytes += chunk.byteLength;
    if (this.#keptBytes < this.#threadFromBytes || !listThreadUsable()) return;
    const thread = new ListScannerThread(undefined);
    this.#thread = thread;
    const kept = this.#kept;
    this.#kept = [];
    this.#main = undefined;
    for (const part of kept) await thread.push(part);
  }

  finish(): OrderColumns | Promise<OrderColumns> {
    return this.#thread ? this.#thread.finish() : this.#main!.finish();
  }

  close(): void {
    this.#thread?.close();
  }
}
