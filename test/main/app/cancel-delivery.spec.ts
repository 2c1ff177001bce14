// A cancel the service carried out, answered in a way the interface does not
// define (a CDN's 520 or 524, a redirect), through the main-process services
// as the app wires them: never "failed, answered" and then "not found", but
// "may or may not have been cancelled" and then "gone", in single cancels,
// the cancel log and a bulk cancel's counts alike.

import { afterEach, describe, expect, it } from 'vitest';
import type { BulkCancelSnapshot } from '../../../src/shared/bulk-cancel.ts';
import type { CancelLogEntry } from '../../../src/shared/orders-local.ts';
import type { Result } from '../../../src/shared/result.ts';
import { craftedStore, type CraftedStore } from '../../support/crafted-store.ts';
import { answer } from '../../support/scripted-server.ts';
import { startInProcessApp, type InProcessApp } from '../../support/in-process-app.ts';

const KEY = 'crafted-key-0123456789';
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((thing) => thing.close()));
});

async function appOn(store: CraftedStore): Promise<InProcessApp> {
  opened.push(store);
  const app = await startInProcessApp({
    settings: { activeEnvironment: 'production', baseUrls: { production: store.baseUrl } },
  });
  opened.push(app);
  expect(((await app.api.keys.set('production', KEY)) as Result<unknown>).ok).toBe(true);
  return app;
}

const value = <T>(result: unknown): T => {
  expect(result).toMatchObject({ ok: true });
  return (result as { value: T }).value;
};

describe('a cancel the service did, answered with something the interface does not define', () => {
  it('is unknown while every answer is a 524, then gone, and the log says so', async () => {
    let down = true;
    const store = await craftedStore({ '201': 'pending' }, (_id, _attempt, res) => {
      if (!down) return false;
      answer(res, 524, 'A timeout occurred');
      return true;
    });
    const app = await appOn(store);

    const first = (await app.api.orders.cancel('production', '201')) as Result<unknown>;
    expect(first).toMatchObject({ ok: false, error: { kind: 'server', delivery: 'unknown' } });
    expect(store.orders.get('201')).toBe('cancelled');

    down = false;
    const second = value<{ kind: string; message: string }>(
      await app.api.orders.cancel('production', '201'),
    );
    expect(second.kind).toBe('gone');
    expect(second.message).toContain('may or may not have removed it');

    const log = value<CancelLogEntry[]>(await app.api.cancelLog.list('production'));
    expect(log.map((entry) => [entry.result, entry.delivery])).toEqual([
      ['failed', 'unknown'],
      ['gone', undefined],
    ]);
  });

  it('counts a bulk cancel whose 520 hid a cancel as gone, never failed or not found', async () => {
    const store = await craftedStore(
      { '301': 'pending', '302': 'pending', '303': 'shipped' },
      (id, attempt, res) => {
        if (id !== '301' || attempt > 1) return false;
        answer(res, 520, 'Web server is returning an unknown error');
        return true;
      },
    );
    const app = await appOn(store);
    value(await app.api.bulkCancel.start('production', ['301', '302', '303']));
    let snapshot: BulkCancelSnapshot | null = null;
    for (let i = 0; i < 400 && snapshot?.status !== 'finished'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      snapshot = value<BulkCancelSnapshot | null>(await app.api.bulkCancel.status('production'));
    }
    expect(snapshot).toMatchObject({
      status: 'finished',
      counts: { cancelled: 1, gone: 1, 'already-shipped': 1, failed: 0, 'not-found': 0 },
    });
    expect([...store.orders.values()]).toEqual(['cancelled', 'cancelled', 'shipped']);
  });

  it('leaves a redirected cancel unknown, and a later 404 gone', async () => {
    const store = await craftedStore({ '401': 'pending' }, (_id, attempt, res) => {
      if (attempt > 1) return false;
      answer(res, 303, '', { location: 'https://elsewhere.example/done' });
      return true;
    });
    const app = await appOn(store);
    expect(await app.api.orders.cancel('production', '401')).toMatchObject({
      ok: false,
      error: { kind: 'redirect', delivery: 'unknown' },
    });
    expect(value<{ kind: string }>(await app.api.orders.cancel('production', '401')).kind).toBe(
      'gone',
    );
  });
});
