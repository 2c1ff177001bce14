// Takes a lock (as a bulk cancel holds one, kept fresh) and keeps it until
// killed, printing "held" once it has it (file-lock.spec.ts kills it).
//   node lock-holder.ts LOCK

import { lock } from '../../../src/main/local-data/file-lock.ts';

await lock(process.argv[2]!, { staleMs: 5_000, goneAfterMs: 2_500 });
process.stdout.write('held\n');
setInterval(() => undefined, 60_000);
