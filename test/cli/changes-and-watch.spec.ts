// Changes, deprecations and domain watching from the command line, against the real sandbox and the loopback DNS
// server: `orders list` keeps the last two lists per address, `orders
// changes` says what changed between them (from the saved lists alone),
// deprecation notices go to standard error and into --json, and `domain
// watch` re-checks on the app's schedule until the domain is ready.

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliCacheDir } from '../../src/cli/data-folder.ts';
import { earlierCliListsFolder } from '../../src/main/local-data/earlier-cli-lists.ts';
import { DOMAIN_EXIT } from '../../src/cli/domain-commands.ts';
import { EXIT, runCli } from '../../src/cli/run.ts';
import { OrderCache } from '../../src/main/orders/order-cache.ts';
import type { Timing } from '../../src/main/store-api/clock.ts';
import { SANDBOX_CHANGELOG_URL } from '../../src/main/sandbox/deprecations.ts';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import { serviceScope } from '../../src/main/environments/service-scope.ts';
import { virtualTiming } from '../support/virtual-timing.ts';
import { startDnsTestServer, type TestRecord } from '../../tools/loopback/dns-test-server.ts';

const STEP_MS = 60_000;
let dataDir: string;
let sandbox: Sandbox | undefined;
let clock: number;
const timing: Timing = { now: () => clock, random: () => 0.5, sleep: async () => undefined };

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'store-admin-cli-changes-'));
  clock = Date.UTC(2026, 10, 22, 9, 0, 0);
});
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

async function cli(args: string[], io: Partial<{ timing: Timing; key: string }> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: { STORE_ADMIN_DATA_DIR: dataDir, STORE_ADMIN_API_KEY: io.key ?? 'demo-enterprise' },
    timing: io.timing ?? timing,
  });
  return { code, stdout, stderr };
}

