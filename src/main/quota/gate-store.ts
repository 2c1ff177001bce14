// Where a key's gate keeps its record. In memory for a gate of its own, or
// in a file that every process on this computer using the same key at the
// same address shares (shared-gate-files.ts), so the app and every CLI run
// pace together.

import { emptyRecord, type GateRecord } from './gate-record.ts';

export interface GateStore {
  /**
   * Reads the record, lets `change` edit it in place, and keeps the result,
   * as one step that no other process sharing the record can interleave
   * with. Returns the record after the change. Never throws for storage
   * trouble: the gate must go on deciding.
   */
  update(change: (record: GateRecord) => void): GateRecord;
  /** The record as it stands (for looking, not for deciding). */
  read(): GateRecord;
}

/** The gate stores of every key, one per key and service address. */
export interface GateStores {
  open(baseUrl: string, key: string): GateStore;
}

export class MemoryGateStore implements GateStore {
  readonly #record = emptyRecord();

  update(change: (record: GateRecord) => void): GateRecord {
    change(this.#record);
    return this.#record;
  }

  read(): GateRecord {
    return this.#record;
  }
}
