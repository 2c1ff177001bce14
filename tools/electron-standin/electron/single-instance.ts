// app.requestSingleInstanceLock as Chromium's ProcessSingleton does it on
// Linux (chrome/browser/process_singleton_posix.cc): a `SingletonLock`
// symlink in the user-data folder naming "host-pid", taken over only when
// that process is gone, and a `SingletonSocket` through which a second
// instance hands its command line to the first (which then emits
// `second-instance`, docs/api/app.md). The socket lives in a short temporary
// folder that the symlink points into, as Chromium's does, because a socket
// path is limited to about 100 bytes.

import { mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface SecondInstance {
  readonly argv: string[];
  readonly workingDirectory: string;
  readonly additionalData: unknown;
}

export interface SingleInstanceLock {
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock, or undefined when another live process holds it (then `notify` has been sent). */
export function takeSingleInstanceLock(
  userData: string,
  onSecondInstance: (second: SecondInstance) => void,
  message: SecondInstance,
  pending: (work: Promise<void>) => void,
): SingleInstanceLock | undefined {
  mkdirSync(userData, { recursive: true });
  const lockPath = join(userData, 'SingletonLock');
  const socketLink = join(userData, 'SingletonSocket');
  const me = `${hostname()}-${process.pid}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      symlinkSync(me, lockPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder: string;
      try {
        holder = readlinkSync(lockPath);
      } catch {
        continue; // released meanwhile
      }
      const at = holder.lastIndexOf('-');
      const pid = Number(holder.slice(at + 1));
      if (holder.slice(0, at) === hostname() && Number.isInteger(pid) && !alive(pid)) {
        rmSync(lockPath, { force: true });
        continue;
      }
      pending(notify(socketLink, message));
      return undefined;
    }
    return serve(lockPath, socketLink, onSecondInstance);
  }
  throw new Error(`Could not take the single-instance lock in ${userData}`);
}

function serve(
  lockPath: string,
  socketLink: string,
  onSecondInstance: (second: SecondInstance) => void,
): SingleInstanceLock {
  const socketDir = mkdtempSync(join(tmpdir(), '.electron-standin-'));
  const socketPath = join(socketDir, 'SingletonSocket');
  rmSync(socketLink, { force: true });
  symlinkSync(socketPath, socketLink);
  const server: Server = createServer((connection) => {
    const chunks: Buffer[] = [];
    connection.on('data', (chunk: Buffer) => chunks.push(chunk));
    connection.on('end', () => {
      try {
        onSecondInstance(JSON.parse(Buffer.concat(chunks).toString('utf8')) as SecondInstance);
      } catch {
        // Not a message from an instance of ours: ignored, as Chromium ignores a bad one.
      }
      connection.end();
    });
  });
  server.listen(socketPath);
  server.unref();
  return {
    release() {
      server.close();
      for (const path of [lockPath, socketLink]) {
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      }
      rmSync(dirname(socketPath), { recursive: true, force: true });
    },
  };
}

function notify(socketLink: string, message: SecondInstance): Promise<void> {
  return new Promise((resolve) => {
    const socket = createConnection(socketLink);
    const done = () => resolve();
    socket.setTimeout(2_000, () => socket.destroy());
    socket.on('error', done);
    socket.on('close', done);
    socket.end(JSON.stringify(message));
  });
}
