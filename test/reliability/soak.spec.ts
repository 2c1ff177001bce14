// The soak in the heavy tier: a fixed amount of every kind of work (npm run
// soak runs it for as many minutes as asked). Its assertions count what was
// done, never what was done in a given time, so a slow machine takes longer
// and proves the same. The sandbox's faults are rolled from a seed, one roll
// per request in the order they arrive; this much work sends a few hundred
// requests, past the seed's first burst of 429s.

import { describe, expect, it } from 'vitest';
import { runSoak, type SoakRounds } from '../../tools/reliability/soak.ts';

const ROUNDS: SoakRounds = { refreshes: 150, bulkJobs: 8, cancels: 60, dnsRounds: 40 };

describe('soak: refreshes, bulk and single cancels, DNS checks against a faulty sandbox', () => {
  it(`${ROUNDS.refreshes} refreshes, ${ROUNDS.bulkJobs} bulk cancels, ${ROUNDS.cancels} cancels, ${ROUNDS.dnsRounds * 3} DNS checks: every reported state as the sandbox has it, no request through a shut gate, no unhandled rejection, a flat heap`, async () => {
    const report = await runSoak({ rounds: ROUNDS, seed: 20_261_122 });
    console.log(`soak: ${JSON.stringify(report)}`);
    expect(report.mismatches).toEqual([]);
    expect(report).toMatchObject({ sentWhileShut: 0, unhandledRejections: 0 });
    // It did all its work, and met every fault.
    expect(report.refreshes.ok + report.refreshes.failed).toBe(ROUNDS.refreshes);
    expect(report.refreshes.ok).toBeGreaterThan(ROUNDS.refreshes / 2);
    expect(report.bulkJobs).toBe(ROUNDS.bulkJobs);
    expect(report.bulkResults).toBe(ROUNDS.bulkJobs * 40);
    expect(report.cancels).toBe(ROUNDS.cancels);
    expect(report.dnsChecks).toBe(ROUNDS.dnsRounds * 3);
    for (const kind of ['latency', '5xx', 'reset', 'malformed', '429'] as const)
      expect(report.faults[kind], kind).toBeGreaterThan(0);
    // Flat: what it holds at the end is what it held at the start, give or take a few MB.
    expect(report.heapEndMb - report.heapStartMb).toBeLessThan(8);
  }, 600_000);
});
