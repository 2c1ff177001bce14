// The GitHub Actions workflow (.github/workflows/ci.yml) cannot run on the
// project's own machines, so what it runs is checked here: `npm run check`
// validates it against the workflow schema (action-validator); this test
// checks that its jobs are the ones docs/testing.md lists, on the three
// systems, and that each command it runs is one that exists here: an npm
// script of package.json, a binary an installed package provides, a file of
// this repository, or a system tool the project's machines install too.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

interface Step {
  readonly run?: string;
  readonly uses?: string;
  readonly if?: string;
}
interface Job {
  readonly 'runs-on': string;
  readonly strategy?: { matrix?: { os?: string[] } };
  readonly steps: Step[];
}

const workflow = load(readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as {
  jobs: Record<string, Job>;
};
const scripts = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

/** Tools from the system, each installed by the step before it (apt) or present on every runner. */
const SYSTEM_TOOLS = new Set([
  'sudo',
  'apt-get',
  'dbus-run-session',
  'sh',
  'printf',
  'gnome-keyring-daemon',
  'xvfb-run',
  'git',
  'bash',
]);

/** Tools that run another command after their own options: that command is checked too. */
const WRAPPERS = new Set(['sudo', 'xvfb-run', 'dbus-run-session']);

/** Each command of a step's script: split at newlines, `&&`, pipes and `sh -c '…'`, wrappers unwrapped. */
function commands(run: string): string[][] {
  const unwrap = (words: string[]): string[][] => {
    if (!WRAPPERS.has(words[0]!)) return [words];
    const rest = words.slice(1);
    while (rest[0]?.startsWith('-')) rest.shift();
    return rest.length > 0 ? [[words[0]!], ...unwrap(rest)] : [[words[0]!]];
  };
  return run
    .split(/\n|&&|\|/)
    .flatMap((part) => part.split(/\bsh -c '|'\s*$/))
    .map((part) => part.replace(/'/g, '').trim())
    .filter((part) => part !== '')
    .flatMap((part) => unwrap(part.split(/\s+/)));
}

describe('the CI workflow', () => {
  const jobs = workflow.jobs;

  it('runs the fast tier, the whole app on real Electron and the installers on Linux, macOS and Windows, and both tiers on the stand-in', () => {
    expect(Object.keys(jobs).sort()).toEqual(['fast', 'package', 'stand-in', 'whole-app']);
    for (const name of ['fast', 'whole-app', 'package'])
      expect(jobs[name]!.strategy?.matrix?.os?.map((os) => os.split('-')[0])).toEqual([
        'ubuntu',
        'macos',
        'windows',
      ]);
    const runs = (name: string) => jobs[name]!.steps.flatMap((step) => step.run ?? []);
    expect(runs('fast')).toContain('npm test');
    expect(runs('whole-app').join('\n')).toMatch(/xvfb-run .*npm run test:whole-app/);
    expect(runs('whole-app')).toContain('npm run test:whole-app');
    expect(runs('package')).toContain('npm run package');
    expect(runs('stand-in')).toContain('bash .ci/run');
  });

  it('runs only commands that exist here: npm scripts, installed binaries, files of this repository', () => {
    const unknown: string[] = [];
    for (const job of Object.values(jobs))
      for (const step of job.steps)
        for (const [tool, ...args] of commands(step.run ?? '')) {
          if (tool === 'npm' && (args[0] === 'test' || args[0] === 'ci')) continue;
          if (tool === 'npm' && args[0] === 'run' && args[1]! in scripts) continue;
          if (tool === 'npx' && existsSync(join(ROOT, 'node_modules', '.bin', args[0]!))) continue;
          if (tool === 'bash' && args[0] && existsSync(join(ROOT, args[0]))) continue;
          if (SYSTEM_TOOLS.has(tool!) && tool !== 'bash') continue;
          unknown.push([tool, ...args].join(' '));
        }
    expect(unknown).toEqual([]);
  });

  it('takes actions only at a major version of their own makers', () => {
    const uses = Object.values(jobs).flatMap((job) => job.steps.flatMap((step) => step.uses ?? []));
    expect(uses.length).toBeGreaterThan(0);
    for (const action of uses) expect(action).toMatch(/^actions\/[a-z-]+@v\d+$/);
  });
});
