// A full disk, a read-only one, a folder the app may not write: the app says
// so once, naming the folder, goes on from memory, and nothing already on
// disk is lost or truncated. First through an injected file layer (every
// code), then on a real 1 MB tmpfs where the machine allows mounting one.

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import type { BulkCancelSnapshot } from '../../../src/shared/bulk-cancel.ts';
import type { AppState } from '../../../src/shared/ipc-contract.ts';
import type { CancelLogEntry } from '../../../src/shared/orders-local.ts';
import { desktopApp, type DesktopApp } from '../../../tools/reliability/desktop-app.ts';
import { failingFiles } from '../../support/failing-files.ts';
import { canMountTmpfs, fillDisk, mountTmpfs, TMPFS_SKIPPED } from '../../support/tmpfs.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(): Promise<Sandbox> {
  const started = await startSandbox({ port: 0, orders: 300 });
  cleanups.push(() => started.close());
  return started;
}

/** Every file in the folder, byte for byte (quota records change with each request: left out). */
function snapshotFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    if (name === 'quota' || name.endsWith('.tmp') || name === 'filler') continue;
    files.set(name, readFileSync(join(dir, name), 'latin1'));
  }
  return files;
}

/**
 * Every file is whole: as it was, or (a log, appended to) with what it held
 * first. A real full disk may still take a short append into the last block
 * a file already has.
 */
function expectNothingLost(before: Map<string, string>, after: Map<string, string>): void {
  expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
  for (const [name, text] of before) {
    const now = after.get(name)!;
    if (name.endsWith('.jsonl')) expect(now.startsWith(text), name).toBe(true);
    else expect(now, name).toBe(text);
  }
}

async function untilFinished(app: DesktopApp): Promise<BulkCancelSnapshot> {
  const queue = (await app.services.bulkCancelOf('sandbox'))!;
  await queue.idle();
  return queue.snapshot()!;
}

/** Saves one of everything, so the disk holds a file of each kind. */
async function saveOneOfEach(app: DesktopApp, store: Sandbox): Promise<void> {
  const [first, second, third] = store.orderIds({ status: 'pending' });
  expect(await app.call('orders:list', 'sandbox')).toMatchObject({ ok: true });
  expect(
    await app.call('review-marks:set', 'sandbox', first, { reviewed: true, note: 'called' }),
  ).toMatchObject({ ok: true });
  expect(await app.call('orders:cancel', 'sandbox', second)).toMatchObject({
    ok: true,
    value: { kind: 'cancelled' },
  });
  expect(await app.call('bulk-cancel:start', 'sandbox', [third])).toMatchObject({ ok: true });
  expect(await untilFinished(app)).toMatchObject({ status: 'finished' });
}

/** With the disk refusing every write: the clerk's work goes on and is told once. */
async function workWithoutDisk(app: DesktopApp, store: Sandbox, code: string): Promise<void> {
  // A refresh shows the list, from memory: the cache on disk keeps the last saved one
  // (the callers compare every file), however far its streamed write got.
  const list = await app.call('orders:list', 'sandbox');
  expect(list).toMatchObject({ ok: true, value: { count: 300 - 2 } });
  const pending = store.orderIds({ status: 'pending' });
  const [marked, cancelled] = pending.slice(10);
  const marks = await app.call('review-marks:set', 'sandbox', marked, {
    reviewed: true,
    note: 'no disk',
  });
  expect(marks).toMatchObject({ ok: true, value: { [marked!]: { note: 'no disk' } } });
  expect(await app.call('review-marks:list', 'sandbox')).toMatchObject({
    ok: true,
    value: { [marked!]: { reviewed: true } },
  });
  // A cancel the service confirmed is reported as such, and kept in the log for the session.
  expect(await app.call('orders:cancel', 'sandbox', cancelled)).toMatchObject({
    ok: true,
    value: { kind: 'cancelled' },
  });
  const log = (await app.call('cancel-log:list', 'sandbox')) as { value: CancelLogEntry[] };
  expect(log.value.filter((e) => e.orderId === cancelled && e.result === 'cancelled')).toHaveLength(
    1,
  );
  // A bulk cancel cannot keep its journal: it does not start, and sends nothing.
  const deletesBefore = store.requestLog.filter((r) => r.method === 'DELETE').length;
  const bulk = await app.call('bulk-cancel:start', 'sandbox', pending.slice(20, 25));
  expect(bulk).toMatchObject({ ok: false, error: { delivery: 'not-sent' } });
  expect(!bulk.ok && bulk.error.message).toContain(app.dataDir);
  expect(store.requestLog.filter((r) => r.method === 'DELETE')).toHaveLength(deletesBefore);
  // Told once, naming the folder; the state says it too, for a window opened now.
  const told = app.events.filter((e) => e.event === 'storage:changed');
  expect(told).toHaveLength(1);
  const problem = (told[0]!.payload as { problem: { message: string; code: string } }).problem;
  expect(problem.code).toBe(code);
  expect(problem.message).toContain(app.dataDir);
  const state = (await app.call('app:get-state')) as { value: AppState };
  expect(state.value.storageProblem).toEqual(problem);
}

