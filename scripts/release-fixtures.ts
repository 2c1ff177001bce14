// The corpus of earlier releases' data (test/fixtures/releases/<version>/):
// for each release, a checkout of its commit in a temporary folder,
// installed, and a data folder made in it the way a clerk would, by that
// release's own code (scripts/release-fixtures/driver.ts runs inside the
// checkout, with the release's vitest and test support). What is saved is
// small (a few hundred orders) with a manifest of what it holds, which the
// tests read (test/main/local-data/release-corpus.spec.ts, and the heavy
// test/reliability/release-corpus-resume.spec.ts).
//
// Run by hand, never in CI (it installs each release from the registry):
//   node_modules/.bin/node scripts/release-fixtures.ts [VERSION ...]
// With no version, every release below is made again. A release that ships
// adds itself to RELEASES and runs this for its version (docs/testing.md).

import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

interface Release {
  readonly version: string;
  readonly commit: string;
  /** How the release named the app's folder under the OS's application-data folder. */
  readonly userDataName: string;
  readonly domains: 'environment' | 'project';
  /** Its command line kept lists, a cancel log and bulk-cancel journals (0.2.0 on). */
  readonly cliFolders: boolean;
}

const RELEASES: readonly Release[] = [
  {
    version: '0.1.0',
    commit: '31bce36',
    userDataName: 'store-admin',
    domains: 'environment',
    cliFolders: false,
  },
  {
    version: '0.2.0',
    commit: '723a839',
    userDataName: 'Store Admin',
    domains: 'environment',
    cliFolders: true,
  },
  {
    version: '0.3.0',
    commit: 'd3391b1',
    userDataName: 'Store Admin',
    domains: 'project',
    cliFolders: true,
  },
  {
    version: '0.4.0',
    commit: '5a65c7c',
    userDataName: 'Store Admin',
    domains: 'project',
    cliFolders: true,
  },
];

const REPOSITORY = join(import.meta.dirname, '..');
const CORPUS = join(REPOSITORY, 'test', 'fixtures', 'releases');
const DRIVER = join(import.meta.dirname, 'release-fixtures', 'driver.ts');

/** The same for every release, so the heavy test can start a sandbox where the journals point. */
const SETUP = {
  productionPort: 47310,
  stagingPort: 47311,
  productionOrders: 300,
  seed: 7,
  productionKey: 'demo-pro',
  stagingKey: 'fixture-staging-key',
  projectName: 'Pet Shop (www)',
} as const;

function run(command: string, args: readonly string[], cwd: string): void {
  // npm is a .cmd on Windows, which only a shell runs: each argument quoted for it.
  if (process.platform === 'win32' && command === 'npm')
    execFileSync([command, ...args].map((arg) => `"${arg.replace(/"/g, '\\"')}"`).join(' '), {
      cwd,
      stdio: ['ignore', 'inherit', 'inherit'],
      shell: true,
    });
  else execFileSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
}

/**
 * One stage of the driver in the checkout; `killed`: it ends by killing
 * itself (a crash), which vitest reports as it may (a killed worker, or a
 * killed vitest): what the journal holds is checked instead.
 */
function stage(checkout: string, name: string, config: object, killed = false): void {
  const result = spawnSync(
    process.execPath,
    [
      join(checkout, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      'test/main/release-fixture.spec.ts',
      '--project',
      'node',
    ],
    {
      cwd: checkout,
      env: { ...process.env, FIXTURE_STAGE: name, FIXTURE_CONFIG: JSON.stringify(config), CI: '1' },
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: 300_000,
    },
  );
  if (!killed && result.status !== 0)
    throw new Error(`stage ${name} ended with ${result.signal ?? result.status}`);
}

interface JournalFacts {
  /** The journal, from the fixture's folder. */
  readonly file: string;
  readonly orderIds: readonly string[];
  /** Orders whose DELETE was answered and journaled: never sent again. */
  readonly answered: readonly string[];
  /** Orders sent with no answer journaled: continued on resume. */
  readonly sentWithoutAnswer: readonly string[];
}

function journalFacts(out: string, file: string): JournalFacts {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { t: string; orderId?: string; orderIds?: string[] }];
      } catch {
        return [];
      }
    });
  const job = lines.findLast((line) => line.t === 'job');
  const answered = new Set(lines.filter((l) => l.t === 'result').map((l) => l.orderId!));
  const sent = new Set(lines.filter((l) => l.t === 'send').map((l) => l.orderId!));
  return {
    file: relative(out, file),
    orderIds: job?.orderIds ?? [],
    answered: [...answered],
    sentWithoutAnswer: [...sent].filter((id) => !answered.has(id)),
  };
}

