// Domains that check themselves: the re-check schedule (pure), and the
// watcher that runs it in main, on a virtual clock, against the loopback DNS
// server (and a loopback TLS server for the certificate): it checks at once,
// then every 30 seconds at first, slowing to every 10 minutes; it stops when
// the domain is ready or after 48 hours; after verification it checks the
// certificate by itself and, 30 minutes on without one, says the
// troubleshooting is due. Its schedule survives a restart.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkCertificate } from '../../../src/main/domains/certificate-check.ts';
import { CERTIFICATE_DUE_MS, DomainWatcher } from '../../../src/main/domains/domain-watcher.ts';
import {
  FIRST_RECHECK_MS,
  GIVE_UP_AFTER_MS,
  LONGEST_RECHECK_MS,
  nextCheckAt,
  recheckInterval,
} from '../../../src/main/domains/recheck-schedule.ts';
import { DomainsService } from '../../../src/main/domains/domains-service.ts';
import { DomainWorkspaceStore } from '../../../src/main/domains/workspace-store.ts';
import type { CertificateReport } from '../../../src/shared/domains.ts';
import type { DomainProgress } from '../../../src/shared/domain-assistant.ts';
import type { DomainWatchView } from '../../../src/shared/domain-watch.ts';
import { virtualTiming, type VirtualTiming } from '../../support/virtual-timing.ts';
import {
  startDnsTestServer,
  type DnsTestServer,
  type TestRecord,
} from '../../../tools/loopback/dns-test-server.ts';
import { makeCa, makeLeaf, startTlsTestServer, type TlsTestServer } from './tls-test-server.ts';

const ZONE = 'pets-example.invalid';
const DOMAIN = `shop.${ZONE}`;
const TARGET = `proxy.platform-${ZONE}`;
const MINUTE = 60_000;
const PROJECT = 'pet-shop';

/** Every check time from `since` until the schedule stops. */
function scheduleFrom(since: number, deadline?: number): number[] {
  const times: number[] = [];
  for (;;) {
    const at = nextCheckAt({
      since,
      ...(times.length ? { checkedAt: times.at(-1)! } : {}),
      ...(deadline !== undefined ? { deadline } : {}),
    });
    if (at === undefined) return times;
    times.push(at);
  }
}

describe('the re-check schedule', () => {
  it('checks at once, every 30 s at first, slowing to every 10 min, and stops after 48 h', () => {
    const times = scheduleFrom(0);
    expect(times.slice(0, 6)).toEqual([0, 30_000, 60_000, 90_000, 120_000, 150_000]);
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    // Never shorter than 30 s nor longer than 10 min, and never shorter than the one before.
    expect(Math.min(...gaps)).toBe(FIRST_RECHECK_MS);
    expect(Math.max(...gaps)).toBe(LONGEST_RECHECK_MS);
    gaps.slice(1).forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(gaps[i]!));
    // Ten minutes apart from 40 minutes on.
    expect(gaps[times.findIndex((at) => at >= 40 * MINUTE)]).toBe(LONGEST_RECHECK_MS);
    expect(times.at(-1)).toBeLessThanOrEqual(GIVE_UP_AFTER_MS);
    expect(times.at(-1)! + LONGEST_RECHECK_MS).toBeGreaterThan(GIVE_UP_AFTER_MS);
    expect(times.length).toBeLessThan(330);
  });

  it('wakes at a deadline between two checks, and starts again from a later beginning', () => {
    const times = scheduleFrom(0, 30 * MINUTE);
    expect(times).toContain(30 * MINUTE);
    expect(nextCheckAt({ since: 5000, checkedAt: 1000 })).toBe(5000);
  });
});

