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

/** What one pass over the keys tells. */
interface KeyRange {
  /** The keys already ascend (services often send lists in id order). */
  readonly ascending: boolean;
  readonly minHigh: number;
  readonly maxHigh: number;
  readonly minLow: number;
  readonly maxLow: number;
  /** Every high is a multiple of 1000 (times in whole seconds). */
  readonly thousands: boolean;
}

function rangeOf(highs: Float64Array, lows: Uint32Array | undefined, n: number): KeyRange {
  let ascending = true;
  let minHigh = Infinity;
  let maxHigh = -Infinity;
  let minLow = Infinity;
  let maxLow = -Infinity;
  let thousands = !lows;
  let previous = -Infinity;
  for (let k = 0; k < n; k++) {
    const high = highs[k]!;
    if (high < minHigh) minHigh = high;
    if (high > maxHigh) maxHigh = high;
    if (high < previous) ascending = false;
    previous = high;
    // (a division, not %: V8's floating-point remainder is a slow call)
    if (thousands && !Number.isInteger(high / 1000)) thousands = false;
  }
  if (lows) {
    let previousLow = -Infinity;
    for (let k = 0; k < n; k++) {
      const low = lows[k]!;
      if (low < minLow) minLow = low;
      if (low > maxLow) maxLow = low;
      if (ascending && low < previousLow && highs[k] === highs[k - 1]) ascending = false;
      previousLow = low;
    }
  }
  return { ascending, minHigh, maxHigh, minLow, maxLow, thousands };
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
  const range = rangeOf(highs, lows, n);
  if (n < 2 || range.ascending) return rows ? rows.slice(0, n) : identity(n);
  return radixSort(n, wordsOfKeys(highs, lows, n, range), rows);
}

/** The key words to sort by, least significant first (see the top of this file). */
function wordsOfKeys(
  highs: Float64Array,
  lows: Uint32Array | undefined,
  n: number,
  { minHigh, maxHigh, minLow, maxLow, thousands }: KeyRange,
): KeyWord[] {
  if (!lows) {
    const scale = thousands ? 1000 : 1;
    return wordsOf(n, (maxHigh - minHigh) / scale, (k) => (highs[k]! - minHigh) / scale);
  }
  if (maxHigh === minHigh) {
    // Ids under 1e9 (or sharing their high part): the low part alone.
    // The lows as they are when shifting them would not save a bit (ids from 1 up).
    if (bitsOf(maxLow) === bitsOf(maxLow - minLow)) return [{ word: lows, bits: bitsOf(maxLow) }];
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
    const counted = digitCounts(values ? keys! : word, n, bits, digits, width);
    for (let d = 0; d < digits; d++) {
      const shift = d * width;
      const mask = (1 << Math.min(width, bits - shift)) - 1;
      const from: Uint32Array = values ? keys! : word;
      const offsets = counted[d]!;
      // A digit every key shares moves nothing.
      if (offsets[((from[0]! >>> shift) & mask) + 1] === n) continue;
      for (let b = 1; b < offsets.length; b++) offsets[b]! += offsets[b - 1]!;
      const last = d === digits - 1 && w === words.length - 1;
      if (!last) toKeys ??= new Uint32Array(n);
      const to = toValues;
      scatter(n, from, shift, mask, offsets, values ?? carried, to, last ? undefined : toKeys);
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
 * One stable pass: each value (`values[i]`, or i when undefined) to its
 * key's slot by the digit `(key >>> shift) & mask`, and the key with it
 * unless `toKeys` is undefined (the last pass). A loop per case, so no test
 * is made per key.
 */
function scatter(
  n: number,
  keys: Uint32Array,
  shift: number,
  mask: number,
  offsets: Uint32Array,
  values: Uint32Array | undefined,
  to: Uint32Array,
  toKeys: Uint32Array | undefined,
): void {
  if (values && toKeys) {
    for (let i = 0; i < n; i++) {
      const key = keys[i]!;
      const slot = offsets[(key >>> shift) & mask]!++;
      to[slot] = values[i]!;
      toKeys[slot] = key;
    }
  } else if (values) {
    for (let i = 0; i < n; i++) to[offsets[(keys[i]! >>> shift) & mask]!++] = values[i]!;
  } else if (toKeys) {
    for (let i = 0; i < n; i++) {
      const key = keys[i]!;
      const slot = offsets[(key >>> shift) & mask]!++;
      to[slot] = i;
      toKeys[slot] = key;
    }
  } else {
    for (let i = 0; i < n; i++) to[offsets[(keys[i]! >>> shift) & mask]!++] = i;
  }
}

/**
 * How many keys have each value of each digit (at index value + 1, for the
 * running sums), all digits in one pass over the keys: a key's digits do
 * not change as the passes move it.
 */
function digitCounts(
  keys: Uint32Array,
  n: number,
  bits: number,
  digits: number,
  width: number,
): Uint32Array[] {
  const masks = Array.from(
    { length: digits },
    (_, d) => (1 << Math.min(width, bits - d * width)) - 1,
  );
  const counts = masks.map((mask) => new Uint32Array(mask + 2));
  if (digits === 1) {
    const [low] = counts as [Uint32Array];
    const [mask] = masks as [number];
    for (let i = 0; i < n; i++) low[(keys[i]! & mask) + 1]! += 1;
  } else {
    // A word is at most 32 bits, so two digits of at most 16.
    const [low, high] = counts as [Uint32Array, Uint32Array];
    const [lowMask, highMask] = masks as [number, number];
    for (let i = 0; i < n; i++) {
      const key = keys[i]!;
      low[(key & lowMask) + 1]! += 1;
      high[((key >>> width) & highMask) + 1]! += 1;
    }
  }
  return counts;
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
