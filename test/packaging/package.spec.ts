// npm run package:dir, for real, with the Electron stand-in's distribution
// (tools/electron-standin/dist, whose executable carries Electron's fuse
// wire): the fuses are flipped in the packaged executable, the asar holds the
// built app only, and nothing in it mentions the development harness, the
// stand-in or a sandbox demo key. Needs `npm run build` first (npm test builds
// before running vitest); test/ways-in/packaged-app.spec.ts starts the result.

import { listPackage, extractFile, statFile } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEMO_KEY } from '../../src/shared/environments.ts';
import { PLAN_IDS } from '../../src/shared/plans.ts';

const root = join(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'store-admin-package-'));
const output = join(work, 'dist');
const asarFile = join(output, 'linux-unpacked', 'resources', 'app.asar');
let log = '';
let files: string[] = [];

beforeAll(() => {
  if (!existsSync(join(root, 'out/main/index.js'))) throw new Error('Run npm run build first.');
  const standIn = join(root, 'tools/electron-standin/dist');
  // The same command npm run package:dir runs after building.
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/electron-builder/cli.js'),
      '--config',
      'electron-builder.config.ts',
      '--dir',
      '--publish',
      'never',
      '--linux',
      `-c.directories.output=${output}`,
    ],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: standIn, CI: 'true' },
      timeout: 240_000,
    },
  );
  log = `${run.stdout}${run.stderr}`;
  if (run.status !== 0) throw new Error(`electron-builder failed:\n${log}`);
  files = listPackage(asarFile, { isPack: false }).map((entry) => entry.replaceAll('\\', '/'));
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Regular files only (listPackage also lists folders). */
function regularFiles(): string[] {
  return files.filter((file) => {
    const stat = statFile(asarFile, file.slice(1)) as { files?: unknown };
    return stat.files === undefined;
  });
}

// The stand-in's distribution is a Linux one (a shell script for an executable), packaged for Linux.
describe.skipIf(process.platform !== 'linux')(
  "the unpacked app (the stand-in's Linux distribution, on Linux)",
  () => {
    it('flips the fuses in the packaged executable', async () => {
      const executable = join(output, 'linux-unpacked', 'store-admin');
      expect(log).toContain(`Fuses flipped in ${executable}.`);
      const fuses = await getCurrentFuseWire(executable);
      const on = (option: FuseV1Options) => Number(fuses[option]) === '1'.charCodeAt(0);
      expect(on(FuseV1Options.RunAsNode)).toBe(false);
      expect(on(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe(false);
      expect(on(FuseV1Options.EnableNodeCliInspectArguments)).toBe(false);
      expect(on(FuseV1Options.OnlyLoadAppFromAsar)).toBe(true);
    });

    it('holds the built app only: out/ without source maps, and package.json', () => {
      const regular = regularFiles();
      expect(regular).toEqual(
        expect.arrayContaining([
          '/package.json',
          '/out/main/index.js',
          // The thread large order lists are scanned on starts this script.
          '/out/main/list-scanner-worker.js',
          '/out/preload/index.cjs',
          '/out/renderer/index.html',
        ]),
      );
      for (const file of regular) {
        expect(file === '/package.json' || file.startsWith('/out/'), file).toBe(true);
        expect(file, file).not.toMatch(/\.(map|ts|tsx)$/);
        expect(file, file).not.toMatch(
          /^\/(src|test|tools|bench|docs|scripts|resources|node_modules)\//,
        );
      }
      // Nothing left beside the asar either (no unpacked node_modules).
      expect(readdirSync(join(output, 'linux-unpacked', 'resources'))).toEqual(['app.asar']);
      const size = statSync(asarFile).size;
      console.log(`app.asar: ${(size / 1024 / 1024).toFixed(2)} MB, ${regular.length} files`);
    });

    it('needs no node_modules: main imports only Node built-ins, electron and its own chunks', () => {
      const main = extractFile(asarFile, 'out/main/index.js').toString('utf8');
      const packed = new Set(regularFiles());
      // The static imports are the bundle's opening lines (import lines further down are in comments).
      const opening = main.split('\n');
      const imported = opening
        .slice(
          0,
          opening.findIndex((line) => !line.startsWith('import ')),
        )
        .map((line) => /from\s+["']([^"']+)["']/.exec(line)?.[1]);
      const required = [...main.matchAll(/__require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
      expect(imported.length).toBeGreaterThan(0);
      for (const name of [...imported, ...required]) {
        // A chunk main shares with the list scanner's thread script is in the package beside it.
        const ownChunk =
          name?.startsWith('./chunks/') === true && packed.has(`/out/main/${name.slice(2)}`);
        expect(name === 'electron' || isBuiltin(name ?? '') || ownChunk, name).toBe(true);
      }
    });

    it('mentions neither the development harness, the stand-in nor any sandbox demo key, in any file', () => {
      const demoKeys = [SANDBOX_DEMO_KEY, ...PLAN_IDS.map((plan) => `demo-${plan}`)];
      for (const file of regularFiles()) {
        const text = extractFile(asarFile, file.slice(1)).toString('utf8');
        expect(text, file).not.toMatch(/harness|electron-standin/i);
        for (const key of demoKeys) expect(text.includes(key), `${file} holds ${key}`).toBe(false);
      }
    });
  },
);
