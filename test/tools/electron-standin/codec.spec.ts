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

describe('standinCodec: a binary block (large messages, through a file)', () => {
  const block = (value: unknown, minBytes = 16) => {
    const { block: bytes, parts } = codec.pack(value, minBytes);
    // What the preload's world reads: a file's bytes in a buffer of their own.
    const copy = bytes.slice().buffer;
    return { parts, ...codec.unpack(copy) };
  };

  it('carries large typed arrays as raw bytes beside the text, each in a buffer of its own', () => {
    const ids = new BigInt64Array([1n, -(2n ** 62n), 3n]);
    const offsets = new Uint32Array(1000).map((_, i) => i * 7);
    const floats = new Float64Array([0.5, NaN, -0, 1e300]);
    const odd = new Uint8Array(new Uint8Array(64).map((_, i) => i).buffer, 3, 17);
    const { value, buffers, parts } = block({
      kind: 'rows',
      from: 5,
      columns: { ids, offsets, floats, odd, small: new Uint8Array([1, 2]) },
    });
    expect(parts).toBe(4);
    const columns = (value as { columns: Record<string, ArrayBufferView> }).columns;
    expect(value).toMatchObject({ kind: 'rows', from: 5 });
    expect(columns['ids']).toBeInstanceOf(BigInt64Array);
    expect([...(columns['ids'] as BigInt64Array)]).toEqual([...ids]);
    expect([...(columns['offsets'] as Uint32Array)]).toEqual([...offsets]);
    expect(Object.is((columns['floats'] as Float64Array)[2], -0)).toBe(true);
    expect((columns['floats'] as Float64Array)[1]).toBeNaN();
    expect([...(columns['odd'] as Uint8Array)]).toEqual([...odd]);
    // The small one stayed in the text.
    expect([...(columns['small'] as Uint8Array)]).toEqual([1, 2]);
    // As a structured clone gives them: no two arrays share a buffer, none is larger than its array.
    const large = ['ids', 'offsets', 'floats', 'odd'].map((key) => columns[key]!.buffer);
    expect(new Set(large).size).toBe(4);
    expect(large.map((b) => b.byteLength)).toEqual([24, 4000, 32, 17]);
    expect(buffers).toHaveLength(4);
  });

  it('copies at once: what the sender changes afterwards is not sent', () => {
    const data = new Float64Array(8).fill(1);
    const { block: bytes } = codec.pack({ data }, 16);
    data.fill(2);
    const { value } = codec.unpack(bytes.slice().buffer);
    expect([...(value as { data: Float64Array }).data]).toEqual(new Array(8).fill(1));
  });

  it('keeps the rest of a message as the text form does, and refuses a block cut short', () => {
    const message = { k: 'event', channel: 'x', args: [undefined, 2n, new Map([[1, 'a']])] };
    expect(block(message).value).toEqual(codec.decode(codec.encode(message)));
    const { block: bytes } = codec.pack({ big: new Uint8Array(100) }, 16);
    expect(() => codec.unpack(bytes.slice(0, bytes.byteLength - 1).buffer)).toThrow(/cut short/);
  });
});