describe('store-admin orders changes', () => {
  it('labels an order whose cancel met "no longer exists" as maybe cancelled from here, as its message says', async () => {
    sandbox = await startSandbox({ port: 0, orders: 30, now: () => clock });
    const base = ['--base-url', sandbox.baseUrl];
    expect((await cli(['orders', 'list', ...base])).code).toBe(EXIT.ok);
    const [id, elsewhere] = sandbox.orderIds({ status: 'pending', limit: 2 });
    // Gone since the list (by another computer, or by a first copy of this very DELETE).
    sandbox.setOrderStatus(id!, 'cancelled');
    sandbox.setOrderStatus(elsewhere!, 'cancelled');
    clock += STEP_MS;
    const cancel = await cli(['orders', 'cancel', id!, ...base]);
    expect(cancel.code).toBe(EXIT.notFound);
    expect(cancel.stderr).toContain('perhaps by this very cancel, if the network sent it twice');
    clock += STEP_MS;
    expect((await cli(['orders', 'list', ...base])).code).toBe(EXIT.ok);

    const text = await cli(['orders', 'changes', ...base]);
    expect(text.stdout).toMatch(
      new RegExp(
        `\\n  ${id} .*may have been cancelled from this computer \\(its cancel found it gone; the network may have sent it twice\\)\\n`,
      ),
    );
    expect(text.stdout).toMatch(new RegExp(`\\n  ${elsewhere} .*left the service`));
    const json = JSON.parse((await cli(['orders', 'changes', '--json', ...base])).stdout) as {
      gone: { id: string; how: string; maybe?: string }[];
    };
    expect(json.gone).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id,
          how: 'maybe-cancelled-here',
          maybe: 'not-found-after-listed',
        }),
        expect.objectContaining({ id: elsewhere, how: 'left' }),
      ]),
    );
  });

  it('says what changed between the last two lists orders list saved, with a cancel from here told apart', async () => {
    sandbox = await startSandbox({ port: 0, orders: 300, churnEveryMs: STEP_MS, now: () => clock });
    const base = ['--base-url', sandbox.baseUrl];
    expect(await cli(['orders', 'changes', ...base])).toMatchObject({
      code: EXIT.ok,
      stdout: expect.stringContaining('No list of this address is saved yet.'),
    });
    expect((await cli(['orders', 'list', ...base])).code).toBe(EXIT.ok);
    expect((await cli(['orders', 'changes', ...base])).stdout).toContain(
      'Only one list of this address is saved yet.',
    );
    const [mine] = sandbox.orderIds({ status: 'pending', limit: 1 });
    expect((await cli(['orders', 'cancel', mine!, ...base])).code).toBe(EXIT.ok);
    clock += STEP_MS;
    expect((await cli(['orders', 'list', ...base])).code).toBe(EXIT.ok);
    const step = sandbox.churned[0]!;

    // Offline: the service is gone, the saved lists answer.
    await sandbox.close();
    const text = await cli(['orders', 'changes', ...base]);
    expect(text.code).toBe(EXIT.ok);
    expect(text.stdout).toContain(
      `+${step.arrived.length} new, ${step.cancelled.length + 1} gone (1 cancelled from here), ${step.shipped.length + step.completed.length} changed.`,
    );
    expect(text.stdout).toMatch(new RegExp(`\\n  ${mine} .*cancelled from this computer\\n`));
    expect(text.stdout).toMatch(new RegExp(`\\n  ${step.completed[0]} +complete +no +yes\\n`));
    expect(text.stdout).toContain('left the service (cancelled elsewhere, or removed)');

    const json = JSON.parse((await cli(['orders', 'changes', '--json', ...base])).stdout);
    expect(json).toMatchObject({
      ok: true,
      compared: true,
      since: new Date(clock - STEP_MS).toISOString(),
      at: new Date(clock).toISOString(),
      summary: { added: step.arrived.length, cancelledHere: 1 },
    });
    expect(json.added.map((o: { id: string }) => o.id)).toEqual(step.arrived);
    expect(json.gone.find((o: { id: string }) => o.id === mine)).toMatchObject({
      how: 'cancelled-here',
      cancelledAt: new Date(clock - STEP_MS).toISOString(),
    });
    const shipped = json.changed.find((o: { id: string }) => o.id === step.shipped[0]);
    expect(shipped).toMatchObject({
      fields: ['shipDate'],
      after: { shipDate: '2026-11-22T09:01:00Z' },
    });

    // Kept as the app's own cache: the list and the one before it, in the app's data folder.
    const cache = new OrderCache(cliCacheDir({ STORE_ADMIN_DATA_DIR: dataDir }));
    const scope = serviceScope('production', sandbox.baseUrl);
    expect(existsSync(cache.fileOf(scope))).toBe(true);
    expect(existsSync(cache.fileOf(scope, 'previous'))).toBe(true);
  });

  it('tells orders cancelled by orders cancel --from apart too', async () => {
    sandbox = await startSandbox({ port: 0, orders: 50, now: () => clock });
    const base = ['--base-url', sandbox.baseUrl];
    expect((await cli(['orders', 'list', ...base])).code).toBe(EXIT.ok);
    const ids = sandbox.orderIds({ status: 'pending', limit: 2 });
    const file = join(dataDir, 'ids.txt');
    writeFileSync(file, `${ids.join('\n')}\n`);
    expect((await cli(['orders', 'cancel', '--from', file, ...base])).code).toBe(EXIT.ok);
    clock += STEP_MS;
    expect((await cli(['orders', 'list', ...base])).code).toBe(EXIT.ok);
    const json = JSON.parse((await cli(['orders', 'changes', '--json', ...base])).stdout);
    expect(json.summary).toMatchObject({ cancelledHere: 2 });
    for (const id of ids)
      expect(json.gone.find((o: { id: string }) => o.id === id)).toMatchObject({
        how: 'cancelled-here',
      });
  });

  // Paths joined with this system's separator, as the app's own are (on Windows too).
  const home = join('home', 'clerk');

  it("keeps its lists in the app's data folder, or where it is told", () => {
    expect(cliCacheDir({}, 'linux', home)).toBe(join(home, '.config', 'Store Admin', 'local-data'));
    expect(cliCacheDir({ XDG_CONFIG_HOME: 'c' }, 'linux', home)).toBe(
      join('c', 'Store Admin', 'local-data'),
    );
    expect(cliCacheDir({}, 'darwin', home)).toBe(
      join(home, 'Library', 'Application Support', 'Store Admin', 'local-data'),
    );
    expect(cliCacheDir({ APPDATA: 'roaming' }, 'win32', home)).toBe(
      join('roaming', 'Store Admin', 'local-data'),
    );
    const data = join('data');
    const lists = join('lists');
    expect(cliCacheDir({ STORE_ADMIN_DATA_DIR: data })).toBe(data);
    expect(cliCacheDir({ STORE_ADMIN_CACHE_DIR: lists, STORE_ADMIN_DATA_DIR: data })).toBe(lists);
  });

  it('merges the lists of 0.2.0 to 0.4.0 from where they were then', () => {
    expect(earlierCliListsFolder({}, 'linux', home)).toBe(join(home, '.cache', 'store-admin'));
    expect(earlierCliListsFolder({ XDG_CACHE_HOME: 'c' }, 'linux', home)).toBe(
      join('c', 'store-admin'),
    );
    expect(earlierCliListsFolder({}, 'darwin', home)).toBe(
      join(home, 'Library', 'Caches', 'Store Admin'),
    );
    expect(earlierCliListsFolder({ LOCALAPPDATA: 'local' }, 'win32', home)).toBe(
      join('local', 'Store Admin', 'Cache'),
    );
    expect(earlierCliListsFolder({}, 'win32', home)).toBe(
      join(home, 'AppData', 'Local', 'Store Admin', 'Cache'),
    );
    expect(earlierCliListsFolder({ STORE_ADMIN_DATA_DIR: 'data' })).toBe(join('data', 'cli-lists'));
    // Named by the variable: the lists are still there.
    expect(earlierCliListsFolder({ STORE_ADMIN_CACHE_DIR: 'lists' })).toBeUndefined();
  });
});

