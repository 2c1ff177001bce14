// Schemas for what is read back from disk, made on the first read. The
// command line imports the stores on every run, and loading zod costs a run
// about 65 ms (a --help went from 0.15 s to 0.22 s): only the commands that
// read a store back pay for it.

import type { z } from 'zod';

/** `build`'s schema, made with zod once it is first asked for. */
export function lazySchema<T>(build: (zod: typeof z) => z.ZodType<T>): () => Promise<z.ZodType<T>> {
  let made: Promise<z.ZodType<T>> | undefined;
  return () => (made ??= import('zod').then(({ z: zod }) => build(zod)));
}
