// What store-admin says of a cancel and of a wait, run as its own process
// against crafted services on loopback: a cancel answered with something the
// interface does not define is "may or may not have been cancelled", and the
// 404 after it is gone (exit 7), alone and in a bulk run; a second cancel of
// an order this computer cancelled says "already cancelled at HH:MM", as the
// app does; a 429 whose hold is longer than 10 seconds exits at once with
// code 8, whether the Retry-After or the reset says so; an absurd
// Retry-After is never answered with a quick retry.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/run.ts';
import { runCliProcess } from '../support/cli-process.ts';
import { craftedStore, type CraftedStore } from '../support/crafted-store.ts';
import { answer, scriptedServer, type ScriptedServer } from '../support/scripted-server.ts';
import { useScratch } from '../support/scratch.ts';

const KEY = 'crafted-key-0123456789';
const scratch = useScratch('cli-answers');
const { folder } = scratch;

function track<S extends ScriptedServer>(server: S): S {
  scratch.later(() => server.close());
  return server;
}

function cli(server: ScriptedServer, dataDir: string, ...args: string[]) {
  return runCliProcess([...args, '--base-url', server.baseUrl], {
    STORE_ADMIN_API_KEY: KEY,
    STORE_ADMIN_DATA_DIR: dataDir,
  });
}

describe('store-admin orders cancel: what the answer says was done', () => {
  it('says a 524 may or may not have cancelled the order, then calls the 404 gone (exit 7)', async () => {
    let down = true;
    const store: CraftedStore = track(
      await craftedStore({ '14': 'pending' }, (_id, _attempt, res) => {
        if (!down) return false;
        answer(res, 524, 'A timeout occurred');
        return true;
      }),
    );
    const dataDir = folder();
    const first = await cli(store, dataDir, 'orders', 'cancel', '14', '--json');
    expect(first.code).toBe(EXIT.failed);
    const { error } = JSON.parse(first.stdout) as { error: { delivery: string; message: string } };
    expect(error.delivery).toBe('unknown');
    expect(error.message).toMatch(/^Order 14 may or may not have been cancelled/);
    expect(store.orders.get('14')).toBe('cancelled');

    down = false;
    const second = await cli(store, dataDir, 'orders', 'cancel', '14');
    expect(second.code).toBe(EXIT.gone);
    expect(second.stderr).toContain('Order 14 is gone');
  });

  it('says "already cancelled at HH:MM" for an order it cancelled before, as the app does', async () => {
    const store = track(await craftedStore({ '14': 'pending' }));
    const dataDir = folder();
    expect((await cli(store, dataDir, 'orders', 'cancel', '14')).code).toBe(EXIT.ok);
    const again = await cli(store, dataDir, 'orders', 'cancel', '14');
    expect(again.code).toBe(EXIT.notFound);
    expect(again.stderr).toMatch(
      /^Order 14 was already cancelled at \d\d:\d\d, so there was nothing left to cancel\.$/m,
    );
  });

  it('counts a bulk run whose 520 hid a cancel as gone, never failed or not found', async () => {
    const store = track(
      await craftedStore({ '21': 'pending', '22': 'pending' }, (id, attempt, res) => {
        if (id !== '21' || attempt > 1) return false;
        answer(res, 520, 'Web server is returning an unknown error');
        return true;
      }),
    );
    const dataDir = folder();
    const file = join(dataDir, 'ids.txt');
    writeFileSync(file, '21\n22\n');
    const run = await cli(store, dataDir, 'orders', 'cancel', '--from', file, '--json');
    expect(run.code).toBe(EXIT.ok);
    const out = JSON.parse(run.stdout) as { counts: Record<string, number> };
    expect(out.counts).toMatchObject({ cancelled: 1, gone: 1, failed: 0, 'not-found': 0 });
  });
});

describe('store-admin and the waits the README promises', () => {
  it('exits at once with code 8 when a 429 spends the window until a reset a minute away', async () => {
    const server = track(
      await scriptedServer((_req, res) => {
        res.setHeader('x-ratelimit-limit', '60');
        res.setHeader('x-ratelimit-remaining', '0');
        res.setHeader('x-ratelimit-reset', String(Math.ceil(Date.now() / 1000) + 60));
        answer(
          res,
          429,
          { code: 'rate_limited', message: 'Slow down', status: 429 },
          {
            'retry-after': '1',
          },
        );
      }),
    );
    const run = await cli(server, folder(), 'orders', 'list', '--json');
    expect(run.code).toBe(EXIT.held);
    const { error } = JSON.parse(run.stdout) as { error: { retryAt: number } };
    // The reset is the time to try again, not Retry-After's second.
    expect(error.retryAt - Date.now()).toBeGreaterThan(30_000);
    expect(server.requests).toHaveLength(1);
  });

  it('holds for the longest believed wait on an absurd Retry-After, and says until when', async () => {
    const server = track(
      // The service's own 429 (its figures): a gateway's would be held for seconds (gateway-429.spec.ts).
      await scriptedServer((_req, res) =>
        answer(res, 429, '', {
          'retry-after': '86401',
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': '0',
        }),
      ),
    );
    const dataDir = folder();
    const run = await cli(server, dataDir, 'orders', 'list', '--json');
    expect(run.code).toBe(EXIT.held);
    const { error } = JSON.parse(run.stdout) as { error: { retryAt: number; message: string } };
    expect(error.retryAt - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect(error.message).toMatch(/^Rate-limited until \d\d:\d\d:\d\d (tomorrow|on \d+ \w+)\./);
    expect(server.requests).toHaveLength(1);
    // The next run knows the hold and sends nothing.
    const next = await cli(server, dataDir, 'orders', 'list', '--json');
    expect(next.code).toBe(EXIT.held);
    expect(JSON.parse(next.stdout)).toMatchObject({ error: { delivery: 'not-sent' } });
    expect(server.requests).toHaveLength(1);
  });
});
