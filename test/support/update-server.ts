// A company's update server on loopback, as electron-builder's generic
// provider expects one: the release described in <channel>-linux.yml
// (version, file, sha512, size) beside the file itself. A release can be
// published with a sha512 that does not match its file, and its file sent
// at a given pace, so a download takes long enough to show progress. Every
// request is recorded.

import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Release {
  readonly version: string;
  readonly fileName: string;
  readonly file: Buffer;
  /** Publish this sha512 instead of the file's own (a download that must be refused). */
  readonly wrongSha512?: boolean;
  /** Send the file at most this fast; unlimited by default. */
  readonly bytesPerSecond?: number;
  readonly channel?: string;
}

export interface UpdateServer {
  /** The folder the files are in, e.g. http://127.0.0.1:41234/ */
  readonly url: string;
  /** Each request: method and path (the query electron-updater adds against caches left out). */
  readonly requests: { method: string; path: string }[];
  publish(release: Release | undefined): void;
  close(): Promise<void>;
}

export const sha512Of = (file: Buffer): string =>
  createHash('sha512').update(file).digest('base64');

function feedYaml(release: Release): string {
  const sha512 = release.wrongSha512
    ? sha512Of(Buffer.from('not the file'))
    : sha512Of(release.file);
  return [
    `version: ${release.version}`,
    'files:',
    `  - url: ${release.fileName}`,
    `    sha512: ${sha512}`,
    `    size: ${release.file.length}`,
    `path: ${release.fileName}`,
    `sha512: ${sha512}`,
    "releaseDate: '2026-11-30T09:00:00.000Z'",
    '',
  ].join('\n');
}

export async function startUpdateServer(): Promise<UpdateServer> {
  const requests: { method: string; path: string }[] = [];
  let release: Release | undefined;
  const server = createServer((req: IncomingMessage, res) => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    requests.push({ method: req.method ?? 'GET', path });
    const current = release;
    if (current && path === `/${current.channel ?? 'latest'}-linux.yml`) {
      res.writeHead(200, { 'content-type': 'text/yaml' }).end(feedYaml(current));
      return;
    }
    if (current && path === `/${current.fileName}`) {
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(current.file.length),
      });
      void send(res, current.file, current.bytesPerSecond);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    publish: (next) => void (release = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The file in tenth-of-a-second slices at the given pace (bounded: it ends with the file). */
async function send(
  res: ServerResponse,
  file: Buffer,
  bytesPerSecond: number | undefined,
): Promise<void> {
  if (!bytesPerSecond) {
    res.end(file);
    return;
  }
  const slice = Math.max(1, Math.floor(bytesPerSecond / 10));
  for (let at = 0; at < file.length && !res.destroyed; at += slice) {
    res.write(file.subarray(at, at + slice));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  res.end();
}
