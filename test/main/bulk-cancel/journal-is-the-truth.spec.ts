// A bulk cancel's journal is the truth of what it did. Its `result` line is
// written before the cancel log's line, so a crash between the two leaves an
// answer in the journal alone: the order read "Not cancelled here" and a
// second cancel "not found". When the job is next loaded (the app's start,
// the command line's next bulk run), every answer the log lacks is logged,
// each once. The state a crash leaves is made exactly: the log's last lines
// cut off after a job ran.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scopedFileName, serviceScope } from '../../../src/main/environments/service-scope.ts';
import { type Sandbox } from '../../../src/main/sandbox/server.ts';
import { runCliProcess } from '../../support/cli-process.ts';
import { type InProcessApp } from '../../support/in-process-app.ts';
import { useScratch } from '../../support/scratch.ts';

const KEY = 'demo-pro';
const scratch = useScratch('journal-truth');
const { folder } = scratch;
const sandbox = (): Promise<Sandbox> => scratch.sandbox({ orders: 40 });
const app = (dataDir: string, baseUrl: string): Promise<InProcessApp> =>
  scratch.productionApp(dataDir, baseUrl, KEY);

/** The log as a crash between a journal's result line and the log's would leave it: its last lines cut off. */
function cutLog(file: string, lines: number): string[] {
  const all = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  writeFileSync(
    file,
    all
      .slice(0, all.length - lines)
      .map((line) => `${line}\n`)
      .join(''),
  );
  return all.slice(-lines).map((line) => (JSON.parse(line) as { orderId: string }).orderId);
}

const idsOf = (entries: readonly { orderId: string }[]) => entries.map((entry) => entry.orderId);

describe('answers in the journal and not in the cancel log', () => {
  it('are logged when the app loads the job, once each, and read "already cancelled" again', async () => {
    const store = await sandbox();
    const dataDir = folder();
    const first = await app(dataDir, store.baseUrl);
    const ids = store.orderIds({ status: 'pending' }).slice(0, 5);
    await first.api.bulkCancel.start('production', ids);
    await expect
      .poll(async () => await first.api.bulkCancel.status('production'))
      .toMatchObject({ value: { status: 'finished' } });
    await first.close();
    const log = join(
      dataDir,
      scopedFileName('cancel-log', serviceScope('production', store.baseUrl)),
    );
    const lost = cutLog(log, 2);

    const { api } = await app(dataDir, store.baseUrl);
    const entries = await api.cancelLog.list('production');
    expect(entries.ok && idsOf(entries.value).sort()).toEqual([...ids].sort());
    const again = await api.orders.cancel('production', lost[0]!);
    expect(again.ok && again.value.message).toMatch(/already cancelled at/);

    // A second start finds nothing more to log.
    const after = await api.cancelLog.list('production');
    expect(after.ok && after.value.length).toBe(ids.length + 1);
  });

  it("are logged when the command line's next bulk run loads the journal", async () => {
    const store = await sandbox();
    const dataDir = folder();
    const env = { STORE_ADMIN_API_KEY: KEY, STORE_ADMIN_DATA_DIR: dataDir };
    const [a, b] = [
      store.orderIds({ status: 'pending' }).slice(0, 4),
      store.orderIds({ status: 'pending' }).slice(4, 6),
    ];
    const file = join(dataDir, 'ids.txt');
    writeFileSync(file, `${a.join('\n')}\n`);
    const args = ['orders', 'cancel', '--from', file, '--base-url', store.baseUrl, '--json'];
    expect((await runCliProcess(args, env)).code).toBe(0);
    const log = join(
      dataDir,
      readdirSync(dataDir).find((name) => name.startsWith('cancel-log-'))!,
    );
    cutLog(log, 3);

    writeFileSync(file, `${b.join('\n')}\n`);
    expect((await runCliProcess(args, env)).code).toBe(0);
    const logged = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { orderId: string }).orderId);
    expect([...logged].sort()).toEqual([...a, ...b].sort());
  });

  it('a stopped job’s cancels whose answer never came are logged as may have been cancelled, also after a crash, once each', async () => {
    const store = await sandbox();
    const dataDir = folder();
    const first = await app(dataDir, store.baseUrl);
    // Every cancel is done and its answer cut: the job meets lost answers until it is stopped.
    store.setFaults('reset@1');
    await first.api.bulkCancel.start('production', store.orderIds({ status: 'pending' }));
    await expect
      .poll(() => store.requestLog.filter((entry) => entry.method === 'DELETE').length)
      .toBeGreaterThan(0);
    await first.api.bulkCancel.stop('production');
    await expect
      .poll(async () => await first.api.bulkCancel.status('production'))
      .toMatchObject({ value: { status: 'stopped', answersOnTheirWay: 0 } });
    const status = await first.api.bulkCancel.status('production');
    const unanswered = status.ok ? (status.value?.unanswered ?? 0) : 0;
    expect(unanswered).toBeGreaterThan(0);
    const sent = new Set(
      store.requestLog
        .filter((entry) => entry.method === 'DELETE')
        .map((entry) => entry.path.split('/').at(-1)!),
    );
    expect(sent.size).toBe(unanswered);
    const logged = await first.api.cancelLog.list('production');
    expect(logged.ok && new Set(idsOf(logged.value))).toEqual(sent);
    expect(logged.ok && logged.value.every((entry) => entry.delivery === 'unknown')).toBe(true);
    await first.close();

    // A crash before the log had them: the next start logs them, and the one after adds nothing.
    const file = join(
      dataDir,
      scopedFileName('cancel-log', serviceScope('production', store.baseUrl)),
    );
    cutLog(file, unanswered);
    for (let start = 0; start < 2; start++) {
      const { api, close } = await app(dataDir, store.baseUrl);
      const entries = await api.cancelLog.list('production');
      expect(entries.ok && idsOf(entries.value).sort()).toEqual([...sent].sort());
      await close();
    }
  });
});
