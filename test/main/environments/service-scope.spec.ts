import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  adoptUnscopedFiles,
  scopedFileName,
  serviceScope,
} from '../../../src/main/environments/service-scope.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scope-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('serviceScope', () => {
  it('is one scope per environment and normalised address', () => {
    const scope = serviceScope('production', 'https://API.example.com:443/v1/');
    expect(scope).toEqual(serviceScope('production', 'https://api.example.com/v1'));
    expect(scope.baseUrl).toBe('https://api.example.com/v1');
    expect(scope.key).toMatch(/^production-[0-9a-f]{16}$/);
    for (const other of [
      serviceScope('staging', 'https://api.example.com/v1'),
      serviceScope('production', 'https://api.example.com:8443/v1'),
      serviceScope('production', 'https://api.example.com/eu/v1'),
    ])
      expect(other.key).not.toBe(scope.key);
  });

  it('gives the sandbox one scope whatever its port', () => {
    expect(serviceScope('sandbox', 'http://127.0.0.1:4010/v1')).toEqual(serviceScope('sandbox'));
    expect(scopedFileName('orders', serviceScope('sandbox'))).toBe('orders-sandbox.cache');
  });
});

describe('adoptUnscopedFiles', () => {
  it('makes files named after the environment alone the current address’s, once', async () => {
    const scope = serviceScope('staging', 'https://staging.example.com/v1');
    await writeFile(join(dir, 'cancel-log-staging.jsonl'), 'old log\n');
    await writeFile(join(dir, 'review-marks-staging.json'), 'old marks');
    await writeFile(join(dir, scopedFileName('review-marks', scope)), 'newer marks');
    await writeFile(join(dir, 'bulk-cancel-production.jsonl'), 'not staging');
    adoptUnscopedFiles(dir, scope);
    expect(await readFile(join(dir, scopedFileName('cancel-log', scope)), 'utf8')).toBe(
      'old log\n',
    );
    // A file already in the scope wins; the old one is left, not lost.
    expect(await readFile(join(dir, scopedFileName('review-marks', scope)), 'utf8')).toBe(
      'newer marks',
    );
    expect((await readdir(dir)).sort()).toEqual(
      [
        'bulk-cancel-production.jsonl',
        scopedFileName('cancel-log', scope),
        scopedFileName('review-marks', scope),
        'review-marks-staging.json',
      ].sort(),
    );
  });
});
