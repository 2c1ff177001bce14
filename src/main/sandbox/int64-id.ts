// Strict parsing of int64 path identifiers (orderId, petId).

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

// Canonical decimal only: no plus sign, no leading zeros, no "-0", no whitespace.
const CANONICAL_INTEGER = /^(?:0|-?[1-9][0-9]*)$/;

/**
 * The int64 value of a path segment written as a canonical decimal integer, or
 * undefined when the segment is not one (or lies outside the int64 range).
 * Held as a bigint because ids above 2^53 would lose precision as numbers.
 */
export function parseInt64Id(segment: string): bigint | undefined {
  if (segment.length > 20 || !CANONICAL_INTEGER.test(segment)) return undefined;
  const value = BigInt(segment);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}
