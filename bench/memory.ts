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
  let last = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 10; round++) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
    const { heapUsed, external } = process.memoryUsage();
    // A large list's columns are on buffers the scanner's thread made, which V8 counts as its own.
    const now = heapUsed + external + sharedBytesHeld();
    if (Math.abs(last - now) < 256 * 1024) return now;
    last = now;
  }
  return last;
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
