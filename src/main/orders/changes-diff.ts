// What changed between two order lists of one service, on their columns
// (src/shared/order-columns.ts): orders are matched by id, compared as each
// id's exact int64 parts (high * 1e9 + low), first where the list's order
// leads and otherwise through a hash table over those parts. So comparing
// two lists of a million orders makes no string and no object per order,
// only a few typed arrays and a few passes over each list.
//
// An id repeated within a list is matched occurrence by occurrence (the
// first with the first); orders without an id cannot be followed from one
// list to the next and are only counted.

import type { OrderColumns } from '../../shared/order-columns.ts';

/** Bits of `ListDiff.changedFields`, one per field of Order that can change. */
export const CHANGED_PET = 1;
export const CHANGED_QUANTITY = 2;
export const CHANGED_SHIP_DATE = 4;
export const CHANGED_COMPLETE = 8;

export interface ListDiff {
  /** Rows of the current list whose id the previous list did not have. */
  readonly added: Uint32Array;
  /** Rows of the previous list whose id the current list no longer has. */
  readonly gone: Uint32Array;
  /** Rows of the current list whose order changed... */
  readonly changed: Uint32Array;
  /** ...the same order's row in the previous list... */
  readonly changedFrom: Uint32Array;
  /** ...and which of its fields changed (CHANGED_* bits). */
  readonly changedFields: Uint8Array;
  /** Orders without an id in each list: not compared. */
  readonly unidentified: { readonly previous: number; readonly current: number };
}

const NO_MATCH = -1;
const NO_ID = -2;
/** How many rows past the last match an order is looked for before hashing: orders that left in between. */
const LOOKAHEAD = 8;

