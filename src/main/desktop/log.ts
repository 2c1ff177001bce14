// The app's log: one file in the app's logs folder, rotated at a size bound
// (electron-log keeps one older file beside it), every line scrubbed of keys
// and Authorization values before it is written. electron-log's Node flavour
// is used on purpose: it opens no IPC channel for renderers to write through.

import electronLog from 'electron-log/node';
import { join } from 'node:path';
import { redactValue } from './scrub.ts';

export const LOG_FILE_NAME = 'main.log';
/** 1 MB, then main.log moves to main.old.log and a new file starts. */
export const LOG_MAX_BYTES = 1024 * 1024;

export interface AppLog {
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  /** The file lines go to. */
  readonly file: string;
}

export interface AppLogOptions {
  /** The logs folder (app.getPath('logs')). */
  readonly dir: string;
  /** The secrets to take out of every line, read when a line is written. */
  readonly secrets: () => Iterable<string>;
  readonly maxBytes?: number;
  /** Also print to the terminal (development). */
  readonly console?: boolean;
}

let instances = 0;

export function createAppLog(options: AppLogOptions): AppLog {
  // A separate logger per call, so tests (and a second app instance) never share one.
  const logger = electronLog.create({ logId: `store-admin-${++instances}` });
  const file = join(options.dir, LOG_FILE_NAME);
  logger.transports.file.resolvePathFn = () => file;
  logger.transports.file.maxSize = options.maxBytes ?? LOG_MAX_BYTES;
  logger.transports.file.level = 'info';
  logger.transports.console.level = options.console ? 'info' : false;
  if (logger.transports.ipc) logger.transports.ipc.level = false;
  if (logger.transports.remote) logger.transports.remote.level = false;
  logger.hooks.push((message) => {
    let secrets: string[] = [];
    try {
      secrets = [...options.secrets()];
    } catch {
      // Keys unreadable (e.g. before the OS store is ready): the Bearer and Authorization patterns still apply.
    }
    return { ...message, data: redactValue(message.data, secrets) as unknown[] };
  });
  return {
    info: (...data) => logger.info(...data),
    warn: (...data) => logger.warn(...data),
    error: (...data) => logger.error(...data),
    file,
  };
}

/** What `logUncaught` listens on: `process` in the app. */
export interface ProcessEvents {
  on(event: 'uncaughtException', listener: (error: Error) => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
}

/** Uncaught exceptions and unhandled rejections in main go to the log, never nowhere. */
export function logUncaught(log: AppLog, target: ProcessEvents): void {
  target.on('uncaughtException', (error) => log.error('Uncaught exception in main:', error));
  target.on('unhandledRejection', (reason) =>
    log.error('Unhandled promise rejection in main:', reason),
  );
}
