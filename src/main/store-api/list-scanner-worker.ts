// The order-list scanner on a thread of its own (list-scanner-thread.ts
// starts it): the body's chunks come in as they download, a batch at a time,
// and after each batch main is told how far the rows go, on columns both
// threads share, so main reads the socket and writes the cache while this
// thread scans. The whole list's columns stay on those buffers.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { InvalidOrdersError, OrderListScanner } from '../../shared/order-list-scanner.ts';
import type { OrderColumns } from '../../shared/order-columns.ts';
import {
  extentOf,
  type FromScanner,
  type RowsExtent,
  type ToScanner,
} from './list-scanner-messages.ts';

const port = parentPort!;

/**
 * This thread's garbage collector. A shared buffer's memory is freed once
 * every thread that held it has collected its objects, and this thread
 * allocates too little for its collector to run by itself: without a
 * collection after each list, every list's columns (about 67 MB for a
 * million orders) and ring stayed in memory while the thread waited for the
 * next. The flag only makes the collector callable. Where it cannot be had,
 * main ends the thread after each list instead (`collects` in 'done').
 */
function collector(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}
const collect = collector();
let scanner: OrderListScanner | undefined;
/** The buffers main was last given. */
let posted: ArrayBufferLike[] | undefined;
/** The ring main copies the chunks into. */
let ring: Uint8Array | undefined;

port.on('message', (message: ToScanner) => {
  try {
    if (message.kind === 'ping') {
      port.postMessage({ kind: 'pong' } satisfies FromScanner);
    } else if (message.kind === 'start') {
      posted = undefined;
      ring = new Uint8Array(message.ring);
      scanner = new OrderListScanner({
        ...(message.expectedBytes === undefined ? {} : { expectedBytes: message.expectedBytes }),
        shared: true,
      });
    } else if (message.kind === 'chunk' || message.kind === 'ring') {
      // The scanner keeps none of a chunk's bytes (what it carries over it copies): main may
      // write the ring's part again as soon as it hears this one is read.
      const bytes =
        message.kind === 'ring'
          ? ring!.subarray(message.at, message.at + message.length)
          : message.bytes;
      scanner!.push(bytes);
      port.postMessage({
        kind: 'read',
        bytes: bytes.byteLength,
        ...rowsSoFar(scanner!),
      } satisfies FromScanner);
    } else if (message.kind === 'finish') {
      const read = scanner!;
      read.finish(); // a list cut off or malformed at its end is refused here
      // Main builds the whole list from the columns it has: only how far they go goes over.
      const rows = rowsSoFar(read);
      // A thread waiting for its next list holds nothing of the last one.
      scanner = undefined;
      posted = undefined;
      ring = undefined;
      port.postMessage({
        kind: 'done',
        ...rows,
        collects: collect !== undefined,
      } satisfies FromScanner);
      // Once the message is on its way: the list is main's alone, and this thread's share goes.
      if (collect) setImmediate(collect);
    }
  } catch (error) {
    // A list that is not what the interface says is said in the scanner's own words; anything
    // else is this thread's failure, and main reports it as such.
    port.postMessage(
      error instanceof InvalidOrdersError
        ? { kind: 'invalid', message: error.message }
        : { kind: 'crashed', message: error instanceof Error ? error.message : String(error) },
    );
  }
});

/**
 * How far the rows go, with the columns themselves only when they have grown
 * into new buffers since main last got them (a shared buffer is slow to post,
 * and main would hold two objects for one buffer).
 */
function rowsSoFar(read: OrderListScanner): { columns?: OrderColumns; extent: RowsExtent } {
  const rows = read.rowsSoFar();
  const grown = posted === undefined || buffersOf(rows).some((buffer, k) => buffer !== posted![k]);
  if (grown) posted = buffersOf(rows);
  return { ...(grown ? { columns: rows } : {}), extent: extentOf(rows) };
}

function buffersOf(columns: OrderColumns): ArrayBuffer[] {
  return Object.values(columns).flatMap((value) =>
    ArrayBuffer.isView(value) ? [value.buffer as ArrayBuffer] : [],
  );
}
