// Whether the app can save to its data folder. A full disk (ENOSPC), a
// read-only one (EROFS) or a folder it may not write (EACCES, EPERM) must not
// stop the clerk: the app goes on from memory, says so once in plain words
// naming the folder, and says when saving works again. Files already on disk
// are never touched by a failed save (every write is atomic or an append).

import { basename } from 'node:path';
import type { StorageProblem } from '../../shared/storage.ts';
import { NewerDataError } from './data-files.ts';
import type { LocalFiles } from './local-files.ts';

const REASONS: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the disk is read-only',
  EACCES: 'Store Admin is not allowed to write there',
  EPERM: 'Store Admin is not allowed to write there',
  // Not the system's: a file of a later version than this one knows (data-files.ts), left as it is.
  ENEWER: 'a newer version of Store Admin saved data there that this version leaves as it is',
};

/** The error code of a failure to save, when it is one the disk or the folder causes. */
export function storageErrorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && Object.hasOwn(REASONS, code) ? code : undefined;
}

/** Why a save failed, in a few words ("the disk is full"). */
export function reasonWords(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (code !== undefined && REASONS[code]) || 'the file could not be written';
}

/** The one sentence the notice shows; the code goes behind its Details. */
export function problemMessage(folder: string, code: string): string {
  if (code === 'ENEWER')
    return `Some of what is saved in ${folder} was saved by a newer version of Store Admin. This version leaves it as it is, so what changes there now is kept only until it closes; install the newer version again to go on with it.`;
  return `Store Admin cannot save to its data folder ${folder} because ${REASONS[code] ?? 'the file could not be written'}, so what changes now is kept only until it closes; nothing saved before is lost.`;
}

/** What Details says of ENEWER, which is no code of the system's: the file, and the formats. */
function newerDetail(error: unknown, file: string): string {
  const newer = error instanceof NewerDataError ? error : undefined;
  return `Left as it is: ${basename(newer?.file ?? file)}${newer ? ` (format ${newer.found}; this version reads up to ${newer.known})` : ''}.`;
}

export class StorageHealth {
  readonly #folder: string;
  #problem: StorageProblem | undefined;
  /** Files whose last save failed: a later save of one of them shows the disk takes writes again. */
  readonly #failing = new Set<string>();
  readonly #listeners = new Set<(problem: StorageProblem | undefined) => void>();

  constructor(folder: string) {
    this.#folder = folder;
  }

  get folder(): string {
    return this.#folder;
  }

  problem(): StorageProblem | undefined {
    return this.#problem;
  }

  /** Called with each change: a new problem, or undefined once saving works again. */
  onChange(listener: (problem: StorageProblem | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * A save of `file` failed. Returns whether it was the disk's or the
   * folder's doing (then the app goes on from memory).
   */
  failed(error: unknown, file: string): boolean {
    const code = storageErrorCode(error);
    if (code === undefined) return false;
    this.#failing.add(file);
    if (this.#problem?.code !== code) {
      this.#problem = {
        folder: this.#folder,
        code,
        message: problemMessage(this.#folder, code),
        ...(code === 'ENEWER' ? { detail: newerDetail(error, file) } : {}),
      };
      this.#tell();
    }
    return true;
  }

  /**
   * A save of `file` went through. Once a file whose save had failed is
   * saved, the disk takes writes again and the problem is over (a file that
   * never failed proves nothing: it may be small, or elsewhere).
   */
  saved(file: string): void {
    if (!this.#failing.has(file)) return;
    this.#failing.clear();
    if (!this.#problem) return;
    this.#problem = undefined;
    this.#tell();
  }

  /** `files`, with every failure and success told to this health. */
  watch(files: LocalFiles): LocalFiles {
    const watched = async (file: string, write: () => Promise<void>): Promise<void> => {
      try {
        await write();
      } catch (error) {
        this.failed(error, file);
        throw error;
      }
      this.saved(file);
    };
    return {
      append: (file, text, options) => watched(file, () => files.append(file, text, options)),
      replace: (file, text) => watched(file, () => files.replace(file, text)),
      // A streamed write is told by its owner once it is whole or given up (see orders/refresh.ts).
      create: (file) => files.create(file),
    };
  }

  #tell(): void {
    for (const listener of this.#listeners) listener(this.#problem);
  }
}