function findFile(dir: string, pattern: RegExp): string | undefined {
  if (!existsSync(dir)) return undefined;
  const name = readdirSync(dir).find((found) => pattern.test(found));
  return name === undefined ? undefined : join(dir, name);
}

/** Every file under `dir` with its size, for the manifest (and to keep the corpus small). */
function listFiles(dir: string, base = dir): { path: string; bytes: number }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(path, base);
    return [{ path: relative(base, path), bytes: statSync(path).size }];
  });
}

/** Drops what no clerk's folder would keep: temporary files of writes under way, the driver's notes. */
function tidy(out: string): void {
  for (const { path } of listFiles(out)) {
    if (/\.tmp$/.test(path) || /^stage-.*\.json$/.test(path) || path === 'cli-bulk-ids.txt')
      rmSync(join(out, path), { force: true });
  }
}

function make(release: Release): void {
  const work = mkdtempSync(join(tmpdir(), `store-admin-release-${release.version}-`));
  try {
    const checkout = join(work, 'checkout');
    console.log(`${release.version} (${release.commit}): checkout and install in ${work}`);
    run('git', ['clone', '--quiet', '--no-checkout', REPOSITORY, checkout], work);
    run('git', ['checkout', '--quiet', release.commit], checkout);
    const quiet = ['--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'];
    try {
      run('npm', ['ci', ...quiet], checkout);
    } catch {
      // 0.2.0's lock file misses other platforms' optional packages, which npm ci refuses.
      run('npm', ['install', ...quiet], checkout);
    }
    cpSync(DRIVER, join(checkout, 'test', 'main', 'release-fixture.spec.ts'));

    const out = join(work, 'out');
    mkdirSync(join(out, 'app'), { recursive: true });
    const config = {
      out,
      ...SETUP,
      domains: release.domains,
      cliFolders: release.cliFolders,
    };
    const createdAt = Date.now();
    stage(checkout, 'app', config);
    stage(checkout, 'bulk', config, true);
    if (release.cliFolders) stage(checkout, 'cli', config);

    const read = (name: string): Record<string, unknown> | undefined =>
      existsSync(join(out, `stage-${name}.json`))
        ? (JSON.parse(readFileSync(join(out, `stage-${name}.json`), 'utf8')) as Record<
            string,
            unknown
          >)
        : undefined;
    const dataDir = join(out, 'app', 'local-data');
    const appJournal = findFile(dataDir, /^bulk-cancel-production(-[0-9a-f]+)?\.jsonl$/);
    const cliJournal = findFile(dataDir, /^bulk-cancel-cli-[0-9a-f]+\.jsonl$/);
    if (!appJournal) throw new Error('the app left no bulk-cancel journal');
    for (const journal of [appJournal, cliJournal]) {
      if (journal === undefined) continue;
      const facts = journalFacts(out, journal);
      if (facts.answered.length === 0 || facts.sentWithoutAnswer.length === 0)
        throw new Error(`${facts.file} was not killed midway: ${JSON.stringify(facts)}`);
    }
    if (release.cliFolders && !cliJournal) throw new Error('the command line left no journal');
    const manifest = {
      version: release.version,
      commit: release.commit,
      createdAt,
      madeBy:
        "scripts/release-fixtures.ts: the release's own in-process app, sandbox and command line",
      userDataName: release.userDataName,
      folders: {
        app: "the app's userData folder (settings.json, local-data/)",
        ...(release.cliFolders
          ? { cliCache: "the command line's cache folder (STORE_ADMIN_CACHE_DIR)" }
          : {}),
      },
      keys: { production: SETUP.productionKey, staging: SETUP.stagingKey },
      sandbox: {
        productionPort: SETUP.productionPort,
        stagingPort: SETUP.stagingPort,
        productionOrders: SETUP.productionOrders,
        seed: SETUP.seed,
      },
      projectName: release.domains === 'project' ? SETUP.projectName : undefined,
      app: read('app'),
      bulk: { ...read('bulk'), journal: journalFacts(out, appJournal) },
      ...(release.cliFolders
        ? {
            cli: {
              ...read('cli'),
              journal: cliJournal ? journalFacts(out, cliJournal) : undefined,
            },
          }
        : {}),
    };
    tidy(out);
    const files = listFiles(out);
    writeFileSync(
      join(out, 'manifest.json'),
      `${JSON.stringify({ ...manifest, files }, null, 2)}\n`,
    );
    const target = join(CORPUS, release.version);
    rmSync(target, { recursive: true, force: true });
    cpSync(out, target, { recursive: true });
    const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
    console.log(
      `${release.version}: ${files.length} files, ${bytes} bytes in ${relative(REPOSITORY, target)}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const wanted = process.argv.slice(2);
for (const release of RELEASES) {
  if (wanted.length === 0 || wanted.includes(release.version)) make(release);
}
