// What this process holds, measured: the heap plus memory outside it (array
// buffers, Buffers, external strings, and the shared buffers of a list read
// on the scanner's thread), after collecting garbage until the
// figure settles. Memory outside the heap is freed by finalizers that run
// after a collection, a turn later.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sharedBytesHeld } from '../src/main/store-api/list-scanner-thread.ts';

// The collector, also when Node was started without --expose-gc.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

export async function bytesInUse(): Promise<number> {
  const readings: number[] = [];
  for (let round = 0; round < 12; round++) {
    collect();
    // A few milliseconds, not one turn: a large buffer's memory is given back by a sweep that
    // runs beside the program.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const { heapUsed, external } = process.memoryUsage();
    // A large list's columns are on buffers the scanner's thread made, which V8 counts as its own.
    readings.push(heapUsed + external + sharedBytesHeld());
    // Settled when three readings in a row agree: V8 gives back the outside memory of what a
    // collection freed over the next collections, and two readings could agree on a figure on
    // its way down (a download's 92 MB body once counted so, and main held "-93 bytes an order").
    const [a, b, c] = readings.slice(-3);
    if (c !== undefined && Math.abs(c - b!) < 256 * 1024 && Math.abs(b! - a!) < 256 * 1024)
      return c;
  }
  return readings.at(-1)!;
}

/** What holding the result of `load` costs. */
export async function heldBytes(load: () => Promise<unknown>): Promise<number> {
  const before = await bytesInUse();
  const held = await load();
  const after = await bytesInUse();
  // Keep `held` alive until after the second reading.
  if (held === undefined) throw new Error('nothing loaded');
  return after - before;
}
