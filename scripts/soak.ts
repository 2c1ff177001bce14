// npm run soak -- [--minutes N] [--kills N] [--seed N]: the soak
// (tools/reliability/soak.ts) for N minutes (default 10), then the kill loop
// (tools/reliability/kill-loop.ts) with 100 kills (the heavy tier runs a fixed
// amount of soak and 30 kills). Prints the figures; exits 1 on any mismatch.

import { parseArgs } from 'node:util';
import { runKillLoop } from '../tools/reliability/kill-loop.ts';
import { runSoak, SOAK_FAULTS } from '../tools/reliability/soak.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    kills: { type: 'string', default: '100' },
    seed: { type: 'string', default: '20261122' },
  },
});
const minutes = Number(values.minutes);
const kills = Number(values.kills);
const seed = Number(values.seed);
let ok = true;

if (minutes > 0) {
  console.log(`Soak: ${minutes} min against the sandbox with faults ${SOAK_FAULTS}, seed ${seed}`);
  const soak = await runSoak({ durationMs: minutes * 60_000, seed });
  const faults = Object.entries(soak.faults)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  console.log(`  ran ${soak.seconds.toFixed(0)} s: ${soak.requests} requests; faults: ${faults}`);
  console.log(
    `  refreshes ${soak.refreshes.ok} ok, ${soak.refreshes.failed} failed (in plain words); bulk cancels ${soak.bulkJobs} (${soak.bulkResults} results); single cancels ${soak.cancels}; DNS checks ${soak.dnsChecks}`,
  );
  console.log(
    `  mismatches ${soak.mismatches.length}; requests through a shut gate ${soak.sentWhileShut}; unhandled rejections ${soak.unhandledRejections}; heap ${soak.heapStartMb.toFixed(1)} MB at the start, ${soak.heapEndMb.toFixed(1)} MB at the end`,
  );
  for (const mismatch of soak.mismatches.slice(0, 20)) console.log(`    ${mismatch}`);
  ok &&= soak.mismatches.length === 0 && soak.sentWhileShut === 0 && soak.unhandledRejections === 0;
}

if (kills > 0) {
  console.log(`\nKill loop: ${kills} SIGKILLs at seeded random moments, seed ${seed}`);
  const loop = await runKillLoop({ kills, seed, orders: 300 });
  const mid = Object.entries(loop.midWrite)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  console.log(
    `  ${loop.kills} kills in ${(loop.elapsedMs / 1000).toFixed(0)} s; ${loop.killsMidWrite} landed mid-write (${mid})`,
  );
  console.log(
    `  broken files ${loop.brokenFiles.length}; bulk cancel of ${loop.orders}: lost ${loop.lost}, doubled ${loop.doubled}, not as the sandbox has it ${loop.mismatched}; continued after a lost answer ${loop.continued}`,
  );
  ok &&=
    loop.brokenFiles.length === 0 && loop.lost === 0 && loop.doubled === 0 && loop.mismatched === 0;
}
process.exitCode = ok ? 0 : 1;
