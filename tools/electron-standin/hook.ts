// The module `electron`, mapped to the stand-in's implementation
// (electron/index.ts) for `import` and `require` alike, through node:module's
// synchronous hooks (Node 22.15 or 23.5 and later). Node's own resolver runs
// them: a module loaded by another runner (vitest's) does not see the mapping.

import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ELECTRON_MODULE = pathToFileURL(join(import.meta.dirname, 'electron', 'index.ts')).href;

let mapped = false;

/** From now on, in this process, `electron` is the stand-in (once; later calls do nothing). */
export function mapElectronToStandin(): void {
  if (mapped) return;
  mapped = true;
  registerHooks({
    resolve(specifier, context, next) {
      if (specifier === 'electron' || specifier === 'electron/main')
        return { url: ELECTRON_MODULE, shortCircuit: true };
      return next(specifier, context);
    },
  });
}
