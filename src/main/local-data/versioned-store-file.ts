// The files electron-store keeps in the userData folder (settings.json,
// api-keys.json) carry their format's version in a `version` field beside
// their own keys, as the data folder's files do (data-files.ts). A file of
// an earlier release has none: it is version 1 and read as it is, and the
// field comes with the next save, in the same write. A file of a later
// version than this app knows (a newer release's, after a downgrade) is
// left as it is: this session works on a copy of it in memory, and it is
// said once (in the log here; to the clerk in the storage notice, by the
// caller).

import { NewerDataError, tellNewer, versionOf, type DataFile } from './data-files.ts';

/** A file of keys and values; keys are dot paths (`production.ciphertext`), as electron-store's. */
export interface KeyValueFile {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** The part of an electron-store (or conf) instance used here. */
export interface StoreFile {
  readonly path: string;
  readonly store: Readonly<Record<string, unknown>>;
  get(key: string): unknown;
  /** Several keys in one write. */
  set(values: Readonly<Record<string, unknown>>): void;
  delete(key: string): void;
}

export interface VersionedStoreFile extends KeyValueFile {
  /** Set when the file is of a later version: it is left as it is, and changes stay in memory. */
  readonly newer: NewerDataError | undefined;
}

/** A store file whose every write carries `format`'s version, or a copy in memory when it is newer. */
export function versionedStoreFile(file: StoreFile, format: DataFile): VersionedStoreFile {
  const found = versionOf(file.store);
  if (found > format.version) {
    const newer = new NewerDataError(file.path, found, format.version);
    tellNewer(newer);
    return { ...inMemory(file.store), newer };
  }
  const stamped = () => file.get('version') === format.version;
  return {
    newer: undefined,
    get: (key) => file.get(key),
    // One write: the value and the version together.
    set: (key, value) => file.set({ [key]: value, version: format.version }),
    delete: (key) => {
      file.delete(key);
      if (!stamped()) file.set({ version: format.version });
    },
  };
}

type Tree = Record<string, unknown>;

const isTree = (value: unknown): value is Tree =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of a store's keys and values, changed in memory only. */
function inMemory(initial: Readonly<Record<string, unknown>>): KeyValueFile {
  const data = structuredClone(initial) as Tree;
  /** The object holding `key`'s last part, made on the way when `make`. */
  const parentOf = (key: string, make: boolean): { node: Tree; last: string } | undefined => {
    const parts = key.split('.');
    const last = parts.pop()!;
    let node = data;
    for (const part of parts) {
      const next = node[part];
      if (!isTree(next)) {
        if (!make) return undefined;
        node[part] = {};
      }
      node = node[part] as Tree;
    }
    return { node, last };
  };
  return {
    get: (key) => {
      const at = parentOf(key, false);
      return at && Object.hasOwn(at.node, at.last) ? structuredClone(at.node[at.last]) : undefined;
    },
    set: (key, value) => {
      const at = parentOf(key, true)!;
      at.node[at.last] = structuredClone(value);
    },
    delete: (key) => {
      const at = parentOf(key, false);
      if (at) delete at.node[at.last];
    },
  };
}
