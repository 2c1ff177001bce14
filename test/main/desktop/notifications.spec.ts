// System notifications for work that ends in the background, with the real
// services: a bulk cancel run by the app's own service against the sandbox,
// and the domain watcher against the loopback DNS server on a virtual clock.
// A notification only while the window is not in front; a click shows what
// it was about.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bulkCancelNews,
  watchForBackgroundNews,
  type BackgroundNews,
} from '../../../src/main/desktop/notifications.ts';
import { DomainWatcher } from '../../../src/main/domains/domain-watcher.ts';
import { DomainWorkspaceStore } from '../../../src/main/domains/workspace-store.ts';
import { startInProcessApp, type InProcessApp } from '../../support/in-process-app.ts';
import { virtualTiming } from '../../support/virtual-timing.ts';
import { startDnsTestServer, type DnsTestServer } from '../../../tools/loopback/dns-test-server.ts';

/** A desktop whose window is in front or not, recording the notifications and what clicks showed. */
function desktop(focused: boolean) {
  const shown: { news: BackgroundNews; click: () => void }[] = [];
  const results: BackgroundNews['show'][] = [];
  const window = { focused, asked: 0 };
  return {
    window,
    shown,
    results,
    deps: {
      windowFocused: () => {
        window.asked += 1;
        return window.focused;
      },
      notifications: {
        show: (news: BackgroundNews, click: () => void) => shown.push({ news, click }),
      },
      showResult: (show: BackgroundNews['show']) => void results.push(show),
    },
  };
}

/** Waits in real time, bounded, until `reached`. */
async function until(what: string, reached: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!reached()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a bulk cancel that finishes', () => {
  let app: InProcessApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('is a notification while the window is behind others, and a click shows its orders', async () => {
    app = await startInProcessApp({ sandbox: { orders: 30 } });
    const screen = desktop(false);
    watchForBackgroundNews(
      { bulkCancel: app.services.bulkCancel, watcher: app.services.domainWatcher },
      screen.deps,
    );
    const ids = [
      ...app.sandbox.orderIds({ status: 'pending' }).slice(0, 2),
      ...app.sandbox.orderIds({ status: 'shipped' }).slice(0, 1),
    ];
    await app.api.bulkCancel.start('sandbox', ids);
    await until('the notification', () => screen.shown.length > 0);
    expect(screen.shown.map((s) => s.news)).toEqual([
      {
        title: 'Bulk cancel finished',
        body: 'Sandbox: 2 cancelled, 1 already shipped.',
        show: { screen: 'orders', environment: 'sandbox' },
      },
    ]);
    screen.shown[0]!.click();
    expect(screen.results).toEqual([{ screen: 'orders', environment: 'sandbox' }]);
  });

  it('is no notification while the window is in front (it shows the result itself)', async () => {
    app = await startInProcessApp({ sandbox: { orders: 30 } });
    const screen = desktop(true);
    watchForBackgroundNews(
      { bulkCancel: app.services.bulkCancel, watcher: app.services.domainWatcher },
      screen.deps,
    );
    await app.api.bulkCancel.start(
      'sandbox',
      app.sandbox.orderIds({ status: 'pending' }).slice(0, 2),
    );
    // The notifier decides when it hears the job finish: the last answer is in the
    // job's results a moment earlier, while its cancel log line is being written.
    await until('the notifier to decide', () => screen.window.asked > 0);
    expect(app.services.bulkCancel.snapshotNow('sandbox')?.status).toBe('finished');
    expect(screen.window.asked).toBe(1);
    expect(screen.shown).toEqual([]);
  });

  it('says every outcome it had, and "nothing to cancel" when there was none', () => {
    const counts = {
      cancelled: 1200,
      'already-shipped': 0,
      'not-found': 3,
      gone: 1,
      failed: 2,
      waiting: 0,
    };
    const snapshot = {
      environment: 'production' as const,
      jobId: 'j',
      status: 'finished' as const,
      total: 1206,
      counts,
      answersOnTheirWay: 0,
      unanswered: 0,
      startedAt: 0,
    };
    expect(bulkCancelNews(snapshot).body).toBe(
      'Production: 1,200 cancelled, 3 not found, 1 gone, 2 failed.',
    );
    expect(
      bulkCancelNews({
        ...snapshot,
        counts: { ...counts, cancelled: 0, 'not-found': 0, gone: 0, failed: 0 },
      }).body,
    ).toBe('Production: nothing to cancel.');
  });
});

describe('a watched domain that turns ready', () => {
  const ZONE = 'pets-example.invalid';
  const DOMAIN = `shop.${ZONE}`;
  const TARGET = `proxy.platform-${ZONE}`;
  let dir: string;
  let dns: DnsTestServer;
  let watcher: DomainWatcher | undefined;

  afterEach(async () => {
    await watcher?.close();
    watcher = undefined;
    await dns?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is a notification while the window is behind others, and a click shows the domains', async () => {
    dir = await mkdtemp(join(tmpdir(), 'notify-domain-'));
    const records = [{ name: TARGET, type: 'A' as const, data: '127.0.0.1' }];
    dns = await startDnsTestServer({
      records,
      zones: [
        { name: ZONE, soaTtl: 300, minimum: 60 },
        { name: `platform-${ZONE}`, soaTtl: 300, minimum: 60 },
      ],
    });
    const timing = virtualTiming({ start: Date.now() });
    const store = new DomainWorkspaceStore(dir);
    const { project } = await store.addProject('Pet Shop');
    await store.saveSettings(project.id, { target: TARGET, resolver: dns.address });
    await store.saveProgress(project.id, {
      domain: DOMAIN,
      step: 'check-dns',
      preconditions: { paidPlan: true, dnsAccess: true, deployed: true },
      updatedAt: timing.now(),
    });
    watcher = new DomainWatcher({ workspaces: store, dir, timing });
    const badges: (string | undefined)[] = [];
    watcher.onChange((view) => badges.push(view.badge));
    const screen = desktop(false);
    const neverBulk = { onChange: () => () => undefined, snapshotNow: () => undefined };
    watchForBackgroundNews({ bulkCancel: neverBulk, watcher }, screen.deps);

    await watcher.start();
    await until('a check that waits for DNS', () => badges.includes('waiting-for-dns'));
    expect(screen.shown).toEqual([]);
    records.push({ name: DOMAIN, type: 'CNAME', data: TARGET } as never);
    await until('the notification', () => screen.shown.length > 0);
    expect(screen.shown.map((s) => s.news)).toEqual([
      {
        title: `${DOMAIN} is ready`,
        body: 'Its DNS is set up as the platform expects, so it can be verified now.',
        show: { screen: 'domains', project: 'pet-shop' },
      },
    ]);
    screen.shown[0]!.click();
    expect(screen.results).toEqual([{ screen: 'domains', project: 'pet-shop' }]);
  });
});
