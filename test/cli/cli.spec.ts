import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliDataDir } from '../../src/cli/data-folder.ts';
import { EXIT, runCli } from '../../src/cli/run.ts';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import { startInProcessApp } from '../support/in-process-app.ts';
import { answer, scriptedServer } from '../support/scripted-server.ts';

let sandbox: Sandbox;
// The CLI's data folder (each key's gate state); never the user's own in tests.
const dataDir = mkdtempSync(join(tmpdir(), 'store-admin-cli-'));

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, orders: 20, bigIds: true });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function cli(
  args: string[],
  env: Record<string, string | undefined> = { STORE_ADMIN_API_KEY: 'demo-pro' },
) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: { STORE_ADMIN_DATA_DIR: dataDir, ...env },
  });
  return { code, stdout, stderr };
}

/** Every opening quote of each kind has its closing one. */
function quotesBalance(text: string): boolean {
  const count = (c: string) => text.split(c).length - 1;
  return count('“') === count('”') && count('"') % 2 === 0 && count("'") % 2 === 0;
}

describe('store-admin CLI', () => {
  it('lists orders as a table with the quota', async () => {
    const { code, stdout } = await cli(['orders', 'list', '--base-url', sandbox.baseUrl]);
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(/^ID\s+PET ID\s+QTY\s+SHIP DATE\s+COMPLETE/);
    expect(stdout).toContain(`${sandbox.orderIds().length} orders.`);
    expect(stdout).toMatch(/Quota: \d+ of 300 requests left/);
  });

  it('lists orders as JSON with int64 ids as exact strings', async () => {
    const { code, stdout } = await cli(['orders', 'list', '--json', '--base-url', sandbox.baseUrl]);
    expect(code).toBe(EXIT.ok);
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({
      ok: true,
      count: sandbox.orderIds().length,
      quota: { known: true, limit: 300, plan: 'Pro' },
    });
    expect(out.orders.map((o: { id: string }) => o.id)).toEqual(sandbox.orderIds());
    expect(BigInt(out.orders[0].id)).toBeGreaterThan(2n ** 53n);
  });

  it('cancels with an exit code per outcome', async () => {
    const pending = sandbox.orderIds({ status: 'pending' })[0]!;
    const shipped = sandbox.orderIds({ status: 'shipped' })[0]!;
    const base = ['--base-url', sandbox.baseUrl];
    expect(await cli(['orders', 'cancel', pending, ...base])).toMatchObject({
      code: EXIT.ok,
      stdout: expect.stringContaining('was cancelled'),
    });
    expect(sandbox.orderStatus(pending)).toBe('cancelled');
    const again = await cli(['orders', 'cancel', pending, '--json', ...base]);
    expect(again.code).toBe(EXIT.notFound);
    expect(JSON.parse(again.stdout)).toMatchObject({
      ok: false,
      outcome: 'not-found',
      orderId: pending,
    });
    expect(await cli(['orders', 'cancel', shipped, ...base])).toMatchObject({
      code: EXIT.alreadyShipped,
      stderr: expect.stringContaining('already shipped'),
    });
  });

  it('reports failures as JSON with exit code 1', async () => {
    const { code, stdout } = await cli(['quota', '--json', '--base-url', sandbox.baseUrl], {
      STORE_ADMIN_API_KEY: 'nope',
    });
    expect(code).toBe(EXIT.failed);
    expect(JSON.parse(stdout)).toMatchObject({
      ok: false,
      error: { kind: 'unauthorized', status: 401 },
    });
  });

  it('names STORE_ADMIN_API_KEY for a refused key, not a Settings screen', async () => {
    const { code, stderr } = await cli(['orders', 'list', '--base-url', sandbox.baseUrl], {
      STORE_ADMIN_API_KEY: 'nope',
    });
    expect(code).toBe(EXIT.failed);
    expect(stderr).toContain('Check the key in the STORE_ADMIN_API_KEY environment variable.');
    expect(stderr).not.toContain('Settings');
  });

  it('says "not found" for an id that was never listed, not "no longer exists"', async () => {
    const { code, stderr } = await cli([
      'orders',
      'cancel',
      '123456789',
      '--base-url',
      sandbox.baseUrl,
    ]);
    expect(code).toBe(EXIT.notFound);
    expect(stderr).toContain('Order 123456789 was not found');
    expect(stderr).not.toContain('no longer exists');
  });

  it('reports an order gone after a lost answer with its own outcome and exit code', async () => {
    const server = await scriptedServer((req, res, i) => {
      if (i === 0) req.socket.destroy();
      else answer(res, 404, { code: 'order_not_found', message: 'Order not found', status: 404 });
    });
    try {
      const { code, stdout } = await cli([
        'orders',
        'cancel',
        '424242',
        '--json',
        '--base-url',
        server.baseUrl,
      ]);
      expect(code).toBe(EXIT.gone);
      expect(JSON.parse(stdout)).toMatchObject({
        ok: false,
        outcome: 'gone',
        message: `Order 424242 is gone: the first try was sent, but the connection ended before the store service at ${new URL(server.baseUrl).host} answered, so this cancel may or may not have removed it.`,
      });
    } finally {
      await server.close();
    }
  });

  it('exits 8 at once, sending nothing, while a long hold is on; the time is in the message', async () => {
    let requests = 0;
    const server = await scriptedServer((_req, res) => {
      requests += 1;
      answer(
        res,
        429,
        { code: 'rate_limited', message: 'Slow down', status: 429 },
        { 'retry-after': '600' },
      );
    });
    try {
      const base = ['--base-url', server.baseUrl];
      const first = await cli(['orders', 'cancel', '5', ...base]);
      expect(first.code).toBe(EXIT.held);
      const second = await cli(['orders', 'cancel', '6', '--json', ...base]);
      expect(second.code).toBe(EXIT.held);
      expect(JSON.parse(second.stdout)).toMatchObject({
        ok: false,
        error: { kind: 'rate-limited', delivery: 'not-sent', retryAt: expect.any(Number) },
      });
      expect(JSON.parse(second.stdout).error.message).toMatch(
        /^Rate-limited until \d\d:\d\d:\d\d( tomorrow)?\. .*Nothing was sent\./,
      );
      expect(requests).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('explains bad usage with exit code 2', async () => {
    const unknown = await cli(['orders', 'frobnicate', '--base-url', sandbox.baseUrl]);
    expect(unknown.code).toBe(EXIT.usage);
    // It lists the commands there are.
    expect(unknown.stderr).toContain('unknown command “orders frobnicate”');
    for (const command of [
      'orders list',
      'orders cancel <id>',
      'quota',
      'domain check',
      'domain cert',
    ])
      expect(unknown.stderr).toContain(command);
    expect(await cli(['orders', 'list', '--base-url', 'http://example.com/v1'])).toMatchObject({
      code: EXIT.usage,
      stderr: expect.stringContaining('https://'),
    });
    expect(await cli(['orders', 'list', '--base-url', sandbox.baseUrl], {})).toMatchObject({
      code: EXIT.usage,
      stderr: expect.stringContaining('STORE_ADMIN_API_KEY'),
    });
    // An id that is not an order number is bad usage, as the README says.
    for (const bad of ['abc', '12.5', '9223372036854775808', '007']) {
      expect(await cli(['orders', 'cancel', bad, '--base-url', sandbox.baseUrl])).toMatchObject({
        code: EXIT.usage,
        stderr: expect.stringContaining('not an order number'),
      });
    }
    expect(await cli(['--help'])).toMatchObject({
      code: EXIT.ok,
      stdout: expect.stringContaining('Usage: store-admin'),
    });
  });

  it('balances the quotes of every usage message', async () => {
    const cases = [
      ['orders', 'list', '--frobnicate'],
      ['orders', 'cancel', '-5'],
      ['orders', 'list', '--base-url'],
      ['orders', 'list', '--json=yes'],
      ['orders', 'cancel', 'x"y'],
      ['orders', 'frob"nicate'],
      ['domain', 'check', 'shop.example.com'],
      ['domain', 'frob'],
    ];
    for (const args of cases) {
      const { code, stderr } = await cli(args);
      expect(code, args.join(' ')).toBe(EXIT.usage);
      expect(stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(quotesBalance(stderr.replace(/“[^”]*”/g, '')), stderr).toBe(true);
    }
  });

  it('shares the gate with the app on this computer for the same key and address', async () => {
    let requests = 0;
    const server = await scriptedServer((_req, res) => {
      requests += 1;
      answer(
        res,
        429,
        { code: 'api_key_banned', message: 'Banned for 15 minutes', status: 429 },
        { 'retry-after': '900' },
      );
    });
    // The app's data folder is the CLI's (STORE_ADMIN_DATA_DIR here, the same folder by default).
    const app = await startInProcessApp({ dataDir });
    try {
      await app.api.environments.setBaseUrl('staging', server.baseUrl);
      await app.api.keys.set('staging', 'stg-shared-key');
      expect(await app.api.orders.list('staging')).toMatchObject({ error: { kind: 'banned' } });
      const run = await cli(['orders', 'list', '--json', '--base-url', server.baseUrl], {
        STORE_ADMIN_API_KEY: 'stg-shared-key',
      });
      expect(run.code).toBe(EXIT.held);
      expect(JSON.parse(run.stdout)).toMatchObject({
        error: { kind: 'banned', delivery: 'not-sent' },
      });
      expect(requests).toBe(1);
    } finally {
      await app.close();
      await server.close();
    }
  });

  it("keeps its data in the app's data folder unless told otherwise", () => {
    // Joined with this system's separator, as the app's own paths are (on Windows too).
    const home = join('home', 'clerk');
    expect(cliDataDir({}, 'linux', home)).toBe(join(home, '.config', 'Store Admin', 'local-data'));
    expect(cliDataDir({ XDG_CONFIG_HOME: 'cfg' }, 'linux', home)).toBe(
      join('cfg', 'Store Admin', 'local-data'),
    );
    expect(cliDataDir({}, 'darwin', home)).toBe(
      join(home, 'Library', 'Application Support', 'Store Admin', 'local-data'),
    );
    expect(cliDataDir({ APPDATA: 'roaming' }, 'win32', home)).toBe(
      join('roaming', 'Store Admin', 'local-data'),
    );
    expect(cliDataDir({}, 'win32', home)).toBe(
      join(home, 'AppData', 'Roaming', 'Store Admin', 'local-data'),
    );
    const mine = join(tmpdir(), 'store-admin-elsewhere');
    expect(cliDataDir({ STORE_ADMIN_DATA_DIR: mine }, 'linux', home)).toBe(mine);
  });

  it('runs as a process through the bin with the exit code of the outcome', async () => {
    const run = promisify(execFile);
    const shipped = sandbox.orderIds({ status: 'shipped' })[1]!;
    const failure = await run(
      process.execPath,
      ['bin/store-admin.js', 'orders', 'cancel', shipped, '--json', '--base-url', sandbox.baseUrl],
      {
        env: { ...process.env, STORE_ADMIN_API_KEY: 'demo-pro', STORE_ADMIN_DATA_DIR: dataDir },
      },
    ).catch((error: { code: number; stdout: string }) => error);
    expect(failure).toMatchObject({ code: EXIT.alreadyShipped });
    expect(JSON.parse((failure as { stdout: string }).stdout)).toMatchObject({
      outcome: 'already-shipped',
    });
  });
});
