// The kill loop in the heavy tier: fewer kills than the soak's 100, to keep the
// suite's time (KILLS sets how many; scripts/soak.ts runs 100).

import { describe, expect, it } from 'vitest';
import { runKillLoop } from '../../tools/reliability/kill-loop.ts';

const KILLS = Number(process.env.KILLS ?? 30);

describe('SIGKILL at random moments during every write a desktop makes', () => {
  it(`${KILLS} kills: every file opens whole, the bulk cancel ends with one result per order as the sandbox has it`, async () => {
    const report = await runKillLoop({ kills: KILLS, seed: 20_261_122, orders: 300 });
    console.log(`kill loop: ${JSON.stringify(report)}`);
    expect(report.brokenFiles).toEqual([]);
    expect(report).toMatchObject({ lost: 0, doubled: 0, mismatched: 0 });
    // The kills did cut writes, or this proved nothing.
    expect(report.killsMidWrite).toBeGreaterThan(KILLS / 4);
    expect(report.midWrite.cache + report.midWrite.marks).toBeGreaterThan(0);
  }, 240_000);
});
