// Whether the built renderer (out/renderer) is older than what it is built
// from, so `npm run harness` builds only when something changed. The main
// process's code is not built for the harness: it runs from source.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the renderer's build is made from. */
const SOURCES = [
  'src/renderer',
  'src/shared',
  'src/preload',
  'electron.vite.config.ts',
  'package.json',
];

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a file removed changes its folder
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

export function rendererBuildIsCurrent(root: string): boolean {
  const built = join(root, 'out', 'renderer', 'index.html');
  if (!existsSync(built)) return false;
  const builtAt = statSync(built).mtimeMs;
  return SOURCES.every((source) => {
    const path = join(root, source);
    return !existsSync(path) || newestChange(path) <= builtAt;
  });
}
