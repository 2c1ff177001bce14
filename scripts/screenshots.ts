// npm run screenshots: the end-to-end tests with UPDATE_SCREENSHOTS=1, which
// write every screen to docs/screenshots (after npm run build). A script, not
// `UPDATE_SCREENSHOTS=1 vitest …` in package.json, which only a POSIX shell
// understands (npm runs scripts with cmd.exe on Windows). Arguments after
// `npm run screenshots --` go to vitest (a file, `-t NAME`).

import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
const run = spawnSync(
  process.execPath,
  [vitest, 'run', '--project', 'e2e', ...process.argv.slice(2)],
  { stdio: 'inherit', env: { ...process.env, UPDATE_SCREENSHOTS: '1' } },
);
process.exit(run.status ?? 1);
