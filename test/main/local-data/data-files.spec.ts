// The one list of the data files (src/main/local-data/data-files.ts): every
// file the app leaves in its data folder is on it and carries the version
// the list gives; a file of a later version (a newer release's, after a
// downgrade) is left byte for byte as it was, what changes is kept for the
// session, and the clerk is told once.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scopedFileName, serviceScope } from '../../../src/main/environments/service-scope.ts';
import {
  DATA_FILES,
  dataFileOf,
  newerVersionOf,
  versionInText,
  type DataFile,
} from '../../../src/main/local-data/data-files.ts';
import { type Sandbox } from '../../../src/main/sandbox/server.ts';
import { projectIdOf } from '../../../src/shared/domain-projects.ts';
import { type InProcessApp } from '../../support/in-process-app.ts';
import { useScratch } from '../../support/scratch.ts';

const scratch = useScratch('data-files');
const { folder } = scratch;
const sandbox = (): Promise<Sandbox> => scratch.sandbox({ orders: 50 });
const app = (dataDir: string, baseUrl: string): Promise<InProcessApp> =>
  scratch.productionApp(dataDir, baseUrl);

/** Every file under a folder, by its path in it. */
function filesIn(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesIn(join(dir, entry.name), base)
      : [join(dir, entry.name).slice(base.length + 1)],
  );
}

const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('the list of data files', () => {
  it('names every file a session leaves in the data folder, each with the version it gives', async () => {
    const store = await sandbox();
    const dataDir = folder();
    const { api, readList, close } = await app(dataDir, store.baseUrl);
    await readList('orders:list', 'production');
    await readList('orders:list', 'production');
    const [first, second, third] = store.orderIds({ status: 'pending' });
    await api.orders.cancel('production', first!);
    await api.reviewMarks.set('production', second!, { reviewed: true, note: 'seen' });
    await api.bulkCancel.start('production', [third!]);
    await expect
      .poll(async () => await api.bulkCancel.status('production'))
      .toMatchObject({ value: { status: 'finished' } });
    const added = await api.domains.addProject('Pet Shop');
    const project = added.ok ? added.value.project.id : '';
    await api.domains.saveSettings(project, { target: 'proxy.platform.example' });
    await api.updates.setAddress('https://updates.example.com/store-admin/');
    await close();

    const files = filesIn(dataDir).filter((path) => !path.endsWith('.lock'));
    const unlisted = files.filter((path) => dataFileOf(path) === undefined);
    expect(unlisted).toEqual([]);
    for (const path of files) {
      const format = dataFileOf(path)!;
      const text = readFileSync(join(dataDir, path), 'utf8');
      if (format.versionIn === 'field')
        expect((JSON.parse(text) as { version?: number }).version, path).toBe(format.version);
      if (format.versionIn === 'lines')
        for (const line of text.split('\n').filter(Boolean))
          expect((JSON.parse(line) as { v?: number }).v, path).toBe(format.version);
      if (format.versionIn !== 'none')
        expect(versionInText(text, format.versionIn), path).toBe(format.version);
    }
    // The kinds of file one session makes, at the least.
    const kinds = new Set(files.map((path) => dataFileOf(path)));
    for (const format of [
      DATA_FILES.orderCache,
      DATA_FILES.cancelLog,
      DATA_FILES.reviewMarks,
      DATA_FILES.bulkJournal,
      DATA_FILES.gateRecord,
      DATA_FILES.domainProjects,
      DATA_FILES.domainWorkspace,
      DATA_FILES.updateSettings,
    ] satisfies DataFile[])
      expect(kinds.has(format), format.name).toBe(true);
  });
});

