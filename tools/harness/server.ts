// Development harness (`npm run harness`), never part of the packaged app:
// serves the built renderer to a real browser and answers the same typed IPC
// contract, through the real main-process services, over loopback HTTP.
// Guarded by a random token, a Host check (against DNS rebinding) and an
// Origin check; events stream as server-sent events, and an order list's
// rows as binary bodies the page fetches one after another (stream-frames.ts),
// as Electron sends them over a MessagePort.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, mkdirSync, existsSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { build } from 'vite';
import { createAppServices } from '../../src/main/app-services.ts';
import type { RecheckSchedule } from '../../src/main/domains/recheck-schedule.ts';
import {
  DEFAULT_SETTINGS,
  type EnvironmentService,
  type Settings,
} from '../../src/main/environments/environment-service.ts';
import { parseSettings } from '../../src/main/environments/settings.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import type { Emit } from '../../src/main/ipc/handlers.ts';
import { KeyStore } from '../../src/main/keys/key-store.ts';
import { MemoryCiphertextStore } from '../../src/main/keys/memory-ciphertext-store.ts';
import { declineKeyForOrigin } from '../../src/main/keys/origin-confirmation.ts';
import type { LocalFiles } from '../../src/main/local-data/local-files.ts';
import type { SafeStorageLike } from '../../src/main/keys/storage-protection.ts';
import type { EventName, EventPayloads } from '../../src/shared/ipc-contract.ts';
import { ORDER_STREAM_PORT, STREAM_ID_PATTERN } from '../../src/shared/order-stream.ts';
import type { OpenOrderStream } from '../../src/main/orders/order-stream.ts';
import { appIcon } from './app-icon.ts';
import { bodyLength, encodeFrame, framePrefix } from './stream-frames.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const MAX_BODY = 1024 * 1024;
/**
 * Strings this long (an order list's body) travel beside the JSON result, as
 * raw text fetched once: escaping 90 MB inside JSON costs seconds, which
 * Electron's IPC (a structured clone) does not.
 */
const BLOB_MIN_CHARS = 256 * 1024;
const BLOB_TTL_MS = 60_000;
/** How long a fetch of a stream's next part waits for one before the page is told to ask again. */
const STREAM_POLL_MS = 25_000;
/** A stream nobody has fetched from for this long is dropped (the page went away). */
const STREAM_TTL_MS = 60_000;

/** An order list's parts waiting for the page, in order. */
interface HarnessStream {
  readonly frames: Uint8Array[];
  ended: boolean;
  touchedAt: number;
  /** A fetch waiting for the next part. */
  wake: (() => void) | undefined;
}

/** Replaces long strings anywhere in `value` with {$harnessBlob: id}, keeping them in `blobs`. */
function lift(value: unknown, blobs: Map<string, { text: string; at: number }>): unknown {
  if (typeof value === 'string' && value.length >= BLOB_MIN_CHARS) {
    const id = randomBytes(12).toString('hex');
    blobs.set(id, { text: value, at: Date.now() });
    return { $harnessBlob: id };
  }
  if (Array.isArray(value)) return value.map((item) => lift(item, blobs));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lift(v, blobs)]));
  }
  return value;
}

/** The harness has no OS secret store: keys stay in memory for the session, and the app says so. */
const noEncryption: SafeStorageLike = {
  isAsyncEncryptionAvailable: async () => false,
  encryptStringAsync: () => Promise.reject(new Error('no encryption in the harness')),
  decryptStringAsync: () => Promise.reject(new Error('no encryption in the harness')),
};

export interface HarnessOptions {
  readonly port?: number;
  /** Settings and local data; a fresh temporary folder per test. */
  readonly dataDir: string;
  /** Where the sandbox environment points (a sandbox the caller runs). */
  readonly sandbox: { readonly baseUrl: string; readonly key: string };
  /** Built renderer (electron-vite build). */
  readonly rendererDir?: string;
  /** Told of every event main pushes, as it is pushed (the benchmarks time the download by them). */
  readonly onEvent?: <E extends EventName>(event: E, payload: EventPayloads[E]) => void;
  /** How local data reaches the disk (the end-to-end tests inject one that fails as a full disk would). */
  readonly files?: LocalFiles;
  /** When watched domains are checked again; the interface's schedule unless a test gives a shorter one. */
  readonly recheckSchedule?: RecheckSchedule;
}

export interface Harness {
  /** The page to open, token included. */
  readonly url: string;
  readonly origin: string;
  readonly service: EnvironmentService;
  close(): Promise<void>;
}

let bridgeCode: Promise<string> | undefined;

