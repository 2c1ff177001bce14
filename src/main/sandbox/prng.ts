// Seeded pseudo-random numbers, so the sandbox's data and fault rolls repeat from `seed`.

/** A random source returning floats in [0, 1), like Math.random. */
export type Random = () => number;

/** mulberry32: tiny, fast and good enough for test data (not for anything secret). */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
