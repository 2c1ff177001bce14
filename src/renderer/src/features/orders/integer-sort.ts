// A stable sort of row indexes by exact integer keys (int64 ids, quantities,
// times), for lists of a million orders. A comparison sort calls its
// comparator ~20 million times there (hundreds of ms); an LSD radix sort does
// a few linear passes. Keys are first shifted to start at 0 (and times in
// whole seconds divided by 1000), so dense ids need two passes, not four.
//
// Int64 values are read from their decimal text as high * 1e9 + low, two
// exact doubles, so ids above 2^53 keep their order without BigInt.

const MAX_DIGIT_BITS = 16;
const TWO_32 = 2 ** 32;
const LOW_BASE = 1e9;
/** Above this, (high - min) * 1e9 + low would no longer be an exact double. */
const MAX_HIGH_SPAN = Math.floor(Number.MAX_SAFE_INTEGER / LOW_BASE) - 1;

/** A non-negative integer key < 2^53 per row: hi * 2^32 + lo. */
export interface SortKey {
  readonly lo: Uint32Array;
  /** Undefined when every key fits in 32 bits. */
  readonly hi: Uint32Array | undefined;
  /** Bits that can differ between rows. */
  readonly bits: number;
}

function bitsOf(value: number): number {
  let bits = 0;
  while (value >= 1) {
    value = Math.floor(value / 2);
    bits++;
  }
  return bits;
}

/**
 * The sort key of safe integers (`values` by row; only `rows` are read):
 * shifted to start at 0, and divided by 1000 when all are whole thousands.
 */
export function keyOfValues(values: Float64Array | Uint32Array, rows: Uint32Array): SortKey {
  const count = values.length;
  let min = Infinity;
  let max = -Infinity;
  let thousands = true;
  for (let i = 0; i < rows.length; i++) {
    const value = values[rows[i]!]!;
    if (value < min) min = value;
    if (value > max) max = value;
    // (a division, not %: V8's floating-point remainder is a slow call)
    if (thousands && !Number.isInteger(value / 1000)) thousands = false;
  }
  if (rows.length === 0) return { lo: new Uint32Array(count), hi: undefined, bits: 0 };
  const scale = thousands ? 1000 : 1;
  const span = (max - min) / scale;
  const lo = new Uint32Array(count);
  const hi = span >= TWO_32 ? new Uint32Array(count) : undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const key = (values[row]! - min) / scale;
    if (hi) {
      const high = Math.floor(key / TWO_32);
      hi[row] = high;
      lo[row] = key - high * TWO_32;
    } else {
      lo[row] = key;
    }
  }
  return { lo, hi, bits: bitsOf(span) };
}

/**
 * The sort keys of int64 values given as high * 1e9 + low (`highs`, `lows`
 * by row; only `rows` are read): one key when the values span less than
 * ~2^53, else two (the high and the low part), most significant first.
 */
export function keysOfParts(
  highs: Float64Array,
  lows: Float64Array | Uint32Array,
  rows: Uint32Array,
): SortKey[] {
  let minHigh = Infinity;
  let maxHigh = -Infinity;
  for (let i = 0; i < rows.length; i++) {
    const high = highs[rows[i]!]!;
    if (high < minHigh) minHigh = high;
    if (high > maxHigh) maxHigh = high;
  }
  // Ids under 1e9 (and any ids that share their high part) are ordered by their low part alone.
  if (maxHigh === minHigh) return [keyOfValues(lows, rows)];
  if (maxHigh - minHigh <= MAX_HIGH_SPAN) {
    // One exact value per row: (high - min) * 1e9 + low < 2^53.
    const values = new Float64Array(highs.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      values[row] = (highs[row]! - minHigh) * LOW_BASE + lows[row]!;
    }
    return [keyOfValues(values, rows)];
  }
  return [keyOfValues(highs, rows), keyOfValues(lows, rows)];
}

/**
 * One LSD pass: a stable scatter by one digit, moving each row with its key
 * so both are read in sequence (a gather of keys[row] would miss the cache).
 */
