// The log file: real electron-log writing to a temp folder. A canary key
// never reaches the file, whatever carries it; the file rotates at its bound;
// uncaught errors in main are logged.

import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppLog, LOG_FILE_NAME, logUncaught } from '../../../src/main/desktop/log.ts';
import { containsPlaintext } from '../../support/electron-mock.ts';

const KEY = 'canary-Key-7f3a9c41e2d8';
const dirs: string[] = [];

function logsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'store-admin-logs-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the app log', () => {
  it('writes to main.log in the logs folder, with the key and Authorization scrubbed', () => {
    const dir = logsDir();
    const log = createAppLog({ dir, secrets: () => [KEY] });
    expect(log.file).toBe(join(dir, LOG_FILE_NAME));
    log.info('refresh done, 1000 orders');
    log.warn(`request headers`, { Authorization: `Bearer ${KEY}` });
    log.error(new Error(`the service echoed ${KEY}`));
    log.error('raw header line', `authorization: Bearer ${KEY}`);
    log.info([{ nested: { deeper: `key ${KEY}` } }]);
    const text = readFileSync(log.file, 'utf8');
    expect(text).toContain('refresh done, 1000 orders');
    expect(text).toContain('[redacted]');
    expect(containsPlaintext(text, KEY)).toBe(false);
  });

  it('still writes, scrubbing the Authorization patterns, when the keys cannot be read', () => {
    const dir = logsDir();
    const log = createAppLog({
      dir,
      secrets: () => {
        throw new Error('the secret store is not ready');
      },
    });
    log.error(`refused: Authorization: Bearer ${KEY}`);
    const text = readFileSync(log.file, 'utf8');
    expect(text).toContain('refused: Authorization: [redacted]');
    expect(text).not.toContain(KEY);
  });

  it('rotates at its size bound, keeping one older file', () => {
    const dir = logsDir();
    const log = createAppLog({ dir, secrets: () => [], maxBytes: 2_000 });
    for (let i = 0; i < 100; i += 1) log.info(`line ${i} ${'x'.repeat(40)}`);
    const old = join(dir, 'main.old.log');
    expect(existsSync(old)).toBe(true);
    expect(readFileSync(log.file, 'utf8').length).toBeLessThanOrEqual(2_000);
    expect(readFileSync(log.file, 'utf8')).toContain('line 99');
  });

  it('logs uncaught exceptions and unhandled rejections, scrubbed', () => {
    const dir = logsDir();
    const log = createAppLog({ dir, secrets: () => [KEY] });
    const processEvents = new EventEmitter();
    logUncaught(log, processEvents);
    processEvents.emit('uncaughtException', new RangeError(`bad ${KEY}`));
    processEvents.emit('unhandledRejection', `rejected with Bearer ${KEY}`);
    const text = readFileSync(log.file, 'utf8');
    expect(text).toContain('Uncaught exception in main');
    expect(text).toContain('RangeError');
    expect(text).toContain('Unhandled promise rejection in main');
    expect(containsPlaintext(text, KEY)).toBe(false);
  });
});