describe('a data folder that takes nothing (injected file layer)', () => {
  for (const [code, words] of [
    ['ENOSPC', 'the disk is full'],
    ['EROFS', 'the disk is read-only'],
    ['EACCES', 'not allowed to write there'],
  ] as const) {
    it(`${code}: says so once naming the folder, goes on from memory, loses nothing on disk`, async () => {
      const store = await sandbox();
      const files = failingFiles();
      const app = desktopApp(store, { files });
      cleanups.push(() => app.close());
      await saveOneOfEach(app, store);
      const before = snapshotFiles(app.dataDir);
      expect([...before.keys()].sort()).toEqual(
        [
          'bulk-cancel-sandbox.jsonl',
          'cancel-log-sandbox.jsonl',
          'orders-sandbox.cache',
          'review-marks-sandbox.json',
        ].sort(),
      );

      files.fail(code);
      await workWithoutDisk(app, store, code);
      const told = app.events.filter((e) => e.event === 'storage:changed');
      expect((told[0]!.payload as { problem: { message: string } }).problem.message).toContain(
        words,
      );
      expect(snapshotFiles(app.dataDir)).toEqual(before);

      // Space again: the next save goes through and the message goes away.
      files.fail(undefined);
      const [next] = store.orderIds({ status: 'pending' }).slice(30);
      expect(await app.call('bulk-cancel:start', 'sandbox', [next])).toMatchObject({ ok: true });
      expect(await untilFinished(app)).toMatchObject({ counts: { cancelled: 1 } });
      expect(app.events.filter((e) => e.event === 'storage:changed').at(-1)!.payload).toEqual({
        problem: null,
      });
    });
  }

  it('a bulk cancel under way when the disk fills pauses before sending anything unjournaled, and finishes once it can write', async () => {
    const store = await sandbox();
    const files = failingFiles();
    const app = desktopApp(store, { files });
    cleanups.push(() => app.close());
    const ids = store.orderIds({ status: 'pending' }).slice(0, 40);
    const queue = (await app.services.bulkCancelOf('sandbox'))!;
    await queue.start(ids);
    // The disk fills once a few orders are done.
    await new Promise<void>((resolve) => {
      const watch = setInterval(() => {
        if (queue.results().length >= 5) {
          files.fail('ENOSPC');
          clearInterval(watch);
          resolve();
        }
      }, 1);
    });
    await queue.idle();
    const paused = queue.snapshot()!;
    expect(paused).toMatchObject({ status: 'paused', pauseReason: 'disk' });
    expect(paused.message).toContain(app.dataDir);
    // Every DELETE that left has its send line on disk, written with fsync first.
    const journaled = new Set(
      files.written
        .filter((w) => w.sync && w.text.includes('"t":"send"'))
        .map((w) => (JSON.parse(w.text) as { orderId: string }).orderId),
    );
    const deleted = store.requestLog
      .filter((r) => r.method === 'DELETE')
      .map((r) => r.path.split('/').pop()!);
    expect(deleted.every((id) => journaled.has(id))).toBe(true);

    files.fail(undefined);
    await queue.resume();
    await queue.idle();
    const done = queue.snapshot()!;
    expect(done).toMatchObject({ status: 'finished', total: 40 });
    // Exactly one result per order, each as the sandbox has it.
    const results = queue.results();
    expect(new Set(results.map((r) => r.orderId)).size).toBe(40);
    expect(results.every((r) => store.orderStatus(r.orderId) === 'cancelled')).toBe(true);
    expect(done.counts.cancelled + done.counts.gone).toBe(40);
  });
});

const tmpfs = canMountTmpfs();

describe.skipIf(!tmpfs)(`a real 1 MB tmpfs${tmpfs ? '' : TMPFS_SKIPPED}`, () => {
  it('a full disk, then a read-only one: the same, with the real file system', async () => {
    const store = await sandbox();
    const disk = mountTmpfs('1m');
    cleanups.push(() => disk.unmount());
    const dataDir = disk.dir;
    const app = desktopApp(store, { dataDir });
    cleanups.push(() => app.close());
    await saveOneOfEach(app, store);
    const before = snapshotFiles(dataDir);

    const filler = join(dataDir, 'filler');
    fillDisk(filler);
    await workWithoutDisk(app, store, 'ENOSPC');
    expectNothingLost(before, snapshotFiles(dataDir));
    expect(readdirSync(dataDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // No lock left behind: an empty one (the disk took the file, not the pid) stalled every quota update for 2 s.
    expect(readdirSync(join(dataDir, 'quota')).filter((name) => name.endsWith('.lock'))).toEqual(
      [],
    );

    // Read-only: the message changes to say so.
    rmSync(filler);
    execFileSync('mount', ['-o', 'remount,ro', dataDir]);
    expect(
      await app.call('review-marks:set', 'sandbox', store.orderIds()[50], {
        reviewed: true,
        note: 'ro',
      }),
    ).toMatchObject({ ok: true });
    const last = app.events.filter((e) => e.event === 'storage:changed').at(-1)!;
    expect(last.payload).toMatchObject({ problem: { code: 'EROFS' } });
    expectNothingLost(before, snapshotFiles(dataDir));
  });

  it('read-only before the first start: the app starts, says so once naming the folder, shows the list', async () => {
    const store = await sandbox();
    const disk = mountTmpfs('1m');
    cleanups.push(() => disk.unmount());
    execFileSync('mount', ['-o', 'remount,ro', disk.dir]);
    // The app's own folder is not there yet (Node's recursive mkdir calls this ENOENT).
    const dataDir = join(disk.dir, 'local-data');
    const app = desktopApp(store, { dataDir });
    cleanups.push(() => app.close());
    const state = (await app.call('app:get-state')) as { value: AppState };
    expect(state.value.storageProblem).toMatchObject({ folder: dataDir, code: 'EROFS' });
    expect(state.value.storageProblem!.message).toContain('the disk is read-only');
    expect(await app.call('orders:list', 'sandbox')).toMatchObject({
      ok: true,
      value: { count: 300 },
    });
    expect(readdirSync(disk.dir)).toEqual([]);
  });
});
