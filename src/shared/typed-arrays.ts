// Growing and trimming the typed arrays that hold an order list as columns,
// for main's scanner and the renderer's table alike.

export type TypedColumn = Uint8Array | Uint32Array | Int32Array | Float64Array;

/**
 * A new array of the same kind with `size` entries, holding the first `used`
 * entries of `array` (as many as fit, by default); the rest are zero.
 */
export function resized<A extends TypedColumn>(
  array: A,
  size: number,
  used = Math.min(array.length, size),
): A {
  const next = new (array.constructor as new (length: number) => A)(size);
  next.set(array.subarray(0, used));
  return next;
}

/** The first `length` entries: a view when little would be wasted, else a copy. */
export function fitted<A extends TypedColumn>(array: A, length: number): A {
  if (array.length === length) return array;
  return (
    array.length - length <= array.length / 16 ? array.subarray(0, length) : array.slice(0, length)
  ) as A;
}

/** `first` then `second`, in a new array. */
export function joined<A extends TypedColumn>(first: A, second: A): A {
  const out = new (first.constructor as new (length: number) => A)(first.length + second.length);
  out.set(first);
  out.set(second, first.length);
  return out;
}
