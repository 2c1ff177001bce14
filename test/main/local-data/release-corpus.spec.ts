// Every earlier release's data folder (test/fixtures/releases/<version>/,
// made by scripts/release-fixtures.ts with that release's own code), opened
// by the current code: each item the clerk had is there. A copy of each
// folder is opened, never the corpus itself, on a clock set just after the
// folder was made, so a hold saved then is still on.
//
// The production address of the corpus is one nothing listens on here: its
// key is entered last, so the bulk cancel found running pauses for the key
// and sends nothing (resuming it against the sandbox is the heavy test,
// test/reliability/release-corpus-resume.spec.ts).

import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cliDataDir } from '../../../src/cli/data-folder.ts';
import { BulkJournal, replay } from '../../../src/main/bulk-cancel/journal.ts';
import { nextCheckAt } from '../../../src/main/domains/recheck-schedule.ts';
import { projectOfEnvironment } from '../../../src/main/domains/workspace-store.ts';
import { parseSettings } from '../../../src/main/environments/settings.ts';
import { DATA_FOLDER_NAME } from '../../../src/main/desktop/app-identity.ts';
import { earlierCliListsFolder } from '../../../src/main/local-data/earlier-cli-lists.ts';
import { projectIdOf } from '../../../src/shared/domain-projects.ts';
import { runCliProcess } from '../../support/cli-process.ts';
import { startInProcessApp, type InProcessApp } from '../../support/in-process-app.ts';

const CORPUS = join(import.meta.dirname, '..', '..', 'fixtures', 'releases');

interface JournalFacts {
  readonly file: string;
  readonly orderIds: string[];
  readonly answered: string[];
  readonly sentWithoutAnswer: string[];
}

/** What scripts/release-fixtures.ts wrote of each folder (manifest.json). */
interface Manifest {
  readonly version: string;
  readonly commit: string;
  readonly createdAt: number;
  readonly userDataName: string;
  readonly keys: { readonly production: string; readonly staging: string };
  readonly projectName?: string;
  readonly app: {
    readonly settings: { baseUrls: { production: string; staging: string } };
    readonly lists: {
      readonly second: { count: number; ids: string[] };
      readonly third: { count: number; ids: string[] };
      readonly sandbox: { count: number };
    };
    readonly cancels: { orderId: string; kind: string }[];
    readonly marks: Record<string, { reviewed: boolean; note: string }>;
    readonly domain: {
      where: string;
      settings: Record<string, string>;
      progress: { domain: string; step: string; updatedAt: number };
      watched: boolean;
    };
    readonly quota: {
      production: { limit: number };
      staging: { holdUntil: number; holdReason: string; observedAt: number };
    };
  };
  readonly bulk: { readonly journal: JournalFacts };
  readonly cli?: {
    readonly cancelledElsewhere: string[];
    readonly cancelled: string;
    readonly journal: JournalFacts;
  };
}