async function buildBridge(): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: {
        entry: join(ROOT, 'tools/harness/bridge.ts'),
        formats: ['iife'],
        name: 'storeAdminHarness',
      },
      rollupOptions: { output: { entryFileNames: 'bridge.js' } },
    },
  });
  const outputs = Array.isArray(output) ? output : [output];
  for (const result of outputs) {
    if ('output' in result) {
      const chunk = result.output.find((item) => item.type === 'chunk');
      if (chunk && 'code' in chunk) return chunk.code;
    }
  }
  throw new Error('the harness bridge did not build');
}

function fileSettings(dataDir: string) {
  const file = join(dataDir, 'settings.json');
  return {
    read: (): Settings =>
      existsSync(file) ? parseSettings(JSON.parse(readFileSync(file, 'utf8'))) : DEFAULT_SETTINGS,
    // A new file renamed into place: a full disk or a crash leaves the old one whole.
    write: (settings: Settings) => {
      writeFileSync(`${file}.tmp`, JSON.stringify(settings));
      renameSync(`${file}.tmp`, file);
    },
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Whether `file` lies inside `dir`, compared by whole path segments ("renderer-private" is not inside "renderer"). */
function isInside(dir: string, file: string): boolean {
  const path = relative(dir, file);
  return path !== '' && !isAbsolute(path) && path.split(sep)[0] !== '..';
}

/** The body of an invoke: {channel, args}, or undefined for anything else (null, an array, ...). */
function readCall(text: string): { channel: unknown; args: unknown } | undefined {
  let call: unknown;
  try {
    call = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return undefined;
  const { channel, args } = call as { channel?: unknown; args?: unknown };
  return { channel, args };
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const rendererDir = resolve(options.rendererDir ?? join(ROOT, 'out/renderer'));
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(`No built renderer in ${rendererDir}: run "npm run build" first.`);
  }
  mkdirSync(options.dataDir, { recursive: true });
  bridgeCode ??= buildBridge();
  const bridge = await bridgeCode;
  const token = randomBytes(24).toString('hex');

  const services = createAppServices({
    dataDir: join(options.dataDir, 'local-data'),
    settings: fileSettings(options.dataDir),
    keys: new KeyStore({
      safeStorage: noEncryption,
      store: new MemoryCiphertextStore(),
      platform: 'linux',
    }),
    // No window of main's own to ask in: a key moved to another address is entered again.
    confirmKeyForOrigin: declineKeyForOrigin,
    startSandbox: async () => ({ ...options.sandbox, close: async () => undefined }),
    ...(options.files ? { files: options.files } : {}),
    ...(options.recheckSchedule ? { recheckSchedule: options.recheckSchedule } : {}),
  });
  const streams = new Set<ServerResponse>();
  const emit: Emit = <E extends EventName>(event: E, payload: EventPayloads[E]) => {
    options.onEvent?.(event, payload);
    const data = `data: ${JSON.stringify({ event, payload })}\n\n`;
    for (const stream of streams) stream.write(data);
  };
  const orderStreams = new Map<string, HarnessStream>();
  /** Main's side of a list's stream: parts queue here until the page fetches them. */
  const openOrderStream: OpenOrderStream = (streamId) => {
    const stream: HarnessStream = {
      frames: [],
      ended: false,
      touchedAt: Date.now(),
      wake: undefined,
    };
    orderStreams.set(streamId, stream);
    // The page's bridge opens a MessagePort for it, as the preload does with Electron's.
    const data = `data: ${JSON.stringify({ event: ORDER_STREAM_PORT, payload: { streamId } })}\n\n`;
    for (const eventStream of streams) eventStream.write(data);
    const wake = () => {
      const waiting = stream.wake;
      stream.wake = undefined;
      waiting?.();
    };
    return {
      post: (message) => {
        stream.frames.push(encodeFrame(message));
        wake();
      },
      close: () => {
        stream.ended = true;
        wake();
      },
    };
  };
  const handlers = services.handlers(emit, openOrderStream);
  const service = services.service;
  await services.resumeWork();

  const blobs = new Map<string, { text: string; at: number }>();
  let origin = '';
  const tokenOk = (given: string | null | undefined): boolean => {
    const a = Buffer.from(given ?? '');
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  /**
   * The page's own requests only. Browsers send Origin on every cross-origin
   * request (and on same-origin POSTs), and Sec-Fetch-Site on all of them; a
   * same-origin GET may carry neither Origin nor a foreign Sec-Fetch-Site.
   */
  const fromThePage = (req: IncomingMessage, originRequired: boolean): boolean => {
    const given = req.headers.origin;
    if (given === undefined ? originRequired : given !== origin) return false;
    const site = req.headers['sec-fetch-site'];
    return site === undefined || site === 'same-origin';
  };
  const icon = appIcon(ROOT);

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.headers.host !== new URL(origin).host) {
      res.writeHead(421).end();
      return;
    }
    // The target as a path on this origin: "//x" is a path here, not another host (it was a 500).
    const target = req.url ?? '/';
    if (!target.startsWith('/')) {
      res.writeHead(400).end();
      return;
    }
    const url = new URL(`${origin}${target}`);
    if (url.pathname === '/harness/invoke' && req.method === 'POST') {
      if (
        !fromThePage(req, true) ||
        !tokenOk(req.headers['x-harness-token'] as string | undefined)
      ) {
        res.writeHead(403).end();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req) {
        size += (chunk as Buffer).length;
        if (size > MAX_BODY) {
          res.writeHead(413).end();
          return;
        }
        chunks.push(chunk as Buffer);
      }
      const call = readCall(Buffer.concat(chunks).toString('utf8'));
      if (!call) {
        res.writeHead(400).end();
        return;
      }
      const result = await dispatch(handlers, call.channel, call.args, () => undefined);
      for (const [id, blob] of blobs) if (Date.now() - blob.at > BLOB_TTL_MS) blobs.delete(id);
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(lift(result, blobs)));
      return;
    }
    if (url.pathname.startsWith('/harness/blob/') && req.method === 'GET') {
      const blob = blobs.get(url.pathname.slice('/harness/blob/'.length));
      if (
        !fromThePage(req, false) ||
        !tokenOk(req.headers['x-harness-token'] as string | undefined)
      ) {
        res.writeHead(403).end();
        return;
      }
      if (!blob) {
        res.writeHead(404).end();
        return;
      }
      blobs.delete(url.pathname.slice('/harness/blob/'.length));
      const bytes = Buffer.from(blob.text, 'utf8');
      res.writeHead(200, {
        'content-type': 'text/plain; charset=utf-8',
        'content-length': String(bytes.length),
        'cache-control': 'no-store',
      });
      res.end(bytes);
      return;
    }
    if (url.pathname.startsWith('/harness/stream/') && req.method === 'GET') {
      const streamId = url.pathname.slice('/harness/stream/'.length);
      if (
        !fromThePage(req, false) ||
        !tokenOk(req.headers['x-harness-token'] as string | undefined)
      ) {
        res.writeHead(403).end();
        return;
      }
      const stream = STREAM_ID_PATTERN.test(streamId) ? orderStreams.get(streamId) : undefined;
      for (const [id, old] of orderStreams)
        if (Date.now() - old.touchedAt > STREAM_TTL_MS) orderStreams.delete(id);
      if (!stream) {
        res.writeHead(404).end();
        return;
      }
      if (stream.frames.length === 0 && !stream.ended) {
        // Wait for the next part, a while; then the page asks again.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, STREAM_POLL_MS);
          stream.wake = () => {
            clearTimeout(timer);
            resolve();
          };
          // The page went away: stop waiting (what comes meanwhile waits for no one).
          res.on('close', resolve);
        });
      }
      stream.touchedAt = Date.now();
      // Every part waiting, in one body: a page that fell behind catches up in one round trip.
      const frames = stream.frames.splice(0);
      if (frames.length > 0) {
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': String(bodyLength(frames)),
          'cache-control': 'no-store',
        });
        for (const frame of frames) {
          res.write(framePrefix(frame));
          res.write(frame);
        }
        res.end();
      } else if (stream.ended) {
        orderStreams.delete(streamId);
        res.writeHead(204, { 'cache-control': 'no-store' }).end();
      } else {
        res.writeHead(202, { 'cache-control': 'no-store' }).end();
      }
      return;
    }
    if (url.pathname === '/harness/events') {
      if (!fromThePage(req, false) || !tokenOk(url.searchParams.get('token'))) {
        res.writeHead(403).end();
        return;
      }
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    if (url.pathname === '/favicon.ico' || url.pathname === '/harness/icon') {
      res.writeHead(200, { 'content-type': icon.type, 'cache-control': 'no-cache' });
      res.end(icon.body);
      return;
    }
    if (url.pathname === '/harness/bridge.js') {
      res.writeHead(200, { 'content-type': TYPES['.js']!, 'cache-control': 'no-store' });
      res.end(bridge);
      return;
    }
    let path: string;
    try {
      path = url.pathname === '/' ? '/index.html' : decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400).end(); // a malformed percent-escape
      return;
    }
    const file = resolve(rendererDir, `.${path}`);
    if (!isInside(rendererDir, file)) {
      res.writeHead(404).end();
      return;
    }
    let content: Buffer;
    try {
      content = await readFile(file);
    } catch {
      res.writeHead(404).end();
      return;
    }
    if (path === '/index.html') {
      // The bridge must define window.storeAdmin before the app's module runs.
      content = Buffer.from(
        content
          .toString('utf8')
          .replace(
            '<head>',
            '<head>\n    <script src="/harness/bridge.js"></script>\n    <link rel="icon" href="/harness/icon" />',
          ),
      );
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(content);
  }

  await new Promise<void>((done) => server.listen(options.port ?? 0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    service,
    close: async () => {
      for (const stream of streams) stream.end();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await services.close();
    },
  };
}
