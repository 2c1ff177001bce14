// The stand-in's executable carries a fuse wire laid out as Electron's
// (@electron/fuses reads and flips it the same way), so packaging flips real
// fuses on it, and the stand-in honours the ones it can: RunAsNode
// (ELECTRON_RUN_AS_NODE), EnableNodeOptionsEnvironmentVariable (NODE_OPTIONS),
// EnableNodeCliInspectArguments (--inspect) and OnlyLoadAppFromAsar
// (docs/tutorial/fuses.md). Cookie encryption, asar integrity and the V8
// snapshot fuses are read but change nothing here.

import { readFileSync } from 'node:fs';

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

export const FUSE = {
  RunAsNode: 0,
  EnableCookieEncryption: 1,
  EnableNodeOptionsEnvironmentVariable: 2,
  EnableNodeCliInspectArguments: 3,
  EnableEmbeddedAsarIntegrityValidation: 4,
  OnlyLoadAppFromAsar: 5,
  LoadBrowserProcessSpecificV8Snapshot: 6,
  GrantFileProtocolExtraPrivileges: 7,
} as const;

/** Whether each fuse is on ('1'), off ('0') or removed ('r'); undefined without a wire. */
export function readFuses(executable: string): ((fuse: number) => boolean) | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(executable);
  } catch {
    return undefined;
  }
  const at = bytes.indexOf(SENTINEL);
  if (at < 0) return undefined;
  const wire = at + SENTINEL.length;
  const length = bytes[wire + 1] ?? 0;
  return (fuse) => fuse < length && bytes[wire + 2 + fuse] === 0x31;
}
