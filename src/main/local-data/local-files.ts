// How the app's local data reaches the disk, behind one small interface so a
// full disk, a read-only one or a folder the app may not write can be tried
// in tests (an injected layer that fails as the disk would), and so every
// failure to save is seen in one place (StorageHealth).

import { existsSync, mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

export interface LocalFiles {
  /**
   * Appends `text` to `file` (created 0600). With `sync`, the data, and the
   * file's entry in its folder when the file is new, have reached the disk
   * when this resolves: a power cut after it cannot lose them.
   */
  append(file: string, text: string, options?: { readonly sync?: boolean }): Promise<void>;
  /** Replaces `file` whole (a temporary file, fsync, rename): a crash leaves the old one or the new one. */
  replace(file: string, text: string): Promise<void>;
  /**
   * Creates `file` (0600, emptied if it exists) for a write streamed in
   * pieces at chosen places: the order cache's temporary file, written as
   * the list downloads.
   */
  create(file: string): Promise<StreamedFile>;
}

export interface StreamedFile {
  /** Writes `chunks` one after another, the first at byte `position`. */
  writeAt(chunks: readonly Uint8Array[], position: number): Promise<void>;
  /** Gets the data written so far to the disk (not the file's times). */
  flush(): Promise<void>;
  /** Gets the data and the file's size to the disk: what a rename over the old file needs. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some file systems cannot sync a folder; the data itself is synced.
    if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Creates the data folder `dir` and its parents (0700). Node's recursive
 * mkdir reports a read-only disk (EROFS) as ENOENT; the first missing folder
 * is then made alone, which fails with the real cause.
 */
export function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    let missing = dir;
    while (dirname(missing) !== missing && !existsSync(dirname(missing)))
      missing = dirname(missing);
    mkdirSync(missing, { mode: 0o700 });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
}

/** All of `data` at `position`, however many writes the disk takes it in. */
async function writeAll(handle: FileHandle, data: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < data.byteLength;) {
    const { bytesWritten } = await handle.write(
      data,
      done,
      data.byteLength - done,
      position + done,
    );
    // Never seen for a regular file, but a loop that cannot advance must not spin.
    if (bytesWritten === 0)
      throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    done += bytesWritten;
  }
}

/**
 * Runs `write` of `file`; if its folder is missing (never made, as the disk
 * took nothing at the start, or removed since) it is made and `write` runs
 * again, so a disk that still takes nothing fails with its own reason.
 */
async function inFolder<T>(file: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    makeFolder(dirname(file));
    return write();
  }
}

/** The real disk. */
export function nodeFiles(): LocalFiles {
  /** Files whose folder entry this process has already synced. */
  const known = new Set<string>();
  return {
    async append(file, text, options = {}) {
      const handle = await inFolder(file, () => open(file, 'a', 0o600));
      try {
        await handle.appendFile(text);
        if (options.sync) await handle.datasync();
      } finally {
        await handle.close();
      }
      if (options.sync && !known.has(file)) {
        await syncFolder(dirname(file));
        known.add(file);
      }
    },
    replace: (file, text) => inFolder(file, () => writeFileAtomic(file, text, { mode: 0o600 })),
    async create(file) {
      const handle = await inFolder(file, () => open(file, 'w', 0o600));
      return {
        writeAt: async (chunks, position) => {
          const size = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
          const { bytesWritten } = await handle.writev(chunks as Uint8Array[], position);
          // A nearly full disk takes part of a write without an error: writing the rest
          // gets the error (ENOSPC), where stopping here would leave a hole in the file.
          if (bytesWritten < size)
            await writeAll(
              handle,
              Buffer.concat(chunks).subarray(bytesWritten),
              position + bytesWritten,
            );
        },
        flush: () => handle.datasync(),
        sync: () => handle.sync(),
        close: () => handle.close(),
      };
    },
  };
}
