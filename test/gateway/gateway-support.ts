// What the tests behind Debian's nginx share: the sandbox with nginx in front
// of it (tools/nginx), the store-admin command run against nginx's address,
// and the figures read from nginx's access log.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/main/sandbox/server.ts';
import {
  NGINX_RUNS_ON,
  nginxRunsHere,
  startNginx,
  type AccessLogEntry,
  type Nginx,
} from '../../tools/nginx/nginx.ts';
import { runCliProcess, type CliRun } from '../support/cli-process.ts';

/** The tests of a file behind nginx, which runs on Linux only: elsewhere they are skipped, saying so. */
export function describeBehindNginx(name: string, tests: () => void): void {
  describe.skipIf(!nginxRunsHere)(`${name} (${NGINX_RUNS_ON})`, () => {
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
    tests();
  });
}

/** What a test started (stacks, apps), ended after it by describeBehindNginx, the last first. */
const cleanups: Array<() => Promise<void>> = [];

/** Ends `cleanup` after the test, before the stacks it started earlier. */
export function afterThisTest(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

export interface Stack {
  readonly sandbox: Sandbox;
  readonly nginx: Nginx;
  /** nginx's address as the service's base URL (…/v1). */
  readonly baseUrl: string;
  /** A data folder of its own for store-admin runs. */
  readonly dataDir: string;
  close(): Promise<void>;
}

/** A `location /` that passes everything to `upstream` (a host:port, or an upstream block's name). */
export function proxyTo(upstream: string, more = ''): string {
  return `location / {
      proxy_pass http://${upstream};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      ${more}
    }`;
}

/** The sandbox, and nginx in front of it with the `server` block `server(sandboxPort, port)`. */
export async function sandboxBehindNginx(
  server: (upstreamPort: number, port: number) => string,
  options: SandboxOptions & { readonly http?: string } = {},
): Promise<Stack> {
  const sandbox = await startSandbox({ port: 0, orders: 200, ...options });
  let nginx: Nginx;
  try {
    nginx = await startNginx({
      http: ({ port }) => `${options.http ?? ''}\n  ${server(sandbox.port, port)}`,
    });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'store-admin-gateway-'));
  const stack: Stack = {
    sandbox,
    nginx,
    baseUrl: `${nginx.origin}/v1`,
    dataDir,
    async close() {
      await Promise.all([nginx.stop(), sandbox.close()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  afterThisTest(() => stack.close());
  return stack;
}

/**
 * nginx limiting each address to `rate` (e.g. '2r/s', '1r/m') with no burst,
 * answering its own 429 page, with a Retry-After when `retryAfterSeconds` is given.
 */
export function limitedGateway(rate: string, retryAfterSeconds?: number): Promise<Stack> {
  return sandboxBehindNginx(
    (upstream, port) => `server {
    listen 127.0.0.1:${port};
    limit_req zone=api;
    limit_req_status 429;
    ${retryAfterSeconds === undefined ? '' : `add_header Retry-After ${retryAfterSeconds} always;`}
    ${proxyTo(`127.0.0.1:${upstream}`)}
  }`,
    { http: `limit_req_zone $binary_remote_addr zone=api:1m rate=${rate};` },
  );
}

/** store-admin against `baseUrl`, with the stack's folders and the demo Pro key. */
export function cli(
  stack: Pick<Stack, 'baseUrl' | 'dataDir'>,
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 120_000,
): Promise<CliRun> {
  return runCliProcess(
    [...args, '--base-url', stack.baseUrl],
    {
      STORE_ADMIN_API_KEY: 'demo-pro',
      STORE_ADMIN_DATA_DIR: stack.dataDir,
      STORE_ADMIN_CACHE_DIR: join(stack.dataDir, 'cache'),
      ...env,
    },
    timeoutMs,
  );
}

export interface RunFigures {
  readonly requests: number;
  readonly gateway429s: number;
  /** The longest time between two requests reaching nginx (the longest hold), ms. */
  readonly longestGapMs: number;
  /** Requests over the run's span, per second. */
  readonly perSecond: number;
  /** The most requests that reached nginx within any one second. */
  readonly busiestSecond: number;
  readonly spanMs: number;
}

/** What nginx's access log says of a run: counts, pace and the longest hold. */
export function figuresOf(log: readonly AccessLogEntry[]): RunFigures {
  const at = log.map((entry) => entry.at - entry.ms).sort((a, b) => a - b);
  const gaps = at.slice(1).map((t, i) => t - at[i]!);
  const spanMs = at.length > 1 ? at.at(-1)! - at[0]! : 0;
  let busiest = 0;
  for (let i = 0, j = 0; i < at.length; i++) {
    while (at[i]! - at[j]! >= 1000) j++;
    busiest = Math.max(busiest, i - j + 1);
  }
  return {
    requests: log.length,
    gateway429s: log.filter((entry) => entry.status === 429 && entry.upstreamStatus === '').length,
    longestGapMs: gaps.length > 0 ? Math.max(...gaps) : 0,
    perSecond: spanMs > 0 ? Math.round(((at.length - 1) / spanMs) * 1000 * 100) / 100 : 0,
    busiestSecond: busiest,
    spanMs,
  };
}