describe('the service’s deprecation notices in the CLI', () => {
  it('prints them on standard error, and in --json as "deprecation"', async () => {
    sandbox = await startSandbox({ port: 0, orders: 10, deprecate: ['/store/orders=2027-06-30'] });
    const base = ['--base-url', sandbox.baseUrl];
    const text = await cli(['orders', 'list', ...base]);
    expect(text.code).toBe(EXIT.ok);
    expect(text.stderr).toBe(
      `Note: The store service will stop answering the order list on 30 June 2027. Read more: ${SANDBOX_CHANGELOG_URL}\n`,
    );
    const json = await cli(['quota', '--json', ...base]);
    expect(JSON.parse(json.stdout).deprecation).toEqual({
      endpoint: 'list-orders',
      message: 'The store service will stop answering the order list on 30 June 2027.',
      deprecatedAt: '2025-01-01T00:00:00.000Z',
      sunsetAt: '2027-06-30T00:00:00.000Z',
      link: SANDBOX_CHANGELOG_URL,
    });
    // A cancel, not deprecated here, says nothing.
    const [pending] = sandbox.orderIds({ status: 'pending', limit: 1 });
    const cancel = await cli(['orders', 'cancel', pending!, '--json', ...base]);
    expect(cancel.stderr).toBe('');
    expect(JSON.parse(cancel.stdout).deprecation).toBeUndefined();
  });
});

describe('store-admin domain watch, on a virtual clock against the loopback DNS server', () => {
  it('checks at once, then every 30 s, printing each change, until the domain is ready', async () => {
    const ZONE = 'pets-example.invalid';
    const records: TestRecord[] = [{ name: `edge.${ZONE}`, type: 'A', data: '127.0.0.1' }];
    const dns = await startDnsTestServer({
      records,
      zones: [{ name: ZONE, soaTtl: 300, minimum: 60 }],
    });
    try {
      const virtual = virtualTiming({ start: Date.UTC(2026, 10, 22, 9, 0, 0) });
      const started = virtual.now();
      const lines: string[] = [];
      // The platform's record is created during the second wait, after two checks found none.
      const timing: Timing = {
        ...virtual,
        sleep: async (ms, signal) => {
          await virtual.sleep(ms, signal);
          if (virtual.sleeps.length === 2)
            records.push({ name: `shop.${ZONE}`, type: 'CNAME', data: `edge.${ZONE}` });
        },
      };
      const code = await runCli(
        [
          'domain',
          'watch',
          `shop.${ZONE}`,
          '--target',
          `edge.${ZONE}`,
          '--resolver',
          dns.address,
          '--json',
        ],
        { stdout: (text) => lines.push(text), stderr: () => undefined, env: {}, timing },
      );
      expect(code).toBe(DOMAIN_EXIT.ok);
      const changes = lines.map(
        (line) => JSON.parse(line) as { status: string; checkedAt: string },
      );
      // Two changes only: waiting (at once; again 30 s later, unchanged, so not printed), then ready.
      expect(changes.map((c) => c.status)).toEqual(['pending', 'ready']);
      expect(changes.map((c) => Date.parse(c.checkedAt) - started)).toEqual([0, 60_000]);
      expect(virtual.sleeps).toEqual([30_000, 30_000]);
    } finally {
      await dns.close();
    }
  });
});
