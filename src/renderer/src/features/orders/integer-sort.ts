// A stable sort of exact integer keys (int64 ids, quantities, times), for
// lists of a million orders. A comparison sort calls its comparator ~20
// million times there (hundreds of ms); an LSD radix sort does a few linear
// passes over typed arrays, with no allocation per row. Keys are first
// shifted to start at 0 (and times in whole seconds divided by 1000), so
// dense ids need two passes, not four, and a digit every key shares is
// skipped.
//
// Int64 values come as high * 1e9 + low, two exact doubles (see
// src/shared/order-columns.ts), so ids above 2^53 keep their order without
// BigInt.

const MAX_DIGIT_BITS = 16;
const TWO_32 = 2 ** 32;
const LOW_BASE = 1e9;
/** Above this, (high - min) * 1e9 + low would no longer be an exact double. */
const MAX_HIGH_SPAN = Math.floor(Number.MAX_SAFE_INTEGER / LOW_BASE) - 1;

/** One 32-bit word of every key, by position, with the bits that can differ. */
interface KeyWord {
  readonly word: Uint32Array;
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
 * The words of non-negative integer keys below 2^53, least significant
 * first: `keyAt(k)` for each of `n` positions, `span` the largest.
 */
function wordsOf(n: number, span: number, keyAt: (k: number) => number): KeyWord[] {
  const bits = bitsOf(span);
  const lo = new Uint32Array(n);
  if (bits <= 32) {
    for (let k = 0; k < n; k++) lo[k] = keyAt(k);
    return [{ word: lo, bits }];
  }
  const hi = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const key = keyAt(k);
    const high = Math.floor(key / TWO_32);
    hi[k] = high;
    lo[k] = key - high * TWO_32;
  }
  return [
    { word: lo, bits: 32 },
    { word: hi, bits: bits - 32 },
  ];
}

/** Whether the keys already ascend (services often send lists in id order). */
function ascends(highs: Float64Array, lows: Uint32Array | undefined, n: number): boolean {
  for (let k = 1; k < n; k++) {
    const previous = highs[k - 1]!;
    const high = highs[k]!;
    if (high < previous) return false;
    if (lows && high === previous && lows[k]! < lows[k - 1]!) return false;
  }
  return true;
}

/**
 * The positions 0 … n-1 sorted by their keys, ascending and stable (equal
 * keys keep their order). The key at position k is `highs[k] * 1e9 +
 * lows[k]` (an int64 id), or `highs[k]` alone when `lows` is undefined (a
 * safe integer: a time, a quantity). Only the first `n` entries are read.
 */
export function sortedPositions(
  highs: Float64Array,
  lows: Uint32Array | undefined,
  n = highs.length,
): Uint32Array {
  return sortByKeys(highs, lows, n, undefined);
}

/**
 * `rows` (the row at position k is `rows[k]`) sorted by the keys of their
 * positions, as sortedPositions orders them: the rows themselves move
 * through the passes, so no gather by position follows. A new array.
 */
export function sortRowsByKeys(
  rows: Uint32Array,
  highs: Float64Array,
  lows: Uint32Array | undefined,
): Uint32Array {
  return sortByKeys(highs, lows, rows.length, rows);
}

function sortByKeys(
  highs: Float64Array,
  lows: Uint32Array | undefined,
  n: number,
  rows: Uint32Array | undefined,
): Uint32Array {
  if (n < 2 || ascends(highs, lows, n)) return rows ? rows.slice(0, n) : identity(n);
  return radixSort(n, wordsOfKeys(highs, lows, n), rows);
}