const releases = readdirSync(CORPUS)
  .filter((name) => existsSync(join(CORPUS, name, 'manifest.json')))
  .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function copyOf(version: string): { dir: string; manifest: Manifest } {
  const dir = mkdtempSync(join(tmpdir(), `store-admin-corpus-${version}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(CORPUS, version), dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  return { dir, manifest };
}

/** The app on a userData folder, as Electron's main would start it there (settings from its settings.json). */
async function open(userData: string): Promise<InProcessApp> {
  const stored = JSON.parse(readFileSync(join(userData, 'settings.json'), 'utf8')) as {
    settings?: unknown;
  };
  const app = await startInProcessApp({
    dataDir: join(userData, 'local-data'),
    settings: parseSettings(stored.settings),
  });
  cleanups.push(() => app.close());
  return app;
}

const value = <T>(result: { ok: boolean; value?: T }): T => {
  expect(result.ok).toBe(true);
  return result.value as T;
};

it('holds a folder of every earlier release', () => {
  expect(releases).toEqual(expect.arrayContaining(['0.1.0', '0.2.0', '0.3.0', '0.4.0']));
});

describe.each(releases)('a data folder of %s, opened by this version', (version) => {
  it('has every item the clerk had there', async () => {
    const { dir, manifest } = copyOf(version);
    const { app, bulk } = manifest;
    // Just after the folder was made: the staging key's ban, saved then, is still on.
    vi.useFakeTimers({
      toFake: ['Date'],
      shouldAdvanceTime: true,
      now: app.quota.staging.observedAt + 1_000,
    });
    const schedulesBefore = readSchedules(dir);
    const { api, services } = await open(join(dir, 'app'));

    // Settings.
    const state = value(await api.app.getState());
    expect(state.activeEnvironment).toBe('production');
    expect(services.service.baseUrlOf('production')).toBe(app.settings.baseUrls.production);
    expect(services.service.baseUrlOf('staging')).toBe(app.settings.baseUrls.staging);

    // The last list, and the sandbox's.
    const cached = value(await api.orders.cached('production'));
    expect(cached).toMatchObject({ found: true, list: { count: app.lists.third.count } });
    expect(value(await api.orders.cached('sandbox'))).toMatchObject({
      found: true,
      list: { count: app.lists.sandbox.count },
    });

    // The previous list (kept since 0.2.0): the order cancelled here is gone, "Cancelled here".
    const changes = value(await api.changes.get('production'));
    const [cancelledHere] = app.cancels;
    if (version === '0.1.0') {
      expect(changes).toMatchObject({ kind: 'nothing-to-compare', reason: 'first-list' });
    } else {
      expect(changes.kind).toBe('compared');
      const gone = changes.kind === 'compared' ? changes.gone : [];
      expect(gone.map((g) => [g.order.id, g.how])).toEqual([
        [cancelledHere!.orderId, 'cancelled-here'],
      ]);
    }

    // The cancel log: the single cancels, and the bulk cancel's answers.
    const log = value(await api.cancelLog.list('production'));
    for (const cancel of app.cancels)
      expect(log.map((entry) => entry.orderId)).toContain(cancel.orderId);
    expect(log.find((entry) => entry.orderId === cancelledHere!.orderId)?.result).toBe('cancelled');
    for (const id of bulk.journal.answered) expect(log.map((entry) => entry.orderId)).toContain(id);

    // Marks and notes.
    const marks = value(await api.reviewMarks.list('production'));
    for (const [orderId, mark] of Object.entries(app.marks))
      expect(marks[orderId]).toMatchObject(mark);

    // The bulk cancel killed midway: its job, every answer it had, and the DELETEs it had on their way.
    // Without the key it sends nothing: it pauses, asking for it.
    await expect
      .poll(async () => value(await api.bulkCancel.status('production')))
      .toMatchObject({ total: bulk.journal.orderIds.length, status: 'paused' });
    const results = value(await api.bulkCancel.results('production'));
    expect(results.map((result) => result.orderId).sort()).toEqual(
      [...bulk.journal.answered].sort(),
    );

    // The domain in progress, and (where the release watched domains) its schedule.
    const project =
      app.domain.where === 'production'
        ? projectOfEnvironment('production').id
        : projectIdOf(manifest.projectName!)!;
    expect(value(await api.domains.projects()).map((p) => p.id)).toContain(project);
    const workspace = value(await api.domains.workspace(project));
    expect(workspace.settings).toMatchObject(app.domain.settings);
    expect(workspace.progress[app.domain.progress.domain]).toMatchObject({
      step: app.domain.progress.step,
      updatedAt: app.domain.progress.updatedAt,
    });
    if (app.domain.watched) {
      const saved = Object.entries(schedulesBefore).find(([key]) =>
        key.endsWith(` ${app.domain.progress.domain}`),
      )![1];
      const watched = value(await api.domainWatch.list(project));
      expect(watched).toMatchObject([
        {
          domain: app.domain.progress.domain,
          checkedAt: saved.checkedAt,
          nextCheckAt: nextCheckAt({ since: saved.since, checkedAt: saved.checkedAt }),
        },
      ]);
    }

    // The quota: the staging key still banned, production's figures known.
    await api.keys.set('staging', manifest.keys.staging);
    expect(value(await api.quota.get('staging'))).toMatchObject({
      holdReason: app.quota.staging.holdReason,
      holdUntil: app.quota.staging.holdUntil,
    });
    await api.keys.set('production', manifest.keys.production);
    expect(value(await api.quota.get('production'))).toMatchObject({
      known: true,
      limit: app.quota.production.limit,
    });
  });

  it("has the command line's folders (lists, cancels, a bulk cancel killed midway)", async () => {
    const { dir, manifest } = copyOf(version);
    const { cli } = manifest;
    if (!cli) {
      // 0.1.0's command line kept nothing.
      expect(version).toBe('0.1.0');
      return;
    }
    // Where a clerk's computer has them on this system: the app's folder, and the command line's own
    // cache folder (every variable that places them points into the test's home).
    const home = join(dir, 'home');
    const env = {
      HOME: home,
      USERPROFILE: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      APPDATA: join(home, 'AppData', 'Roaming'),
      LOCALAPPDATA: join(home, 'AppData', 'Local'),
      STORE_ADMIN_API_KEY: manifest.keys.production,
      STORE_ADMIN_DATA_DIR: undefined,
      STORE_ADMIN_CACHE_DIR: undefined,
    };
    const dataDir = cliDataDir(env, process.platform, home);
    const userData = dirname(dataDir);
    expect(basename(userData)).toBe(DATA_FOLDER_NAME);
    const cliCache = earlierCliListsFolder(env, process.platform, home)!;
    cpSync(join(dir, 'app'), userData, { recursive: true });
    cpSync(join(dir, 'cli-cache'), cliCache, { recursive: true });
    // Its lists and cancel log join the app's at the first run (test/cli/one-history.spec.ts).
    const run = await runCliProcess(
      ['orders', 'changes', '--base-url', manifest.app.settings.baseUrls.production, '--json'],
      env,
    );
    expect(run.code).toBe(0);
    const changes = JSON.parse(run.stdout) as { gone: { id: string; how: string }[] };
    const gone = Object.fromEntries(changes.gone.map((g) => [g.id, g.how]));
    expect(gone[cli.cancelled]).toBe('cancelled-here');
    for (const id of cli.cancelledElsewhere) expect(gone[id]).toBe('left');

    const name = cli.journal.file.split('/').pop()!; // the manifest's own path, always with /
    const journal = new BulkJournal(dataDir, {
      environment: 'production',
      key: name.slice('bulk-cancel-'.length, -'.jsonl'.length),
    });
    const job = replay(await journal.read());
    expect(job?.orderIds).toEqual(cli.journal.orderIds);
    expect(job?.results.map((r) => r.orderId).sort()).toEqual([...cli.journal.answered].sort());
    expect(
      [...job!.items]
        .filter(([, state]) => state === 'sent')
        .map(([id]) => id)
        .sort(),
    ).toEqual([...cli.journal.sentWithoutAnswer].sort());

    // The app, on the same folder, knows the command line's cancels.
    const app = await open(userData);
    const log = value(await app.api.cancelLog.list('production'));
    expect(log.map((entry) => entry.orderId)).toContain(cli.cancelled);
  });
});

function readSchedules(dir: string): Record<string, { since: number; checkedAt: number }> {
  const file = join(dir, 'app', 'local-data', 'domain-watch.json');
  if (!existsSync(file)) return {};
  return (
    JSON.parse(readFileSync(file, 'utf8')) as {
      domains: Record<string, { since: number; checkedAt: number }>;
    }
  ).domains;
}