function pass(
  rows: Uint32Array,
  keys: Uint32Array,
  toRows: Uint32Array,
  toKeys: Uint32Array,
  shift: number,
  bits: number,
): void {
  const mask = (1 << bits) - 1;
  const offsets = new Uint32Array((1 << bits) + 1);
  for (let i = 0; i < keys.length; i++) offsets[((keys[i]! >>> shift) & mask) + 1]! += 1;
  for (let d = 1; d < offsets.length; d++) offsets[d]! += offsets[d - 1]!;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const slot = offsets[(key >>> shift) & mask]!++;
    toRows[slot] = rows[i]!;
    toKeys[slot] = key;
  }
}

/**
 * Sorts `rows` stably by one 32-bit word of their keys, in digits of at most
 * 16 bits. May reuse `rows` as scratch space.
 */
function sortByWord(rows: Uint32Array, word: Uint32Array, bits: number): Uint32Array {
  if (bits <= 0) return rows;
  let fromRows: Uint32Array = rows;
  let fromKeys: Uint32Array = new Uint32Array(rows.length);
  for (let i = 0; i < rows.length; i++) fromKeys[i] = word[rows[i]!]!;
  let toRows: Uint32Array = new Uint32Array(rows.length);
  let toKeys: Uint32Array = new Uint32Array(rows.length);
  // Digits as even as possible: fewer buckets are kinder to the cache.
  const digits = Math.ceil(bits / MAX_DIGIT_BITS);
  const width = Math.ceil(bits / digits);
  for (let d = 0; d < digits; d++) {
    pass(fromRows, fromKeys, toRows, toKeys, d * width, Math.min(width, bits - d * width));
    [fromRows, toRows] = [toRows, fromRows];
    [fromKeys, toKeys] = [toKeys, fromKeys];
  }
  return fromRows;
}

/**
 * The rows sorted by their keys (most significant key first), ascending and
 * stable: equal keys keep the order they have in `rows`. Returns a new array.
 */
export function sortRows(rows: Uint32Array, keys: readonly SortKey[]): Uint32Array {
  let sorted: Uint32Array = Uint32Array.from(rows);
  // Services often send lists in id order: one look saves the passes.
  if (rows.length < 2 || isSorted(rows, keys)) return sorted;
  for (let k = keys.length - 1; k >= 0; k--) {
    const { lo, hi, bits } = keys[k]!;
    sorted = sortByWord(sorted, lo, Math.min(bits, 32));
    if (hi) sorted = sortByWord(sorted, hi, bits - 32);
  }
  return sorted;
}

function compareKeys(keys: readonly SortKey[], a: number, b: number): number {
  for (const { lo, hi } of keys) {
    if (hi && hi[a] !== hi[b]) return hi[a]! - hi[b]!;
    if (lo[a] !== lo[b]) return lo[a]! - lo[b]!;
  }
  return 0;
}

function isSorted(rows: Uint32Array, keys: readonly SortKey[]): boolean {
  const only = keys.length === 1 && !keys[0]!.hi ? keys[0]!.lo : undefined;
  if (only) {
    // The common case, one 32-bit key: a plain loop.
    let previous = only[rows[0]!]!;
    for (let i = 1; i < rows.length; i++) {
      const key = only[rows[i]!]!;
      if (key < previous) return false;
      previous = key;
    }
    return true;
  }
  for (let i = 1; i < rows.length; i++) {
    if (compareKeys(keys, rows[i - 1]!, rows[i]!) > 0) return false;
  }
  return true;
}

/**
 * The descending order of an ascending, stable one: runs of equal values in
 * reverse, each run keeping its order, so ties read the same both ways.
 * `equal` tells whether two rows hold the same value.
 */
export function descendingOf(
  ascending: Uint32Array,
  equal: (a: number, b: number) => boolean,
): Uint32Array {
  const count = ascending.length;
  const out = new Uint32Array(count);
  let write = 0;
  let end = count;
  while (end > 0) {
    let start = end - 1;
    while (start > 0 && equal(ascending[start - 1]!, ascending[start]!)) start--;
    for (let i = start; i < end; i++) out[write++] = ascending[i]!;
    end = start;
  }
  return out;
}
