import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCliArgs, UsageError } from '../../../src/main/sandbox/cli.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
/**
 * The Node running the tests (the project's Node 24, which strips the
 * sandbox's types), by its own path: node_modules/.bin/node is a shell
 * script, or a .cmd on Windows, that a spawn without a shell cannot start.
 */
const node = process.execPath;
/**
 * Windows has no signals between processes: kill() ends the child outright
 * whatever it is given, so a clean close on SIGTERM or SIGINT shows only
 * where signals exist.
 */
const SIGNALS = process.platform !== 'win32';
const NO_SIGNALS = ' (skipped on Windows: no signal reaches another process there)';
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function runCli(args: string[]): {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
} {
  const child = spawn(node, ['src/main/sandbox/cli.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  return { child, stdout: () => out, stderr: () => err };
}

async function waitFor<T>(read: () => T | undefined, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('sandbox CLI', () => {
  it('prints its base URL and keys, and serves', async () => {
    const run = runCli([
      '--port',
      '0',
      '--orders',
      '12',
      '--big-ids',
      '--key',
      'pro=cli-pro',
      '--key',
      'free=cli-free',
    ]);
    const baseUrl = await waitFor(
      () =>
        run.stdout().includes('cli-free')
          ? /(http:\/\/127\.0\.0\.1:[0-9]+\/v1)\b/.exec(run.stdout())?.[1]
          : undefined,
      'the base URL',
    );
    const lines = run.stdout().trim().split('\n');
    expect(lines[0]).toBe(`Store sandbox listening at ${baseUrl}`);
    expect(lines.slice(1).map((l) => l.trim().split(/\s+/))).toEqual([
      ['Accepted', 'API', 'keys', '(plan', 'key):'],
      ['pro', 'cli-pro'],
      ['free', 'cli-free'],
    ]);

    const response = await fetch(`${baseUrl}/store/orders`, {
      headers: { Authorization: 'Bearer cli-pro' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-RateLimit-Limit')).toBe('300');
    const text = await response.text();
    expect(text.startsWith('[{"id":9007199254740993,')).toBe(true);
    const demo = await fetch(`${baseUrl}/store/orders`, {
      headers: { Authorization: 'Bearer demo-pro' },
    });
    expect(demo.status).toBe(401);

    expect(run.stderr()).toBe('');
  });

  it.runIf(SIGNALS)(`closes cleanly on SIGTERM${SIGNALS ? '' : NO_SIGNALS}`, async () => {
    const run = runCli(['--port', '0', '--orders', '3']);
    await waitFor(() => (run.stdout().includes('demo-enterprise') ? true : undefined), 'the keys');
    run.child.kill('SIGTERM');
    const [code] = (await once(run.child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(run.stderr()).toBe('');
  });

  it('applies its options', async () => {
    const run = runCli([
      '--port',
      '0',
      '--orders',
      '3',
      '--faults',
      '5xx@1',
      '--minute-ms',
      '1000',
    ]);
    const baseUrl = await waitFor(
      () =>
        run.stdout().includes('demo-enterprise')
          ? /(http:\S+\/v1)/.exec(run.stdout())?.[1]
          : undefined,
      'the base URL',
    );
    expect(run.stdout()).toMatch(
      /free\s+demo-free\n.*pro\s+demo-pro\n.*business\s+demo-business\n.*enterprise\s+demo-enterprise/s,
    );
    const response = await fetch(`${baseUrl}/store/orders`, {
      headers: { Authorization: 'Bearer demo-free' },
    });
    expect(response.status).toBe(503);
  });

  it.runIf(SIGNALS)(`closes cleanly on SIGINT (Ctrl-C)${SIGNALS ? '' : NO_SIGNALS}`, async () => {
    const run = runCli(['--port', '0', '--orders', '3']);
    await waitFor(() => (run.stdout().includes('demo-enterprise') ? true : undefined), 'the keys');
    run.child.kill('SIGINT');
    const [code] = (await once(run.child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  it.each([
    [['--port', 'eighty'], /--port must be an integer/],
    [['--orders', '1.5'], /--orders must be an integer/],
    [['--orders=-3'], /--orders must be an integer/],
    [['--orders', '-3'], /'--orders' argument is ambiguous/],
    [['--faults', 'latency@0.5'], /--faults: Invalid fault spec "latency@0.5"/],
    [['--key', 'gold=abc'], /--key must read PLAN=KEY/],
    [['--retry-after', 'minutes'], /--retry-after must be "seconds" or "http-date"/],
    [['--frobnicate'], /Unknown option '--frobnicate'/],
    [['stray'], /positional argument/],
  ])('exits 2 with one error line for %j', async (args, message) => {
    const run = runCli(args);
    const [code] = (await once(run.child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(run.stdout()).toBe('');
    const lines = run.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^sandbox: /);
    expect(lines[0]).toMatch(message);
  });

  it('serves HTTPS with --tls, its CA written where --tls-ca says', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sandbox-tls-'));
    try {
      const caFile = join(folder, 'nested', 'ca.pem');
      const run = runCli(['--port', '0', '--orders', '2', '--tls', '--tls-ca', caFile]);
      const port = await waitFor(
        () =>
          run.stdout().includes('demo-enterprise')
            ? /https:\/\/127\.0\.0\.1:([0-9]+)\/v1\b/.exec(run.stdout())?.[1]
            : undefined,
        'the base URL',
      );
      expect(run.stdout()).toContain(`Also at https://localhost:${port}/v1\n`);
      expect(run.stdout()).toContain(
        `CA certificate: ${caFile} (trust it with NODE_EXTRA_CA_CERTS=${caFile})\n`,
      );
      const ca = readFileSync(caFile, 'utf8');
      expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
      // Trusted through the CA file alone, under both loopback names.
      for (const host of ['localhost', '127.0.0.1']) {
        const status = await new Promise<number | undefined>((resolve, reject) =>
          get(
            {
              host,
              port,
              path: '/v1/store/orders',
              ca,
              headers: { authorization: 'Bearer demo-pro' },
            },
            (response) => {
              response.resume();
              resolve(response.statusCode);
            },
          ).on('error', reject),
        );
        expect(status).toBe(200);
      }
      // Without it, the certificate is refused.
      await expect(
        new Promise((resolve, reject) =>
          get({ host: 'localhost', port, path: '/v1/store/orders' }, resolve).on('error', reject),
        ),
      ).rejects.toMatchObject({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('exits 2 for a key the server cannot accept', async () => {
    const run = runCli(['--port', '0', '--key', 'free=has"quote']);
    const [code] = (await once(run.child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(run.stderr().trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr()).toMatch(/bearer token/);
  });
});

describe('parseCliArgs', () => {
  it('maps every option', () => {
    expect(
      parseCliArgs([
        '--port',
        '0',
        '--orders',
        '1000000',
        '--seed',
        '42',
        '--minute-ms',
        '500',
        '--day-ms',
        '5000',
        '--big-ids',
        '--faults',
        'reset@0.5',
        '--key',
        'enterprise=e1',
        '--enterprise-limits',
        '100/2000',
        '--retry-after',
        'http-date',
        '--ban-after',
        '3',
        '--ban-ms',
        '9000',
        '--bandwidth',
        '50',
      ]),
    ).toEqual({
      port: 0,
      orders: 1_000_000,
      seed: 42,
      minuteMs: 500,
      dayMs: 5000,
      bigIds: true,
      faults: [{ kind: 'reset', rate: 0.5 }],
      keys: [{ plan: 'enterprise', key: 'e1' }],
      enterpriseLimits: { perMinute: 100, perDay: 2000 },
      retryAfterFormat: 'http-date',
      banAfter: 3,
      banMs: 9000,
      bytesPerSecond: 50_000_000,
    });
  });

  it('serves HTTPS with --tls, the CA file resolved from where it runs', () => {
    expect(parseCliArgs(['--tls'])).toEqual({ port: 4010, bigIds: false, https: {} });
    expect(parseCliArgs(['--tls', '--tls-ca', 'ca.pem'])).toEqual({
      port: 4010,
      bigIds: false,
      https: { caFile: join(process.cwd(), 'ca.pem') },
    });
  });

  it('defaults to port 4010 and nothing else', () => {
    expect(parseCliArgs([])).toEqual({ port: 4010, bigIds: false });
    expect(parseCliArgs(['--help'])).toEqual({ help: true });
  });

  it('throws UsageError for bad values', () => {
    expect(() => parseCliArgs(['--ban-after', '0'])).toThrow(UsageError);
    expect(() => parseCliArgs(['--enterprise-limits', '100'])).toThrow(/per day/);
    expect(() => parseCliArgs(['--seed', '1.5'])).toThrow(/--seed/);
    expect(() => parseCliArgs(['--bandwidth', '0'])).toThrow(/--bandwidth/);
    expect(() => parseCliArgs(['--bandwidth', 'fast'])).toThrow(/--bandwidth/);
    expect(() => parseCliArgs(['--tls-ca', 'ca.pem'])).toThrow('--tls-ca names where --tls');
  });
});