describe('DomainWatcher on a virtual clock against the loopback DNS server', () => {
  let dir: string;
  let dns: DnsTestServer;
  let records: TestRecord[];
  let timing: VirtualTiming;
  let watcher: DomainWatcher | undefined;
  let views: DomainWatchView[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'recheck-'));
    // Mutable: the test creates the CNAME while the watcher waits.
    records = [{ name: TARGET, type: 'A', data: '127.0.0.1' }];
    dns = await startDnsTestServer({
      records,
      zones: [
        { name: ZONE, soaTtl: 300, minimum: 60 },
        { name: `platform-${ZONE}`, soaTtl: 300, minimum: 60 },
      ],
    });
    timing = virtualTiming({ start: Date.now() });
    views = [];
  });
  afterEach(async () => {
    await watcher?.close();
    watcher = undefined;
    await dns.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function workspaceWith(progress: Partial<DomainProgress>) {
    const store = new DomainWorkspaceStore(dir);
    await store.addProject('Pet Shop');
    await store.saveSettings(PROJECT, { target: TARGET, resolver: dns.address });
    await store.saveProgress(PROJECT, {
      domain: DOMAIN,
      step: 'check-dns',
      preconditions: { paidPlan: true, dnsAccess: true, deployed: true },
      updatedAt: timing.now(),
      ...progress,
    });
    return store;
  }

  function watch(
    store: DomainWorkspaceStore,
    extra: Partial<ConstructorParameters<typeof DomainWatcher>[0]> = {},
  ) {
    watcher = new DomainWatcher({ workspaces: store, dir, timing, ...extra });
    watcher.onChange((view) => views.push(view));
    return watcher;
  }

  /** Waits (in real time, bounded) until the watcher has reached a state. */
  async function until(what: string, reached: () => boolean): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!reached()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  const checks = () => [...new Set(views.flatMap((v) => (v.checkedAt ? [v.checkedAt] : [])))];

  it('re-checks a domain waiting on DNS every 30 s at first, and stops when it turns ready', async () => {
    const store = await workspaceWith({});
    const started = timing.now();
    const watcher = watch(store);
    await watcher.start();
    await until('three checks', () => checks().length >= 3);
    expect(views.find((v) => v.checkedAt)?.badge).toBe('waiting-for-dns');
    // The platform's record appears: the next check finds it.
    records.push({ name: DOMAIN, type: 'CNAME', data: TARGET });
    await until('ready', () => views.at(-1)?.stopped === 'ready');
    const times = checks().map((at) => at - started);
    expect(times.slice(0, 3)).toEqual([0, 30_000, 60_000]);
    expect(times).toEqual(scheduleFrom(0).slice(0, times.length));
    expect(views.at(-1)).toMatchObject({ badge: 'ready', stopped: 'ready', domain: DOMAIN });
    expect(views.at(-1)?.nextCheckAt).toBeUndefined();
    expect(watcher.list(PROJECT)).toEqual([views.at(-1)]);
    // It asked the loopback server each time, and asks no more.
    const asked = dns.asked.length;
    expect(dns.asked).toContainEqual({ name: DOMAIN, type: 'CNAME' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(dns.asked.length).toBe(asked);
  });

  it('after the machine slept, reschedule checks at once a domain whose time came while it slept', async () => {
    // A sleeping machine: the wall clock moves on, the timer for the next check does not fire.
    const asleep: VirtualTiming = {
      ...timing,
      sleep: (ms, signal) => {
        timing.sleeps.push(ms);
        return new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      },
    };
    const store = await workspaceWith({});
    const started = timing.now();
    const watcher = watch(store, { timing: asleep });
    await watcher.start();
    await until(
      'the first check, then a wait of 30 s',
      () => checks().length === 1 && timing.sleeps.length === 1,
    );
    expect(timing.sleeps).toEqual([30_000]);
    // An hour's sleep: the 30 s check is 59.5 minutes late, and the timer still waits.
    timing.advance(60 * MINUTE);
    watcher.reschedule();
    await until('a second check', () => checks().length === 2);
    expect(checks().map((at) => at - started)).toEqual([0, 60 * MINUTE]);
    // Then on the schedule from that check (an hour in, every 10 minutes).
    await until('the next wait', () => timing.sleeps.length === 2);
    expect(timing.sleeps).toEqual([30_000, 10 * MINUTE]);
    // Rescheduled before its time, a wait goes on for what is left of it, with no check.
    timing.advance(MINUTE);
    watcher.reschedule();
    await until('a wait for the rest', () => timing.sleeps.length === 3);
    expect(timing.sleeps.at(-1)).toBe(9 * MINUTE);
    expect(checks()).toHaveLength(2);
  });

  it('gives up after 48 hours of waiting, having checked on the schedule', async () => {
    const store = await workspaceWith({});
    const started = timing.now();
    const watcher = watch(store);
    await watcher.start();
    await until('it gives up', () => views.at(-1)?.stopped === 'gave-up');
    expect(checks().map((at) => at - started)).toEqual(scheduleFrom(0));
    expect(views.at(-1)).toMatchObject({ badge: 'waiting-for-dns', stopped: 'gave-up' });
  });

  it('goes on where it was after a restart, and starts afresh when the domain’s progress changes', async () => {
    const store = await workspaceWith({});
    const started = timing.now();
    const first = watch(store);
    await first.start();
    await until('two checks', () => checks().length >= 2);
    await first.close();
    const lastBefore = checks().at(-1)!;
    timing.advance(5 * MINUTE);
    views = [];
    const second = watch(new DomainWorkspaceStore(dir));
    await second.start();
    await until(
      'two checks after the restart',
      () => checks().filter((at) => at > lastBefore).length >= 2,
    );
    // It knows its last check, and goes on with the same schedule: the wait after a check
    // grows with the time waited since the first one, which a fresh schedule would not.
    expect(views[0]?.checkedAt).toBe(lastBefore);
    const [next, after] = checks().filter((at) => at > lastBefore) as [number, number];
    expect(after - next).toBe(recheckInterval(next - started));
    expect(after - next).toBeGreaterThan(FIRST_RECHECK_MS);
    await second.close();

    // The clerk moves the domain on a step (while the app was closed, or open: the store
    // tells the watcher): its schedule starts afresh, at once and then every 30 s.
    views = [];
    const store3 = new DomainWorkspaceStore(dir);
    const movedAt = timing.now();
    const progress = (await store3.get(PROJECT)).progress[DOMAIN]!;
    await store3.saveProgress(PROJECT, {
      ...progress,
      step: 'configure-dns',
      updatedAt: movedAt,
    });
    const third = watch(store3);
    await third.start();
    await until(
      'two checks of the new schedule',
      () => checks().filter((at) => at >= movedAt).length >= 2,
    );
    const [moved, then] = checks().filter((at) => at >= movedAt) as [number, number];
    expect([moved - movedAt, then - moved]).toEqual([0, FIRST_RECHECK_MS]);
  });

  it('after verification checks the certificate by itself; 30 minutes on without one, troubleshooting is due', async () => {
    records.push({ name: DOMAIN, type: 'CNAME', data: TARGET });
    const ca = await makeCa();
    const leaf = await makeLeaf({ names: [DOMAIN], ca });
    // The platform has not issued it yet: the handshake for the name fails.
    const refuse = [DOMAIN];
    const tls: TlsTestServer = await startTlsTestServer({
      fallback: leaf,
      bySni: { [DOMAIN]: leaf },
      refuse,
    });
    try {
      const verifiedAt = timing.now();
      const store = await workspaceWith({ step: 'certificate', verifiedAt });
      const watcher = watch(store, {
        // The real check, at the loopback TLS server's port, trusting the test CA.
        checkCertificate: ({ domain }) =>
          checkCertificate({
            domain,
            host: '127.0.0.1',
            port: tls.port,
            ca: ca.cert,
            now: timing.now,
          }),
      });
      await watcher.start();
      await until('troubleshooting is due', () => views.some((v) => v.troubleshoot));
      const due = views.find((v) => v.troubleshoot)!;
      expect(due).toMatchObject({ phase: 'certificate', badge: 'certificate-missing' });
      expect(due.checkedAt! - verifiedAt).toBe(CERTIFICATE_DUE_MS);
      expect(
        views
          .filter((v) => v.checkedAt && v.checkedAt < verifiedAt + CERTIFICATE_DUE_MS)
          .every((v) => !v.troubleshoot),
      ).toBe(true);
      // The certificate is issued: the next check finds it, and the checks stop.
      refuse.splice(0);
      await until('ready', () => views.at(-1)?.stopped === 'ready');
      expect(views.at(-1)).toMatchObject({ badge: 'ready', troubleshoot: false });
      expect(tls.servernames).toContain(DOMAIN);
    } finally {
      await tls.close();
    }
  });

  it('takes a check the clerk runs by hand as the latest word: one verdict, badge and check alike', async () => {
    records.push({ name: DOMAIN, type: 'CNAME', data: TARGET });
    const verifiedAt = timing.now();
    const store = await workspaceWith({ step: 'certificate', verifiedAt });
    const report = (domain: string, status: CertificateReport['status']) =>
      ({
        domain,
        host: '127.0.0.1',
        port: 443,
        status,
        findings: [],
        checkedAt: new Date(timing.now()).toISOString(),
      }) as CertificateReport;
    // Main's own checks find none; the clerk's, a little later, finds one with a problem.
    const watcher = watch(store, {
      checkCertificate: async ({ domain }) => report(domain, 'missing'),
    });
    const service = new DomainsService(store, watcher, {
      checkCertificate: async ({ domain }) => report(domain, 'invalid'),
    });
    await watcher.start();
    await until('the first check', () => views.some((v) => v.checkedAt !== undefined));
    expect(views.at(-1)?.badge).toBe('certificate-missing');

    timing.advance(5_000);
    const byHandAt = timing.now();
    const byHand = await service.certificate(PROJECT, DOMAIN.toUpperCase());
    expect(byHand.status).toBe('invalid');
    // The badge says what the clerk's check said, as of that check.
    await until('the badge follows', () => views.some((v) => v.badge === 'certificate-problem'));
    expect(views.find((v) => v.badge === 'certificate-problem')?.checkedAt).toBe(byHandAt);
  });

  it('starts checking again when a check by hand finds a ready domain is not ready any more', async () => {
    records.push({ name: DOMAIN, type: 'CNAME', data: TARGET });
    const store = await workspaceWith({});
    const watcher = watch(store);
    const service = new DomainsService(store, watcher);
    await watcher.start();
    await until('ready', () => views.at(-1)?.stopped === 'ready');
    // The record goes (someone changed the DNS): the clerk's check says so, and the schedule starts again.
    records.splice(
      records.findIndex((record) => record.name === DOMAIN),
      1,
    );
    const report = await service.check(PROJECT, { domain: DOMAIN, target: TARGET });
    expect(report.status).not.toBe('ready');
    await until('the checks go on', () => views.at(-1)?.nextCheckAt !== undefined);
    expect(views.at(-1)).toMatchObject({ badge: 'waiting-for-dns' });
    expect(views.at(-1)?.stopped).toBeUndefined();
  });
});