describe('the version of a log', () => {
  it("is read from a long journal's first line and its newest lines, not from all of it", () => {
    const dir = folder();
    const journal = join(dir, 'bulk-cancel-sandbox.jsonl');
    // A job of 200,000 orders: its first line alone is megabytes.
    const ids = Array.from({ length: 200_000 }, (_, i) => String(10_000_000 + i));
    const job = JSON.stringify({ v: 1, t: 'job', jobId: 'a', at: 1, orderIds: ids });
    const sends = ids
      .slice(0, 2_000)
      .map((id) => JSON.stringify({ v: 1, t: 'send', orderId: id, at: 2 }));
    writeFileSync(journal, `${[job, ...sends].join('\n')}\n`);
    expect(newerVersionOf(journal)).toBeUndefined();
    writeFileSync(journal, `${JSON.stringify({ v: 3, t: 'dismiss', at: 3 })}\n`, { flag: 'a' });
    expect(newerVersionOf(journal)).toBe(3);
    // A journal a newer version began: its first line says so.
    writeFileSync(journal, `${job.replace('{"v":1', '{"v":2')}\n${sends.join('\n')}\n`);
    expect(newerVersionOf(journal)).toBe(2);
  });
});

describe('a data file of a later version', () => {
  it('is left as it was, what changes is kept for the session, and the clerk is told once', async () => {
    const store = await sandbox();
    const dataDir = folder();
    mkdirSync(dataDir, { recursive: true });
    const scope = serviceScope('production', store.baseUrl);
    const [kept, marked, cancelled] = store.orderIds({ status: 'pending' });
    // A newer release's marks, a log with one of its lines, and its journal.
    const marks = join(dataDir, scopedFileName('review-marks', scope));
    writeFileSync(
      marks,
      JSON.stringify({
        version: 9,
        marks: { [kept!]: { reviewed: true, note: 'n', updatedAt: 1 } },
      }),
    );
    const log = join(dataDir, scopedFileName('cancel-log', scope));
    const earlier = {
      at: 1,
      environment: 'production',
      orderId: kept,
      result: 'cancelled',
      message: 'Order was cancelled.',
    };
    writeFileSync(
      log,
      `${JSON.stringify(earlier)}\n${JSON.stringify({ v: 9, at: 2, environment: 'production', orderId: '77', outcome: { kind: 'cancelled' } })}\n`,
    );
    const journal = join(dataDir, scopedFileName('bulk-cancel', scope));
    writeFileSync(
      journal,
      `${JSON.stringify({ v: 9, t: 'job', jobId: 'x', at: 1, orderIds: [kept], batches: 3 })}\n`,
    );
    const before = [marks, log, journal].map(hashOf);

    const { api, services } = await app(dataDir, store.baseUrl);
    // Told once, in plain words, whatever else happens.
    const problem = services.storage.problem();
    expect(problem).toMatchObject({
      code: 'ENEWER',
      detail: expect.stringMatching(
        /^Left as it is: [a-z0-9-]+\.jsonl? \(format 9; this version reads up to 1\)\.$/,
      ),
    });
    expect(problem?.message).toContain('newer version of Store Admin');

    // What this version could read of the log is there; the newer line is not taken for one of its own.
    const entries = await api.cancelLog.list('production');
    expect(entries.ok && entries.value.map((entry) => entry.orderId)).toEqual([kept]);
    // A job this version cannot read whole is never carried on.
    expect(await api.bulkCancel.status('production')).toMatchObject({ ok: true, value: null });

    // Work goes on, kept for the session.
    await api.reviewMarks.set('production', marked!, { reviewed: true, note: 'today' });
    expect(await api.reviewMarks.list('production')).toMatchObject({
      value: { [marked!]: { reviewed: true, note: 'today' } },
    });
    expect(await api.orders.cancel('production', cancelled!)).toMatchObject({ ok: true });
    const after = await api.cancelLog.list('production');
    expect(after.ok && after.value.map((entry) => entry.orderId)).toEqual([kept, cancelled]);

    // Byte for byte as the newer version left them.
    expect([marks, log, journal].map(hashOf)).toEqual(before);
    expect(existsSync(`${journal}.lock`)).toBe(false);
  });

  it("a newer version's list is shown after a refresh, and not replaced", async () => {
    const store = await sandbox();
    const dataDir = folder();
    const first = await app(dataDir, store.baseUrl);
    await first.readList('orders:list', 'production');
    await first.close();
    const cache = join(
      dataDir,
      scopedFileName('orders', serviceScope('production', store.baseUrl)),
    );
    // The same file as a later version would mark it: its header says version 3.
    const bytes = readFileSync(cache);
    const header = bytes.subarray(0, 1024).toString('utf8').replace('"version":2', '"version":3');
    writeFileSync(cache, Buffer.concat([Buffer.from(header), bytes.subarray(1024)]));
    const before = hashOf(cache);

    const again = await app(dataDir, store.baseUrl);
    expect(again.services.storage.problem()).toMatchObject({ code: 'ENEWER' });
    const { result, orders } = await again.readList('orders:list', 'production');
    expect(result.ok).toBe(true);
    expect(orders).toHaveLength(50);
    expect(hashOf(cache)).toBe(before);
  });

  it('a newer gate record still holds its hold, and is not written', async () => {
    const store = await sandbox();
    const dataDir = folder();
    const first = await app(dataDir, store.baseUrl);
    await first.api.quota.get('production');
    await first.readList('orders:list', 'production');
    await first.close();
    const quota = join(dataDir, 'quota');
    const name = readdirSync(quota).find((found) => /^[0-9a-f]{32}\.json$/.test(found))!;
    const record = JSON.parse(readFileSync(join(quota, name), 'utf8')) as {
      snapshot: Record<string, unknown>;
    };
    const holdUntil = Date.now() + 10 * 60_000;
    writeFileSync(
      join(quota, name),
      JSON.stringify({
        ...record,
        version: 2,
        snapshot: { ...record.snapshot, holdUntil, holdReason: 'banned' },
      }),
    );
    const before = hashOf(join(quota, name));
    store.clearRequestLog();

    const { api } = await app(dataDir, store.baseUrl);
    expect(await api.quota.get('production')).toMatchObject({
      value: { holdReason: 'banned', holdUntil },
    });
    expect(await api.orders.list('production')).toMatchObject({
      ok: false,
      error: { kind: 'banned' },
    });
    expect(store.requestLog).toHaveLength(0);
    expect(hashOf(join(quota, name))).toBe(before);
  });

  it('a newer schedule file of the domain watcher is left as it was', async () => {
    const store = await sandbox();
    const dataDir = folder();
    mkdirSync(dataDir, { recursive: true });
    const project = projectIdOf('Pet Shop')!;
    writeFileSync(
      join(dataDir, 'domain-projects.json'),
      JSON.stringify({ version: 1, projects: [{ id: project, name: 'Pet Shop' }] }),
    );
    writeFileSync(
      join(dataDir, `domains-project-${project}.json`),
      JSON.stringify({
        version: 1,
        settings: { target: 'proxy.platform.example', resolver: '127.0.0.1:9' },
        progress: {
          'shop.example.com': {
            domain: 'shop.example.com',
            step: 'check-dns',
            preconditions: { paidPlan: true, dnsAccess: true, deployed: true },
            updatedAt: Date.now(),
          },
        },
      }),
    );
    const schedules = join(dataDir, 'domain-watch.json');
    writeFileSync(schedules, JSON.stringify({ version: 2, domains: {}, paused: true }));
    const before = hashOf(schedules);
    const { api, close } = await app(dataDir, store.baseUrl);
    // The watcher checks the domain (its schedule kept in memory) and says so.
    await expect
      .poll(async () => await api.domainWatch.list(project))
      .toMatchObject({ value: [{ domain: 'shop.example.com', badge: 'could-not-check' }] });
    await close();
    expect(hashOf(schedules)).toBe(before);
  });
});
