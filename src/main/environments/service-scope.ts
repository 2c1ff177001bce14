// Which service a piece of local data belongs to. An environment's orders
// cache, review marks, cancel log and bulk-cancel journal belong to the
// service its address points at, not to the environment's name: a new
// address starts empty, and the old data is there again when the address
// comes back. The built-in sandbox is one service whatever port it gets.

import { createHash } from 'node:crypto';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { validateBaseUrl, type EnvironmentId } from '../../shared/environments.ts';

export interface ServiceScope {
  readonly environment: EnvironmentId;
  /** The normalised base URL; undefined for the sandbox, whose port changes at each start. */
  readonly baseUrl?: string;
  /** Names the scope in file names: the environment and a short hash of the address. */
  readonly key: string;
}

/** The scope of `environment` pointed at `baseUrl` (ignored for the sandbox). */
export function serviceScope(environment: EnvironmentId, baseUrl?: string): ServiceScope {
  if (environment === 'sandbox') return { environment, key: 'sandbox' };
  if (baseUrl === undefined) throw new TypeError(`The ${environment} scope needs an address.`);
  const checked = validateBaseUrl(baseUrl);
  const normalised = checked.ok ? checked.value : baseUrl;
  const hash = createHash('sha256')
    .update(`${environment}\n${normalised}`)
    .digest('hex')
    .slice(0, 16);
  return { environment, baseUrl: normalised, key: `${environment}-${hash}` };
}

/** The local files kept per service, by the name they start with and their extension. */
export const SCOPED_FILES = {
  orders: '.cache',
  'review-marks': '.json',
  'cancel-log': '.jsonl',
  'bulk-cancel': '.jsonl',
} as const;

export type ScopedFile = keyof typeof SCOPED_FILES;

/** e.g. `review-marks-production-0123456789abcdef.json`, or `review-marks-sandbox.json`. */
export function scopedFileName(file: ScopedFile, scope: ServiceScope): string {
  return `${file}-${scope.key}${SCOPED_FILES[file]}`;
}

/**
 * Files written before data was kept per service are named after the
 * environment alone (`cancel-log-production.jsonl`): they become the data of
 * the environment's current address, once, at start-up. A file already in
 * the scope wins; the old one is then left where it is.
 */
export function adoptUnscopedFiles(dir: string, scope: ServiceScope): void {
  for (const file of Object.keys(SCOPED_FILES) as ScopedFile[]) {
    const old = join(dir, `${file}-${scope.environment}${SCOPED_FILES[file]}`);
    const scoped = join(dir, scopedFileName(file, scope));
    if (old === scoped || !existsSync(old) || existsSync(scoped)) continue;
    try {
      renameSync(old, scoped);
    } catch {
      // Left in place: the data starts empty rather than the app failing to start.
    }
  }
}
