// The soak in npm test: one minute (SOAK_SECONDS sets it; npm run soak runs
// it for as many minutes as asked).

import { describe, expect, it } from 'vitest';
import { runSoak } from '../../tools/reliability/soak.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);

describe('soak: refreshes, bulk and single cancels, DNS checks against a faulty sandbox', () => {
  it(
    `${SECONDS} s: every reported state as the sandbox has it, no request through a shut gate, no unhandled rejection, a flat heap`,
    async () => {
      const report = await runSoak({ durationMs: SECONDS * 1000, seed: 20_261_122 });
      console.log(`soak: ${JSON.stringify(report)}`);
      expect(report.mismatches).toEqual([]);
      expect(report).toMatchObject({ sentWhileShut: 0, unhandledRejections: 0 });
      // It did work, and met every fault.
      expect(report.bulkResults).toBeGreaterThan(100);
      expect(report.refreshes.ok).toBeGreaterThan(10);
      expect(report.dnsChecks).toBeGreaterThan(30);
      for (const kind of ['latency', '5xx', 'reset', 'malformed', '429'] as const)
        expect(report.faults[kind], kind).toBeGreaterThan(0);
      // Flat: what it holds at the end is what it held at the start, give or take a few MB.
      expect(report.heapEndMb - report.heapStartMb).toBeLessThan(8);
    },
    (SECONDS + 120) * 1000,
  );
});
