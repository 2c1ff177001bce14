// The stand-in's encoding for its string-only hops keeps what Electron's
// structured clone keeps, and refuses what Electron refuses.

import { describe, expect, it } from 'vitest';
import { standinCodec } from '../../../tools/electron-standin/codec.ts';

const codec = standinCodec();
const roundTrip = (value: unknown) => codec.decode(codec.encode(value));

describe('standinCodec', () => {
  it('keeps typed arrays as typed arrays, with their bytes', () => {
    const ids = new BigInt64Array([1n, -(2n ** 62n)]);
    const offsets = new Uint32Array([0, 7, 4_000_000_000]);
    const view = new Uint8Array(new Uint8Array([9, 8, 7, 6]).buffer, 1, 2);
    const back = roundTrip({ ids, offsets, view, floats: new Float64Array([0.5, NaN]) }) as {
      ids: BigInt64Array;
      offsets: Uint32Array;
      view: Uint8Array;
      floats: Float64Array;
    };
    expect(back.ids).toBeInstanceOf(BigInt64Array);
    expect([...back.ids]).toEqual([1n, -(2n ** 62n)]);
    expect(back.offsets).toBeInstanceOf(Uint32Array);
    expect([...back.offsets]).toEqual([0, 7, 4_000_000_000]);
    // A view is sent as the bytes it shows, not its whole buffer.
    expect([...back.view]).toEqual([8, 7]);
    expect(Number.isNaN(back.floats[1])).toBe(true);
  });

  it('sends a Node Buffer as a Uint8Array, as Electron does', () => {
    const back = roundTrip(Buffer.from('hi'));
    expect(back).toBeInstanceOf(Uint8Array);
    expect(Buffer.isBuffer(back)).toBe(false);
  });

  it('keeps undefined, -0, NaN, bigints, dates, maps, sets and errors', () => {
    const back = roundTrip({
      u: undefined,
      z: -0,
      n: NaN,
      i: Infinity,
      b: 2n ** 70n,
      d: new Date(5),
      m: new Map([['a', 1]]),
      s: new Set([1, 2]),
      e: new TypeError('no'),
      list: [undefined, 1],
    }) as Record<string, unknown>;
    expect('u' in back && back['u'] === undefined).toBe(true);
    expect(Object.is(back['z'], -0)).toBe(true);
    expect(back['n']).toBeNaN();
    expect(back['i']).toBe(Infinity);
    expect(back['b']).toBe(2n ** 70n);
    expect(back['d']).toEqual(new Date(5));
    expect(back['m']).toEqual(new Map([['a', 1]]));
    expect(back['s']).toEqual(new Set([1, 2]));
    expect(back['e']).toMatchObject({ name: 'TypeError', message: 'no' });
    expect(back['list']).toEqual([undefined, 1]);
  });

  it('refuses functions, symbols and cycles unless told what functions become', () => {
    expect(() => codec.encode({ f: () => 1 })).toThrow(/could not be cloned/);
    expect(() => codec.encode(Symbol('s'))).toThrow(/could not be cloned/);
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(() => codec.encode(cycle)).toThrow(/could not be cloned/);
    const text = codec.encode({ f: () => 1 }, { encodeFunction: () => 'fn-1' });
    expect(codec.decode(text, { decodeFunction: (ref) => `proxy of ${String(ref)}` })).toEqual({
      f: 'proxy of fn-1',
    });
  });
});
