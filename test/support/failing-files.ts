// A file layer that fails as a disk would: full (ENOSPC), read-only (EROFS)
// or a folder the app may not write (EACCES), on the real disk otherwise.
// It records each write, so tests can see what reached the disk and when.
// A streamed file (the order cache's) fails from its next write on, so a
// disk can fill in the middle of one.

import {
  nodeFiles,
  type LocalFiles,
  type StreamedFile,
} from '../../src/main/local-data/local-files.ts';

export interface FailingFiles extends LocalFiles {
  /** Every write that went through, in order (streamed pieces are not recorded). */
  readonly written: { readonly file: string; readonly text: string; readonly sync: boolean }[];
  /** From now on every write fails with this code (undefined: writes work again). */
  fail(code: 'ENOSPC' | 'EROFS' | 'EACCES' | undefined): void;
}

export function failingFiles(base: LocalFiles = nodeFiles()): FailingFiles {
  let code: string | undefined;
  const written: FailingFiles['written'][number][] = [];
  const refuse = (file: string): void => {
    if (code === undefined) return;
    const error = new Error(`${code}: cannot write, open '${file}'`) as NodeJS.ErrnoException;
    error.code = code;
    throw error;
  };
  return {
    written,
    fail: (next) => (code = next),
    async append(file, text, options) {
      refuse(file);
      await base.append(file, text, options);
      written.push({ file, text, sync: options?.sync === true });
    },
    async replace(file, text) {
      refuse(file);
      await base.replace(file, text);
      written.push({ file, text, sync: true });
    },
    async create(file) {
      refuse(file);
      const streamed = await base.create(file);
      const guarded: StreamedFile = {
        writeAt: async (chunks, position) => {
          refuse(file);
          await streamed.writeAt(chunks, position);
        },
        flush: async () => {
          refuse(file);
          await streamed.flush();
        },
        sync: async () => {
          refuse(file);
          await streamed.sync();
        },
        close: () => streamed.close(),
      };
      return guarded;
    },
  };
}