/** murmur3's finalizer over both halves of an id: sequential ids spread over the whole table. */
function hashOf(high: number, low: number): number {
  let h = Math.imul(low, 0x9e3779b1) ^ Math.imul(high | 0, 0x85ebca77) ^ ((high / 4294967296) | 0);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

export function diffOrderLists(previous: OrderColumns, current: OrderColumns): ListDiff {
  const oldHighs = previous.idHighs;
  const oldLows = previous.idLows;
  const newHighs = current.idHighs;
  const newLows = current.idLows;
  /** Each current row's row in the previous list; NO_MATCH for a new order, NO_ID without an id. */
  const matchOf = new Int32Array(current.count);
  const matched = new Uint8Array(previous.count);

  // A service sends its list in a stable order, so most orders are where the
  // last match leads: just after it, or a few rows on where orders left.
  // These are matched without hashing; the rest go through the hash table.
  let next = 0;
  let unmatched = 0;
  let unidentifiedNow = 0;
  for (let row = 0; row < current.count; row++) {
    const high = newHighs[row]!;
    if (high !== high) {
      matchOf[row] = NO_ID;
      unidentifiedNow++;
      continue;
    }
    const low = newLows[row]!;
    let found = NO_MATCH;
    const end = Math.min(previous.count, next + LOOKAHEAD);
    for (let candidate = next; candidate < end; candidate++) {
      if (oldLows[candidate] === low && oldHighs[candidate] === high) {
        found = candidate;
        break;
      }
    }
    matchOf[row] = found;
    if (found === NO_MATCH) {
      unmatched++;
    } else {
      matched[found] = 1;
      next = found + 1;
    }
  }

  // The rest: the previous list's unmatched rows by id (open addressing,
  // linear probing, at most half full), looked up by the current list's.
  let unidentifiedBefore = 0;
  if (unmatched > 0) {
    let size = 16;
    while (size < (previous.count - (current.count - unmatched - unidentifiedNow)) * 2) size *= 2;
    const mask = size - 1;
    // Two int32s per slot, the row and its id's low part, so a probe reads one cache line.
    const slots = new Int32Array(size * 2).fill(NO_MATCH);
    for (let row = 0; row < previous.count; row++) {
      const high = oldHighs[row]!;
      if (high !== high) {
        unidentifiedBefore++;
        continue;
      }
      if (matched[row] === 1) continue;
      const low = oldLows[row]!;
      let slot = hashOf(high, low) & mask;
      while (slots[slot * 2] !== NO_MATCH) slot = (slot + 1) & mask;
      slots[slot * 2] = row;
      slots[slot * 2 + 1] = low | 0;
    }
    // Rows of a repeated id are met in the order they were inserted: the first unmatched one is taken.
    for (let row = 0; row < current.count; row++) {
      if (matchOf[row] !== NO_MATCH) continue;
      const high = newHighs[row]!;
      const low = newLows[row]!;
      const lowBits = low | 0;
      let slot = hashOf(high, low) & mask;
      for (let candidate = slots[slot * 2]!; candidate !== NO_MATCH; candidate = slots[slot * 2]!) {
        if (
          slots[slot * 2 + 1] === lowBits &&
          oldHighs[candidate] === high &&
          matched[candidate] === 0
        ) {
          matched[candidate] = 1;
          matchOf[row] = candidate;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
  } else {
    for (let row = 0; row < previous.count; row++) {
      const high = oldHighs[row]!;
      if (high !== high) unidentifiedBefore++;
    }
  }

  // In the current list's order: new orders, and matched ones whose fields differ.
  const added = new Uint32Array(current.count);
  const changed = new Uint32Array(current.count);
  const changedFrom = new Uint32Array(current.count);
  const changedFields = new Uint8Array(current.count);
  let addedCount = 0;
  let changedCount = 0;
  for (let row = 0; row < current.count; row++) {
    const match = matchOf[row]!;
    if (match === NO_ID) continue;
    if (match === NO_MATCH) {
      added[addedCount++] = row;
      continue;
    }
    const fields = fieldsChanged(previous, match, current, row);
    if (fields !== 0) {
      changed[changedCount] = row;
      changedFrom[changedCount] = match;
      changedFields[changedCount++] = fields;
    }
  }

  const gone = new Uint32Array(previous.count);
  let goneCount = 0;
  for (let row = 0; row < previous.count; row++) {
    if (matched[row] === 0 && oldHighs[row] === oldHighs[row]) gone[goneCount++] = row;
  }

  return {
    added: added.slice(0, addedCount),
    gone: gone.slice(0, goneCount),
    changed: changed.slice(0, changedCount),
    changedFrom: changedFrom.slice(0, changedCount),
    changedFields: changedFields.slice(0, changedCount),
    unidentified: { previous: unidentifiedBefore, current: unidentifiedNow },
  };
}

/** The CHANGED_* bits of one order, from its row in each list. */
function fieldsChanged(before: OrderColumns, a: number, after: OrderColumns, b: number): number {
  let fields = 0;
  const petBefore = before.petIdHighs[a]!;
  const petAfter = after.petIdHighs[b]!;
  if (
    petBefore !== petAfter
      ? petBefore === petBefore || petAfter === petAfter // not both absent (NaN)
      : before.petIdLows[a] !== after.petIdLows[b]
  ) {
    fields |= CHANGED_PET;
  }
  const quantityBefore = before.quantities[a]!;
  const quantityAfter = after.quantities[b]!;
  if (
    quantityBefore !== quantityAfter &&
    (quantityBefore === quantityBefore || quantityAfter === quantityAfter)
  ) {
    fields |= CHANGED_QUANTITY;
  }
  if (!sameShipDate(before, a, after, b)) fields |= CHANGED_SHIP_DATE;
  if (before.complete[a] !== after.complete[b]) fields |= CHANGED_COMPLETE;
  return fields;
}

/**
 * The same moment is the same ship date, however it is written ("…Z" or
 * "…+00:00"); where either has no moment (absent), the texts are compared.
 */
function sameShipDate(before: OrderColumns, a: number, after: OrderColumns, b: number): boolean {
  const timeBefore = before.shipTimes[a]!;
  const timeAfter = after.shipTimes[b]!;
  if (timeBefore === timeBefore && timeAfter === timeAfter) return timeBefore === timeAfter;
  const start = before.shipStarts[a]!;
  const length = before.shipStarts[a + 1]! - start;
  const otherStart = after.shipStarts[b]!;
  if (after.shipStarts[b + 1]! - otherStart !== length) return false;
  for (let k = 0; k < length; k++) {
    if (before.shipText[start + k] !== after.shipText[otherStart + k]) return false;
  }
  return true;
}

/** The given rows of a list as a list of their own, in the order given (for what a diff keeps). */
export function pickRows(columns: OrderColumns, rows: Uint32Array): OrderColumns {
  const count = rows.length;
  let idBytes = 0;
  let shipBytes = 0;
  for (let k = 0; k < count; k++) {
    const row = rows[k]!;
    idBytes += columns.lineStarts[row + 1]! - columns.lineStarts[row]!;
    shipBytes += columns.shipStarts[row + 1]! - columns.shipStarts[row]!;
  }
  const idText = new Uint8Array(idBytes);
  const lineStarts = new Uint32Array(count + 1);
  const tabs = new Uint32Array(count);
  const shipText = new Uint8Array(shipBytes);
  const shipStarts = new Uint32Array(count + 1);
  const idHighs = new Float64Array(count);
  const idLows = new Uint32Array(count);
  const petIdHighs = new Float64Array(count);
  const petIdLows = new Uint32Array(count);
  const quantities = new Float64Array(count);
  const shipTimes = new Float64Array(count);
  const complete = new Uint8Array(count);
  let idAt = 0;
  let shipAt = 0;
  let widestId = 0;
  let widestPetId = 0;
  for (let k = 0; k < count; k++) {
    const row = rows[k]!;
    const start = columns.lineStarts[row]!;
    const end = columns.lineStarts[row + 1]!;
    lineStarts[k] = idAt;
    tabs[k] = idAt + columns.tabs[row]! - start;
    widestId = Math.max(widestId, columns.tabs[row]! - start);
    widestPetId = Math.max(widestPetId, end - 1 - columns.tabs[row]! - 1);
    idText.set(columns.idText.subarray(start, end), idAt);
    idAt += end - start;
    const shipStart = columns.shipStarts[row]!;
    const shipEnd = columns.shipStarts[row + 1]!;
    shipStarts[k] = shipAt;
    shipText.set(columns.shipText.subarray(shipStart, shipEnd), shipAt);
    shipAt += shipEnd - shipStart;
    idHighs[k] = columns.idHighs[row]!;
    idLows[k] = columns.idLows[row]!;
    petIdHighs[k] = columns.petIdHighs[row]!;
    petIdLows[k] = columns.petIdLows[row]!;
    quantities[k] = columns.quantities[row]!;
    shipTimes[k] = columns.shipTimes[row]!;
    complete[k] = columns.complete[row]!;
  }
  lineStarts[count] = idAt;
  shipStarts[count] = shipAt;
  return {
    count,
    idText,
    lineStarts,
    tabs,
    idHighs,
    idLows,
    petIdHighs,
    petIdLows,
    quantities,
    shipText,
    shipStarts,
    shipTimes,
    complete,
    widestId,
    widestPetId,
  };
}
