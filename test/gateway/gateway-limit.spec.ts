// Behind nginx's limit_req (2 requests a second, its 429 an HTML page with no
// rate-limit headers), store-admin tells the gateway's limit from the
// service's quota: it says a gateway is limiting, holds for seconds, never
// until the service's window resets, and a bulk cancel finishes at about the
// gateway's pace, its workers never firing together after a hold. Counted in
// nginx's access log. Found from outside: 6 of 12 done in 4 minutes, and one
// 429 holding the CLI until midnight UTC while the service said 295 of 300
// were left.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { EXIT } from '../../src/cli/run.ts';
import { cli, figuresOf, describeBehindNginx, limitedGateway } from './gateway-support.ts';

describeBehindNginx('store-admin behind a gateway’s limit_req', () => {
  it('a bulk cancel of 12 finishes at about the gateway’s pace, holding seconds, never the window', async () => {
    const stack = await limitedGateway('2r/s');
    const ids = stack.sandbox.orderIds({ status: 'pending' }).slice(0, 12);
    const file = join(stack.dataDir, 'ids.txt');
    writeFileSync(file, `${ids.join('\n')}\n`);

    const run = await cli(stack, ['orders', 'cancel', '--from', file, '--json']);
    const out = JSON.parse(run.stdout) as { ok: boolean; results: { outcome: string }[] };
    expect(run.code).toBe(EXIT.ok);
    expect(out.results.map((r) => r.outcome)).toEqual(ids.map(() => 'cancelled'));
    expect(ids.every((id) => stack.sandbox.orderStatus(id) === 'cancelled')).toBe(true);

    const log = await stack.nginx.accessLog();
    const figures = figuresOf(log);
    console.log(`gateway-429 run (CLI, 12 DELETEs, limit_req 2r/s): ${JSON.stringify(figures)}`);
    // Every DELETE reached the service once; the rest were the gateway's 429s, which did nothing.
    expect(log.filter((entry) => entry.status === 204)).toHaveLength(12);
    expect(figures.gateway429s).toBe(figures.requests - 12);
    // The gateway's holds are seconds (GATEWAY_BACKOFF_CAP_MS at most), never the service's window.
    expect(figures.longestGapMs).toBeLessThan(31_000);
    // Fewer 429s than DELETEs: the pace is found, not met with a 429 for every other request.
    expect(figures.gateway429s).toBeLessThan(12);
    // No two requests together after a hold: a 429 is never followed at once by another.
    const arrivals = log.map((e) => ({ at: e.at - e.ms, status: e.status }));
    arrivals.sort((a, b) => a.at - b.at);
    for (let i = 1; i < arrivals.length; i++)
      if (arrivals[i - 1]!.status === 429)
        expect(arrivals[i]!.at - arrivals[i - 1]!.at).toBeGreaterThan(250);
  });

  it('one run says a gateway is limiting (exit 8, with --try-now), the quota stays the service’s, and --try-now sends one request', async () => {
    const stack = await limitedGateway('1r/m');
    // The first request of the minute passes: the service reports its quota.
    const quota = await cli(stack, ['quota', '--json']);
    expect(quota.code).toBe(EXIT.ok);
    const before = JSON.parse(quota.stdout) as { quota: { remaining: number; limit: number } };

    const [id] = stack.sandbox.orderIds({ status: 'pending' });
    const held = await cli(stack, ['orders', 'cancel', id!]);
    expect(held.code).toBe(EXIT.held);
    expect(held.stderr).toMatch(
      /^Rate-limited until \d\d:\d\d:\d\d( tomorrow)?\. A gateway between this computer and the store service is limiting requests: the address 127\.0\.0\.1:\d+ \(or something between it and this computer\) answered 429 Too Many Requests, and the service’s own quota is not used up\./,
    );
    expect(held.stderr).not.toContain('quota for this period is used up');
    expect(held.stderr).toContain('run the same command with --try-now');
    expect(stack.sandbox.orderStatus(id!)).toBe('pending');
    // The hold the message names is seconds away, not the window's reset.
    const until = /until (\d\d):(\d\d):(\d\d)/.exec(held.stderr)!;
    const untilMs = new Date().setHours(Number(until[1]), Number(until[2]), Number(until[3]), 0);
    expect(Math.abs(untilMs - Date.now())).toBeLessThan(60_000);

    const tried = await cli(stack, ['quota', '--try-now']);
    // Still limited by the gateway: its one request met another 429, and said so.
    expect(tried.code).toBe(EXIT.held);
    const log = await stack.nginx.accessLog();
    // quota (1), the cancel and its one retry at the gate (2), --try-now (1).
    expect(log.map((entry) => `${entry.method} ${entry.status}`)).toEqual([
      'GET 200',
      'DELETE 429',
      'DELETE 429',
      'GET 429',
    ]);
    expect(tried.stderr).toContain('limiting requests');
    expect(before.quota.remaining).toBeGreaterThan(before.quota.limit - 5);
  });
});
