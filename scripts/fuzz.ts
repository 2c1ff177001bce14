// npm run fuzz [-- --runs N] [--seed N] [--seconds S] [--target NAME]: every
// fuzz target (tools/fuzz/targets.ts) with 100,000 generated inputs each, each
// target bounded in time, reporting the inputs tried per target. A failing
// input is added to tools/fuzz/regressions.json, which npm test replays.

import { parseArgs } from 'node:util';
import { runTarget, saveRegression } from '../tools/fuzz/run-target.ts';
import { TARGETS } from '../tools/fuzz/targets.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100000' },
    seed: { type: 'string' },
    seconds: { type: 'string', default: '300' },
    target: { type: 'string' },
  },
});
const runs = Number(values.runs);
const seed = values.seed !== undefined ? Number(values.seed) : Date.now() % 2 ** 31;
const timeLimitMs = Number(values.seconds) * 1000;
const targets = TARGETS.filter((t) => values.target === undefined || t.name === values.target);
if (targets.length === 0) {
  console.error(
    `fuzz: no target named ${values.target} (${TARGETS.map((t) => t.name).join(', ')})`,
  );
  process.exit(2);
}

console.log(
  `Fuzzing ${targets.length} targets, ${runs.toLocaleString('en')} inputs each (at most ${values.seconds} s a target), seed ${seed}\n`,
);
let failed = 0;
for (const target of targets) {
  const report = await runTarget(target, { runs, seed, timeLimitMs });
  const status = report.failed ? 'FAILED' : report.interrupted ? `stopped at the time bound` : 'ok';
  console.log(
    `${target.name.padEnd(20)} ${report.inputs.toLocaleString('en').padStart(9)} inputs  ${(report.elapsedMs / 1000).toFixed(1).padStart(6)} s  ${status}`,
  );
  if (report.failed) {
    failed += 1;
    console.log(`  ${report.error}\n  counterexample: ${JSON.stringify(report.counterexample)}`);
    console.log(
      saveRegression(report, seed)
        ? '  kept in tools/fuzz/regressions.json: npm test replays it from now on'
        : '  (not representable as JSON: add it to the regressions by hand)',
    );
  }
}
process.exitCode = failed > 0 ? 1 : 0;
