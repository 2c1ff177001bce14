// Release 0.2.0 (723a839) kept the assistant's work per store environment
// (`domains-production.json`) and each watched domain's re-check schedule in
// `domain-watch.json` under the environment's name ("production
// shop.example.com"). Since 0.3.0 the work belongs to a published project:
// the environment's work becomes the project "Domains saved under
// Production". Its schedules go with it: a domain waiting on DNS for 20
// hours goes on at the pace of 20 hours' wait and stops at the 48th, rather
// than starting a new 48-hour window at the upgrade.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONGEST_RECHECK_MS } from '../../../src/main/domains/recheck-schedule.ts';
import { projectIdOf } from '../../../src/shared/domain-projects.ts';
import { startInProcessApp, type InProcessApp } from '../../support/in-process-app.ts';
import { useScratch } from '../../support/scratch.ts';

const scratch = useScratch('earlier-schedules');
const { folder } = scratch;

const HOUR = 3_600_000;
const PROJECT = projectIdOf('Domains saved under Production')!;
// Nothing answers here: a check made at the upgrade would say "could not check".
const settings = {
  target: 'proxy.platform.example',
  resolver: '127.0.0.1:9',
  caDomain: 'letsencrypt.org',
};

/** The assistant's work and the watcher's schedules as 0.2.0 saved them. */
function writeEarlierDomains(dataDir: string, now: number) {
  const progress = {
    domain: 'shop.example.com',
    step: 'check-dns',
    preconditions: { paidPlan: true, dnsAccess: true, deployed: true },
    lastCheck: { status: 'pending', at: now - 60_000 },
    updatedAt: now - 20 * HOUR,
  };
  writeFileSync(
    join(dataDir, 'domains-production.json'),
    JSON.stringify({ settings, progress: { 'shop.example.com': progress } }),
  );
  const checkedAt = now - 60_000;
  const saved = {
    phase: 'dns',
    // What 0.2.0 tied the schedule to: the progress's step and save time, and the settings then.
    basis: JSON.stringify([progress.step, progress.updatedAt, undefined, settings]),
    since: now - 20 * HOUR,
    checkedAt,
    badge: 'waiting-for-dns',
    troubleshoot: false,
  };
  writeFileSync(
    join(dataDir, 'domain-watch.json'),
    JSON.stringify({ version: 1, domains: { 'production shop.example.com': saved } }),
  );
  return { since: saved.since, checkedAt };
}

async function app(dataDir: string): Promise<InProcessApp> {
  const started = await startInProcessApp({ dataDir });
  scratch.later(() => started.close());
  return started;
}

describe("0.2.0's domain schedules, saved under the environment's name", () => {
  it('go on where they were in the project the work became, not from the start', async () => {
    const dataDir = folder();
    const { since, checkedAt } = writeEarlierDomains(dataDir, Date.now());
    const { api } = await app(dataDir);

    expect(await api.domains.projects()).toMatchObject({ ok: true, value: [{ id: PROJECT }] });
    const watched = await api.domainWatch.list(PROJECT);
    expect(watched).toMatchObject({
      ok: true,
      value: [
        {
          domain: 'shop.example.com',
          phase: 'dns',
          badge: 'waiting-for-dns',
          checkedAt,
          // 20 hours in, the next check comes at the longest wait after the last, not at once.
          nextCheckAt: checkedAt + LONGEST_RECHECK_MS,
        },
      ],
    });
    const file = JSON.parse(readFileSync(join(dataDir, 'domain-watch.json'), 'utf8')) as {
      domains: Record<string, { since: number }>;
    };
    expect(file.domains[`${PROJECT} shop.example.com`]?.since).toBe(since);
    expect(file.domains['production shop.example.com']).toBeUndefined();
  });

  it('stop at the 48th hour of the wait that began before the upgrade', async () => {
    const dataDir = folder();
    const now = Date.now();
    writeEarlierDomains(dataDir, now);
    // The same work, 49 hours in.
    const watch = JSON.parse(readFileSync(join(dataDir, 'domain-watch.json'), 'utf8')) as {
      domains: Record<string, { since: number }>;
    };
    watch.domains['production shop.example.com']!.since = now - 49 * HOUR;
    writeFileSync(join(dataDir, 'domain-watch.json'), JSON.stringify(watch));
    const { api } = await app(dataDir);
    await expect
      .poll(async () => await api.domainWatch.list(PROJECT))
      .toMatchObject({ value: [{ domain: 'shop.example.com', stopped: 'gave-up' }] });
  });

  it('a wait that 0.3.0 or 0.4.0 began again for the same work goes back to when it first began', async () => {
    const dataDir = folder();
    const now = Date.now();
    const { since } = writeEarlierDomains(dataDir, now);
    // Opened by 0.4.0 first: the work became the project, whose wait began again at that start.
    const first = await app(dataDir);
    await first.close();
    const watch = JSON.parse(readFileSync(join(dataDir, 'domain-watch.json'), 'utf8')) as {
      domains: Record<string, { since: number; basis: string }>;
    };
    const mine = watch.domains[`${PROJECT} shop.example.com`]!;
    watch.domains[`${PROJECT} shop.example.com`] = { ...mine, since: now - HOUR };
    watch.domains['production shop.example.com'] = {
      ...mine,
      basis: JSON.stringify(['check-dns', now - 20 * HOUR, undefined, settings]),
      since,
    };
    writeFileSync(join(dataDir, 'domain-watch.json'), JSON.stringify(watch));
    await app(dataDir);
    const after = JSON.parse(readFileSync(join(dataDir, 'domain-watch.json'), 'utf8')) as {
      domains: Record<string, { since: number }>;
    };
    expect(after.domains[`${PROJECT} shop.example.com`]?.since).toBe(since);
    expect(Object.keys(after.domains)).toEqual([`${PROJECT} shop.example.com`]);
  });
});
