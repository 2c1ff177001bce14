import { expect, test } from 'vitest';
import { fitted, joined, resized } from '../../src/shared/typed-arrays.ts';

test('resized keeps the kind and the entries in use, zero past them', () => {
  const grown = resized(new Float64Array([1.5, 2, 3]), 5, 2);
  expect(grown).toBeInstanceOf(Float64Array);
  expect([...grown]).toEqual([1.5, 2, 0, 0, 0]);
  expect([...resized(new Uint32Array([1, 2, 3]), 5)]).toEqual([1, 2, 3, 0, 0]);
  expect([...resized(new Uint8Array([1, 2, 3]), 2)]).toEqual([1, 2]);
});

test('fitted is a view when little would be wasted, else a copy of its own', () => {
  const big = new Uint32Array(32).map((_, k) => k);
  const view = fitted(big, 31);
  expect(view.buffer).toBe(big.buffer);
  expect(view.length).toBe(31);
  const copy = fitted(big, 4);
  expect(copy.buffer).not.toBe(big.buffer);
  expect([...copy]).toEqual([0, 1, 2, 3]);
  expect(fitted(big, 32)).toBe(big);
});

test('joined puts the second after the first in a new array', () => {
  const first = new Uint32Array([1, 2]);
  const both = joined(first, new Uint32Array([3]));
  expect(both).toBeInstanceOf(Uint32Array);
  expect([...both]).toEqual([1, 2, 3]);
  expect(both).not.toBe(first);
});
