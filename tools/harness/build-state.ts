// Whether the built page and preload (out/renderer, out/preload) are older
// than what they are built from, so `npm run harness` builds only when
// something changed. The main process's code is not built for the harness:
// it runs from source.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the page's and the preload's build is made from. */
const SOURCES = [
  'src/renderer',
  'src/shared',
  'src/preload',
  'electron.vite.config.ts',
  'package.json',
];

/** What the harness loads of the build. */
const BUILT = ['out/renderer/index.html', 'out/preload/index.cjs'];

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a file removed changes its folder
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

export function buildIsCurrent(root: string): boolean {
  const built = BUILT.map((file) => join(root, file));
  if (!built.every((file) => existsSync(file))) return false;
  const builtAt = Math.min(...built.map((file) => statSync(file).mtimeMs));
  return SOURCES.every((source) => {
    const path = join(root, source);
    return !existsSync(path) || newestChange(path) <= builtAt;
  });
}
