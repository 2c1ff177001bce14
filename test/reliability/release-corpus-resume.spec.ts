// Each earlier release's bulk cancels, killed midway (test/fixtures/releases,
// docs/testing.md), resumed by the current code against the sandbox: the
// app's, through the in-process app, and the command line's, through
// `store-admin orders cancel --resume`. No order whose DELETE was answered
// and journaled is sent again; one sent without an answer is continued (its
// result says so); every order of the job gets one result. Heavy tier: the
// sandbox listens on the port the corpus's journals name (127.0.0.1:47310),
// and the command line runs as its own process.

import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSettings } from '../../src/main/environments/settings.ts';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import type { BulkResult } from '../../src/shared/bulk-cancel.ts';
import { runCliProcess } from '../support/cli-process.ts';
import { startInProcessApp } from '../support/in-process-app.ts';

const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'releases');

interface JournalFacts {
  readonly orderIds: string[];
  readonly answered: string[];
  readonly sentWithoutAnswer: string[];
}

interface Manifest {
  readonly keys: { readonly production: string };
  readonly sandbox: { productionPort: number; productionOrders: number; seed: number };
  readonly bulk: { readonly journal: JournalFacts };
  readonly cli?: { readonly journal: JournalFacts };
}

const releases = readdirSync(CORPUS)
  .filter((name) => existsSync(join(CORPUS, name, 'manifest.json')))
  .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function copyOf(version: string): { dir: string; manifest: Manifest } {
  const dir = mkdtempSync(join(tmpdir(), `store-admin-corpus-resume-${version}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(join(CORPUS, version), dir, { recursive: true });
  return {
    dir,
    manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest,
  };
}

/** The sandbox where the journals point; the port may be a moment in use by another test's client. */
async function sandboxAt(manifest: Manifest): Promise<Sandbox> {
  for (let attempt = 0; ; attempt++) {
    try {
      const sandbox = await startSandbox({
        port: manifest.sandbox.productionPort,
        orders: manifest.sandbox.productionOrders,
        seed: manifest.sandbox.seed,
      });
      cleanups.push(() => sandbox.close());
      return sandbox;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 20) throw error;
      await sleep(500);
    }
  }
}

function deletesOf(sandbox: Sandbox): string[] {
  return sandbox.requestLog
    .filter((request) => request.method === 'DELETE')
    .map((request) => request.path.slice(request.path.lastIndexOf('/') + 1));
}

/** What the resume sent and answered, against what the journal had. */
function expectResumedOnce(
  journal: JournalFacts,
  deletes: string[],
  results: readonly BulkResult[],
) {
  for (const id of journal.answered)
    expect(deletes, `order ${id} was answered before`).not.toContain(id);
  for (const id of journal.sentWithoutAnswer) expect(deletes).toContain(id);
  expect(results.map((result) => result.orderId).sort()).toEqual([...journal.orderIds].sort());
  for (const id of journal.sentWithoutAnswer)
    expect(results.find((result) => result.orderId === id)).toMatchObject({ continued: true });
  // One DELETE at most for each order the journal had not yet sent.
  expect(new Set(deletes).size).toBe(deletes.length);
}

describe.each(releases)('the bulk cancels a %s data folder was killed in', (version) => {
  it("the app's resumes, sending no answered order again", { timeout: 120_000 }, async () => {
    const { dir, manifest } = copyOf(version);
    const sandbox = await sandboxAt(manifest);
    const stored = JSON.parse(readFileSync(join(dir, 'app', 'settings.json'), 'utf8')) as {
      settings?: unknown;
    };
    const app = await startInProcessApp({
      dataDir: join(dir, 'app', 'local-data'),
      settings: parseSettings(stored.settings),
    });
    cleanups.push(() => app.close());
    // Keys are the OS's, not the folder's: the job found running waits for the key, as it
    // would for a clerk whose key this computer cannot read, until it is entered and resumed.
    await expect
      .poll(async () => await app.api.bulkCancel.status('production'))
      .toMatchObject({ value: { status: 'paused' } });
    await app.api.keys.set('production', manifest.keys.production);
    await app.api.bulkCancel.resume('production');
    await expect
      .poll(async () => await app.api.bulkCancel.status('production'), { timeout: 60_000 })
      .toMatchObject({ value: { status: 'finished' } });
    const results = await app.api.bulkCancel.results('production');
    expectResumedOnce(manifest.bulk.journal, deletesOf(sandbox), results.ok ? results.value : []);
  });

  it(
    "the command line's resumes with --resume, sending no answered order again",
    { timeout: 120_000 },
    async () => {
      const { dir, manifest } = copyOf(version);
      if (!manifest.cli) return expect(version).toBe('0.1.0'); // its command line kept no journal
      const sandbox = await sandboxAt(manifest);
      const run = await runCliProcess(
        ['orders', 'cancel', '--resume', '--base-url', sandbox.baseUrl, '--json'],
        {
          STORE_ADMIN_API_KEY: manifest.keys.production,
          STORE_ADMIN_DATA_DIR: join(dir, 'app', 'local-data'),
          STORE_ADMIN_CACHE_DIR: join(dir, 'cli-cache'),
        },
        90_000,
      );
      expect(run.stderr).not.toContain('something went wrong');
      expect(run.code).toBe(0);
      const { results } = JSON.parse(run.stdout) as { results: BulkResult[] };
      expectResumedOnce(manifest.cli.journal, deletesOf(sandbox), results);
    },
  );
});
