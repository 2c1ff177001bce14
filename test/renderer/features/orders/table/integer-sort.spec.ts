// The radix sort of exact integer keys (positions, or rows moved with their
// keys) against a plain comparison sort of
// the same keys (as BigInt): ascending, stable, for every shape of key it
// chooses a different plan for (small values, whole thousands, ids under
// 1e9, ids spread up to ~2^53 and wider, negative ones), and the descending
// order built from it.

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  descendingOf,
  sortedPositions,
  sortRowsByKeys,
} from '../../../../../src/renderer/src/features/orders/table/integer-sort.ts';
import { PROPERTY_RUNS } from '../../../../../tools/fuzz/order-lists.ts';

/** Positions sorted by key with Array.prototype.sort (stable), ties in position order. */
function reference(keys: readonly bigint[]): number[] {
  return keys
    .map((_, k) => k)
    .sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b));
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** An int64 as high * 1e9 + low with 0 <= low < 1e9, as main reads ids. */
function partsOf(id: bigint): [number, number] {
  let high = id / 1_000_000_000n;
  let low = id % 1_000_000_000n;
  if (low < 0n) {
    high -= 1n;
    low += 1_000_000_000n;
  }
  return [Number(high), Number(low)];
}

/** Ids around a few centres, so lists hold ties and near neighbours of every plan. */
const idLists = fc
  .constantFrom(
    { centre: 0n, spread: 50n }, // small ids: the low part alone
    { centre: 500_000_000n, spread: 600_000_000n }, // crossing 1e9
    { centre: 2n ** 53n, spread: 10n ** 12n }, // above 2^53, one exact key
    { centre: 0n, spread: INT64_MAX }, // the whole int64 range: two keys
  )
  .chain(({ centre, spread }) =>
    fc.array(
      fc.oneof(
        fc.bigInt({ min: centre - spread, max: centre + spread }),
        fc.constantFrom(INT64_MIN, INT64_MAX, 0n, -1n, centre),
      ),
      { maxLength: 300 },
    ),
  )
  .map((ids) => ids.map((id) => (id < INT64_MIN ? INT64_MIN : id > INT64_MAX ? INT64_MAX : id)));

/** Safe integers: quantities, times in ms, and times in whole seconds (thousands). */
const valueLists = fc.oneof(
  fc.array(fc.integer({ min: -3, max: 20 }), { maxLength: 300 }),
  fc.array(
    fc.integer({ min: -2_000_000, max: 2_000_000 }).map((s) => 1.7e12 + s * 1000),
    { maxLength: 300 },
  ),
  fc.array(fc.maxSafeInteger(), { maxLength: 300 }),
  fc.array(
    fc.constantFrom(0, 2 ** 32, 2 ** 32 - 1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER),
    {
      maxLength: 40,
    },
  ),
);

describe('sortedPositions and sortRowsByKeys', () => {
  test('int64 ids as high and low parts: the order of a comparison sort, stable', () => {
    fc.assert(
      fc.property(idLists, (ids) => {
        const highs = new Float64Array(ids.length);
        const lows = new Uint32Array(ids.length);
        ids.forEach((id, k) => ([highs[k], lows[k]] = partsOf(id)));
        expect([...sortedPositions(highs, lows)]).toEqual(reference(ids));
        // The same order with rows moving in place of positions.
        const rows = Uint32Array.from(ids, (_, k) => 7 * k + 3);
        expect([...sortRowsByKeys(rows, highs, lows)]).toEqual(
          reference(ids).map((k) => 7 * k + 3),
        );
      }),
      PROPERTY_RUNS,
    );
  });

  test('safe integers alone: the order of a comparison sort, stable', () => {
    fc.assert(
      fc.property(valueLists, (values) => {
        const highs = Float64Array.from(values);
        const order = reference(values.map(BigInt));
        expect([...sortedPositions(highs, undefined)]).toEqual(order);
        const rows = Uint32Array.from(values, (_, k) => 5 * k + 1);
        expect([...sortRowsByKeys(rows, highs, undefined)]).toEqual(order.map((k) => 5 * k + 1));
      }),
      PROPERTY_RUNS,
    );
  });

  test('only the first n keys are read (the arrays may have room to spare)', () => {
    const highs = Float64Array.from([5, 3, 3, 1, -7, -9]);
    expect([...sortedPositions(highs, undefined, 4)]).toEqual([3, 1, 2, 0]);
    expect([...sortedPositions(highs, new Uint32Array(6), 3)]).toEqual([1, 2, 0]);
    expect([...sortedPositions(highs, undefined, 0)]).toEqual([]);
  });
});

test('descendingOf: runs of equal keys reversed as runs, each keeping its order', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 200 }), (values) => {
      const keys = values.map(BigInt);
      const ascending = Uint32Array.from(reference(keys));
      const descending = keys
        .map((_, k) => k)
        .sort((a, b) => (keys[a]! > keys[b]! ? -1 : keys[a]! < keys[b]! ? 1 : a - b));
      expect([...descendingOf(ascending, (a, b) => values[a] === values[b])]).toEqual(descending);
    }),
    PROPERTY_RUNS,
  );
});
