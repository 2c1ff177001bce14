import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, runCli } from '../../src/cli/run.ts';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, orders: 20, bigIds: true });
});
afterAll(() => sandbox.close());

async function cli(
  args: string[],
  env: Record<string, string | undefined> = { STORE_ADMIN_API_KEY: 'demo-pro' },
) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env,
  });
  return { code, stdout, stderr };
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

  it('explains bad usage with exit code 2', async () => {
    expect(await cli(['orders', 'frobnicate', '--base-url', sandbox.baseUrl])).toMatchObject({
      code: EXIT.usage,
      stderr: expect.stringContaining('unknown command'),
    });
    expect(await cli(['orders', 'list', '--base-url', 'http://example.com/v1'])).toMatchObject({
      code: EXIT.usage,
      stderr: expect.stringContaining('https://'),
    });
    expect(await cli(['orders', 'list', '--base-url', sandbox.baseUrl], {})).toMatchObject({
      code: EXIT.usage,
      stderr: expect.stringContaining('STORE_ADMIN_API_KEY'),
    });
    expect(await cli(['orders', 'cancel', 'abc', '--base-url', sandbox.baseUrl])).toMatchObject({
      code: EXIT.failed,
      stderr: expect.stringContaining('not an order number'),
    });
    expect(await cli(['--help'])).toMatchObject({
      code: EXIT.ok,
      stdout: expect.stringContaining('Usage: store-admin'),
    });
  });

  it('runs as a process through the bin with the exit code of the outcome', async () => {
    const run = promisify(execFile);
    const shipped = sandbox.orderIds({ status: 'shipped' })[1]!;
    const failure = await run(
      process.execPath,
      ['bin/store-admin.js', 'orders', 'cancel', shipped, '--json', '--base-url', sandbox.baseUrl],
      {
        env: { ...process.env, STORE_ADMIN_API_KEY: 'demo-pro' },
      },
    ).catch((error: { code: number; stdout: string }) => error);
    expect(failure).toMatchObject({ code: EXIT.alreadyShipped });
    expect(JSON.parse((failure as { stdout: string }).stdout)).toMatchObject({
      outcome: 'already-shipped',
    });
  });
});