/** The key words to sort by, least significant first (see the top of this file). */
function wordsOfKeys(highs: Float64Array, lows: Uint32Array | undefined, n: number): KeyWord[] {
  let minHigh = Infinity;
  let maxHigh = -Infinity;
  let thousands = !lows;
  for (let k = 0; k < n; k++) {
    const high = highs[k]!;
    if (high < minHigh) minHigh = high;
    if (high > maxHigh) maxHigh = high;
    // (a division, not %: V8's floating-point remainder is a slow call)
    if (thousands && !Number.isInteger(high / 1000)) thousands = false;
  }
  if (!lows) {
    const scale = thousands ? 1000 : 1;
    return wordsOf(n, (maxHigh - minHigh) / scale, (k) => (highs[k]! - minHigh) / scale);
  }
  if (maxHigh === minHigh) {
    // Ids under 1e9 (or sharing their high part): the low part alone.
    let minLow = Infinity;
    let maxLow = -Infinity;
    for (let k = 0; k < n; k++) {
      const low = lows[k]!;
      if (low < minLow) minLow = low;
      if (low > maxLow) maxLow = low;
    }
    return wordsOf(n, maxLow - minLow, (k) => lows[k]! - minLow);
  }
  if (maxHigh - minHigh <= MAX_HIGH_SPAN) {
    // One exact value per key: (high - min) * 1e9 + low < 2^53.
    return wordsOf(
      n,
      (maxHigh - minHigh) * LOW_BASE + LOW_BASE - 1,
      (k) => (highs[k]! - minHigh) * LOW_BASE + lows[k]!,
    );
  }
  // Ids spread wider than ~2^53: the low part first, then the high part (LSD).
  return [{ word: lows, bits: 30 }, ...wordsOf(n, maxHigh - minHigh, (k) => highs[k]! - minHigh)];
}

function identity(n: number): Uint32Array {
  const positions = new Uint32Array(n);
  for (let k = 0; k < n; k++) positions[k] = k;
  return positions;
}

/**
 * LSD radix sort by key words (least significant first), in digits of at
 * most 16 bits: each pass a stable scatter that moves a value with its
 * current word, so both are read in sequence (a gather of word[position]
 * would miss the cache at every step; it happens once per word after the
 * first). What moves is the rows themselves when one word decides the
 * order, else positions (the rows are gathered by them at the end). Arrays
 * are allocated once for all passes, and the last pass writes no keys.
 */
function radixSort(n: number, allWords: readonly KeyWord[], rows?: Uint32Array): Uint32Array {
  const words = allWords.filter(({ bits }) => bits > 0);
  const carried = rows && words.length === 1 ? rows : undefined;
  /** Undefined until the first pass moves them: `carried`, or positions 0 … n-1. */
  let values: Uint32Array | undefined;
  let toValues: Uint32Array = new Uint32Array(n);
  let keys: Uint32Array | undefined;
  let toKeys: Uint32Array | undefined;
  for (let w = 0; w < words.length; w++) {
    const { word, bits } = words[w]!;
    if (values) {
      keys ??= new Uint32Array(n);
      for (let i = 0; i < n; i++) keys[i] = word[values[i]!]!;
    }
    // Digits as even as possible: fewer buckets are kinder to the cache.
    const digits = Math.ceil(bits / MAX_DIGIT_BITS);
    const width = Math.ceil(bits / digits);
    for (let d = 0; d < digits; d++) {
      const shift = d * width;
      const mask = (1 << Math.min(width, bits - shift)) - 1;
      const from: Uint32Array = values ? keys! : word;
      const offsets = new Uint32Array(mask + 2);
      for (let i = 0; i < n; i++) offsets[((from[i]! >>> shift) & mask) + 1]! += 1;
      // A digit every key shares moves nothing.
      if (offsets[((from[0]! >>> shift) & mask) + 1] === n) continue;
      for (let b = 1; b < offsets.length; b++) offsets[b]! += offsets[b - 1]!;
      const last = d === digits - 1 && w === words.length - 1;
      if (!last) toKeys ??= new Uint32Array(n);
      const to = toValues;
      if (values) {
        for (let i = 0; i < n; i++) {
          const key = from[i]!;
          const slot = offsets[(key >>> shift) & mask]!++;
          to[slot] = values[i]!;
          if (!last) toKeys![slot] = key;
        }
      } else if (carried) {
        for (let i = 0; i < n; i++) {
          const key = from[i]!;
          const slot = offsets[(key >>> shift) & mask]!++;
          to[slot] = carried[i]!;
          if (!last) toKeys![slot] = key;
        }
      } else {
        for (let i = 0; i < n; i++) {
          const key = from[i]!;
          const slot = offsets[(key >>> shift) & mask]!++;
          to[slot] = i;
          if (!last) toKeys![slot] = key;
        }
      }
      toValues = values ?? new Uint32Array(n);
      values = to;
      [keys, toKeys] = [toKeys, keys];
    }
  }
  if (!values) return rows ? rows.slice(0, n) : identity(n);
  if (carried || !rows) return values;
  // Positions: the rows at them.
  const sorted = toValues;
  for (let i = 0; i < n; i++) sorted[i] = rows[values[i]!]!;
  return sorted;
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
