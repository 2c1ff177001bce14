// Every fuzz target with a few hundred inputs from a fixed seed, and every
// saved regression (npm run fuzz runs 100,000 per target).

import { describe, expect, it } from 'vitest';
import { runTarget } from '../../tools/fuzz/run-target.ts';
import { TARGETS } from '../../tools/fuzz/targets.ts';

const SEED = 20_261_122;
/** Inputs per target in npm test; the harness and the CLI cost a request or a run each. */
const RUNS: Readonly<Record<string, number>> = {
  'harness-requests': 300,
  'cli-arguments': 400,
  'ipc-arguments': 1500,
};

describe('fuzz targets (fixed seed)', () => {
  for (const target of TARGETS.filter((t) => t.home === undefined)) {
    it(`${target.name}: generated inputs and saved regressions all hold`, async () => {
      const report = await runTarget(target, { runs: RUNS[target.name] ?? 2000, seed: SEED });
      expect(report.counterexample, report.error).toBeUndefined();
      expect(report.failed).toBe(false);
      expect(report.inputs).toBeGreaterThanOrEqual(RUNS[target.name] ?? 2000);
    }, 60_000);
  }
});
