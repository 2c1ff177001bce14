// Debian's nginx in front of the sandbox, for tests of what real HTTP
// machinery does between the app and the service: a gateway's own 429
// (limit_req), a compressed list (gzip, gzip_static), chunked bodies, short
// keep-alives, a proxy that sends a request again (proxy_next_upstream), TLS
// with a CA of its own, an upstream that is down. Each nginx runs in a folder
// of its own with a config the test writes, on 127.0.0.1, as a child process
// that is not a daemon (`-g 'daemon off; master_process off; …'`), and logs
// every request it answers as one JSON line, so what reached the gateway is
// counted, not assumed.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Debian's nginx (`apt-get install nginx-light`; .ci/run installs it). */
export const NGINX_BINARY = '/usr/sbin/nginx';

export function nginxInstalled(): boolean {
  return existsSync(NGINX_BINARY);
}

/**
 * Whether the tests behind nginx run here: Debian's nginx, so on Linux, where
 * it must be installed (a missing one fails them, saying how to install it);
 * elsewhere they are skipped, saying why.
 */
export const nginxRunsHere = process.platform === 'linux';
/** What a test behind nginx says where it is skipped. */
export const NGINX_RUNS_ON = "Debian's nginx, on Linux";

export interface NginxContext {
  /** The port nginx listens on, on 127.0.0.1. */
  readonly port: number;
  /** The folder nginx runs in (its prefix): files the test wrote are here. */
  readonly prefix: string;
}

export interface NginxOptions {
  /**
   * What goes in the config's `http` block besides the logging and the
   * temporary folders this module sets: the `server` blocks (listening on
   * `127.0.0.1:${port}`), upstreams, zones.
   */
  readonly http: (context: NginxContext) => string;
  /** Files to write in nginx's folder before it starts (path within it → content). */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
}

/** One request nginx answered, from its access log. */
export interface AccessLogEntry {
  /** When nginx finished with it, epoch ms. */
  readonly at: number;
  /** How long nginx took with it, ms. */
  readonly ms: number;
  readonly method: string;
  readonly uri: string;
  /** What nginx answered. */
  readonly status: number;
  /** What each upstream attempt answered ("502, 404": nginx sent the request twice). */
  readonly upstreamStatus: string;
  /** The upstream of each attempt, in the same order. */
  readonly upstreamAddress: string;
  /** Bytes of the body nginx sent (after compression). */
  readonly bodyBytes: number;
  readonly contentEncoding: string;
}

export interface Nginx {
  readonly port: number;
  readonly prefix: string;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** The requests answered so far, oldest first. */
  accessLog(): Promise<AccessLogEntry[]>;
  /** The raw access log, one JSON line per request (for a report). */
  accessLogText(): Promise<string>;
  errorLog(): Promise<string>;
  /** Stops nginx (waits for it) and removes its folder. */
  stop(): Promise<void>;
}

const LOG_FORMAT = [
  '"at":$msec',
  '"ms":"$request_time"',
  '"method":"$request_method"',
  '"uri":"$request_uri"',
  '"status":$status',
  '"upstreamStatus":"$upstream_status"',
  '"upstreamAddress":"$upstream_addr"',
  '"bodyBytes":$body_bytes_sent',
  '"contentEncoding":"$sent_http_content_encoding"',
].join(',');

function config(prefix: string, http: string): string {
  const temp = (name: string) => join(prefix, 'temp', name);
  return `worker_processes 1;
error_log ${join(prefix, 'error.log')} info;
events { worker_connections 256; }
http {
  log_format store_admin escape=json '{${LOG_FORMAT}}';
  access_log ${join(prefix, 'access.log')} store_admin;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  types { application/json json; text/html html; }
  default_type application/octet-stream;
${http}
}
`;
}

/** A port that was free a moment ago on 127.0.0.1 (nginx cannot listen on port 0 and say which). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Resolves once the port accepts connections; rejects if nginx exits first, or after 15 s. */
async function ready(child: ChildProcess, port: number, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`nginx stopped at start: ${stderr().trim()}`);
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`nginx did not listen on 127.0.0.1:${port} within 15 s: ${stderr().trim()}`);
}

/** Starts nginx with a config of its own in a new folder; retries on a port taken meanwhile. */
export async function startNginx(options: NginxOptions): Promise<Nginx> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      if (attempt >= 3 || !/Address already in use/.test(String(error))) throw error;
    }
  }
}

async function startOnce(options: NginxOptions): Promise<Nginx> {
  if (!nginxInstalled())
    throw new Error(
      `Debian's nginx is not installed at ${NGINX_BINARY}: apt-get install -y nginx-light (.ci/run does).`,
    );
  const prefix = await mkdtemp(join(tmpdir(), 'store-admin-nginx-'));
  const port = await freePort();
  for (const name of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    await mkdir(join(prefix, 'temp', name), { recursive: true });
  for (const [path, content] of Object.entries(options.files ?? {})) {
    await mkdir(dirname(join(prefix, path)), { recursive: true });
    await writeFile(join(prefix, path), content);
  }
  const file = join(prefix, 'nginx.conf');
  await writeFile(file, config(prefix, options.http({ port, prefix })));
  await writeFile(join(prefix, 'access.log'), '');
  // One process, as the user running the tests: no workers to switch to another user.
  const child = spawn(
    NGINX_BINARY,
    [
      '-p',
      prefix,
      '-e',
      join(prefix, 'error.log'),
      '-c',
      file,
      '-g',
      `daemon off; master_process off; pid ${join(prefix, 'nginx.pid')};`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await ready(child, port, () => stderr);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    const log = await readFile(join(prefix, 'error.log'), 'utf8').catch(() => '');
    await rm(prefix, { recursive: true, force: true });
    throw new Error(`${(error as Error).message} ${log.split('\n').slice(-5).join(' ')}`, {
      cause: error,
    });
  }
  const accessLogText = () => readFile(join(prefix, 'access.log'), 'utf8');
  return {
    port,
    prefix,
    origin: `http://127.0.0.1:${port}`,
    accessLogText,
    async accessLog() {
      const text = await accessLogText();
      return text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => {
          const raw = JSON.parse(line) as Omit<AccessLogEntry, 'at' | 'ms'> & {
            at: number;
            ms: string;
          };
          return { ...raw, at: Math.round(raw.at * 1000), ms: Math.round(Number(raw.ms) * 1000) };
        });
    },
    errorLog: () => readFile(join(prefix, 'error.log'), 'utf8'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killed = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(killed);
      }
      await rm(prefix, { recursive: true, force: true });
    },
  };
}
