// The order-list scanner on a thread of its own (list-scanner-thread.ts
// starts it): the body's chunks come in as they download, and after each one
// main is told how far the rows go, on columns both threads share, so main
// reads the socket and writes the cache while this thread scans.

import { parentPort } from 'node:worker_threads';
import { InvalidOrdersError, OrderListScanner } from '../../shared/order-list-scanner.ts';
import type { OrderColumns } from '../../shared/order-columns.ts';
import { extentOf, type FromScanner, type ToScanner } from './list-scanner-messages.ts';

const port = parentPort!;
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
      const rows = scanner!.rowsSoFar();
      // The columns' buffers go once each (a shared buffer is slow to post); then only how far.
      const grown =
        posted === undefined || buffersOf(rows).some((buffer, k) => buffer !== posted![k]);
      if (grown) posted = buffersOf(rows);
      port.postMessage({
        kind: 'read',
        bytes: bytes.byteLength,
        ...(grown ? { columns: rows } : {}),
        extent: extentOf(rows),
      } satisfies FromScanner);
    } else if (message.kind === 'finish') {
      const read = scanner!;
      // A thread waiting for its next list holds nothing of the last one.
      scanner = undefined;
      posted = undefined;
      ring = undefined;
      const columns = ownColumns(read.finish());
      port.postMessage({ kind: 'done', columns } satisfies FromScanner, buffersOf(columns));
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
 * The whole list's columns on buffers of their own, exactly sized, to hand
 * over to main: main keeps plain buffers (counted as its own memory, free to
 * hand on), and the shared ones go with this thread.
 */
function ownColumns(columns: OrderColumns): OrderColumns {
  // A column the scanner trimmed is a copy already (slice makes a plain buffer of its size).
  const own = <A extends Uint8Array | Uint32Array | Float64Array>(array: A): A =>
    array.buffer instanceof SharedArrayBuffer ? (array.slice() as A) : array;
  return {
    ...columns,
    idText: own(columns.idText),
    lineStarts: own(columns.lineStarts),
    tabs: own(columns.tabs),
    idHighs: own(columns.idHighs),
    idLows: own(columns.idLows),
    petIdHighs: own(columns.petIdHighs),
    petIdLows: own(columns.petIdLows),
    quantities: own(columns.quantities),
    shipText: own(columns.shipText),
    shipStarts: own(columns.shipStarts),
    shipTimes: own(columns.shipTimes),
    shipForms: own(columns.shipForms),
    complete: own(columns.complete),
  };
}

function buffersOf(columns: OrderColumns): ArrayBuffer[] {
  return Object.values(columns).flatMap((value) =>
    ArrayBuffer.isView(value) ? [value.buffer as ArrayBuffer] : [],
  );
}
