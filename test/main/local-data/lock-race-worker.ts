// One process of the lock race (file-lock.spec.ts): takes the lock `turns`
// times, and inside it checks that nobody else is: a marker file made with
// O_EXCL, and a shared counter read, bumped and written back. The processes
// of a round start together: each says it is ready (GO.ready.PID) and waits
// for GO. Prints how often it found someone else inside.
//   node lock-race-worker.ts LOCK MARKER COUNTER TURNS GO

import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { LockHeldError, lockSync } from '../../../src/main/local-data/file-lock.ts';

const [lockPath, marker, counter, turns, go] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const pause = new Int32Array(new SharedArrayBuffer(4));
writeFileSync(`${go}.ready.${process.pid}`, '');
for (const until = Date.now() + 30_000; !existsSync(go) && Date.now() < until;)
  Atomics.wait(pause, 0, 0, 1);

let overlaps = 0;
for (let turn = 0; turn < Number(turns); turn++) {
  let release: (() => void) | undefined;
  const giveUpAt = Date.now() + 20_000;
  while (!release) {
    try {
      release = lockSync(lockPath, { staleMs: 2_000 });
    } catch (error) {
      if (!(error instanceof LockHeldError) || Date.now() > giveUpAt) throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
  try {
    writeFileSync(marker, String(process.pid), { flag: 'wx' });
  } catch {
    overlaps += 1;
  }
  const count = Number(readFileSync(counter, 'utf8'));
  Atomics.wait(pause, 0, 0, turn % 3); // hold it a moment, so others try meanwhile
  writeFileSync(counter, String(count + 1));
  rmSync(marker, { force: true });
  release();
}
process.stdout.write(JSON.stringify({ overlaps }));
