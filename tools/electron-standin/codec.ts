// How values cross the stand-in's string-only hops (the DevTools protocol
// between main and the preload world, DOM events between the preload world
// and the page's) while keeping what Electron's structured clone keeps:
// undefined, NaN and -0, bigints, dates, maps, sets, errors (name and
// message), ArrayBuffers and typed arrays (as bytes, so a Uint8Array arrives
// as a Uint8Array; a Node Buffer arrives as a Uint8Array, as in Electron).
// Functions and promises pass only where a hook says what they become (the
// context bridge proxies them); anything else is refused as Electron refuses
// it ("could not be cloned").
//
// Large byte payloads can go beside the text instead of inside it: `pack`
// lays a message out as one binary block (its text, then each payload's
// bytes, 8-byte aligned) that main writes to a file and the preload's world
// reads with File.arrayBuffer(), so a list's columns never become base64
// text, are never parsed as JSON, and cross the DevTools protocol not at all.
//
// The function is self-contained on purpose: the stand-in injects its source
// into Chromium's worlds, so it may use nothing from this module's scope.

export interface CodecHooks {
  /** A function met while encoding: its reference (the bridge proxies it), or undefined to refuse it. */
  readonly encodeFunction?: (fn: (...args: unknown[]) => unknown) => unknown;
  readonly encodePromise?: (promise: Promise<unknown>) => unknown;
  readonly decodeFunction?: (ref: unknown) => unknown;
  readonly decodePromise?: (ref: unknown) => unknown;
}

export interface Codec {
  encode(value: unknown, hooks?: CodecHooks): string;
  decode(text: string, hooks?: CodecHooks): unknown;
  /**
   * The value as one binary block: its text, then every ArrayBuffer or view
   * of `minBytes` or more as raw bytes (the text refers to them by index).
   * A copy made at once, as postMessage's clone is: what the sender changes
   * afterwards is not sent. `parts` says how many payloads went beside.
   */
  pack(value: unknown, minBytes: number): { block: Uint8Array; parts: number };
  /**
   * A block `pack` made, decoded: each payload gets an ArrayBuffer of its own
   * (as a structured clone gives it), listed in `buffers` so a relay can
   * transfer them rather than copy them again.
   */
  unpack(block: ArrayBuffer): { value: unknown; buffers: ArrayBuffer[] };
}

export function standinCodec(): Codec {
  const TAG = '\u0000t';
  const TYPED = [
    'Int8Array',
    'Uint8Array',
    'Uint8ClampedArray',
    'Int16Array',
    'Uint16Array',
    'Int32Array',
    'Uint32Array',
    'Float32Array',
    'Float64Array',
    'BigInt64Array',
    'BigUint64Array',
  ];
  const g = globalThis as unknown as Record<string, unknown>;
  const NodeBuffer = g['Buffer'] as
    { from(bytes: Uint8Array): { toString(encoding: string): string } } | undefined;

  function toBase64(bytes: Uint8Array): string {
    const native = (bytes as unknown as { toBase64?: () => string }).toBase64;
    if (typeof native === 'function') return native.call(bytes);
    if (NodeBuffer) return NodeBuffer.from(bytes).toString('base64');
    let binary = '';
    for (let at = 0; at < bytes.length; at += 0x8000)
      binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
    return btoa(binary);
  }

  function fromBase64(text: string): Uint8Array {
    const native = (Uint8Array as unknown as { fromBase64?: (t: string) => Uint8Array }).fromBase64;
    if (typeof native === 'function') return native(text);
    if (NodeBuffer) {
      const buffer = (NodeBuffer as unknown as { from(t: string, e: string): Uint8Array }).from(
        text,
        'base64',
      );
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength).slice();
    }
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  const cannotClone = (what: string) => new Error(`An object could not be cloned (${what}).`);

  /** Where payloads of at least `min` bytes go instead of the text (pack's), else undefined. */
  interface Beside {
    readonly min: number;
    readonly parts: Uint8Array[];
  }

  function pack(value: unknown, hooks: CodecHooks, seen: Set<object>, beside?: Beside): unknown {
    switch (typeof value) {
      case 'undefined':
        return { [TAG]: 'u' };
      case 'number':
        if (Number.isNaN(value) || !Number.isFinite(value) || Object.is(value, -0))
          return { [TAG]: 'n', v: String(Object.is(value, -0) ? '-0' : value) };
        return value;
      case 'bigint':
        return { [TAG]: 'b', v: value.toString() };
      case 'string':
      case 'boolean':
        return value;
      case 'symbol':
        throw cannotClone('a symbol');
      case 'function': {
        const ref = hooks.encodeFunction?.(value as (...args: unknown[]) => unknown);
        if (ref === undefined) throw cannotClone('a function');
        return { [TAG]: 'f', v: ref };
      }
    }
    if (value === null) return null;
    const object = value as object;
    if (seen.has(object)) throw cannotClone('a cycle');
    if (object instanceof Promise) {
      const ref = hooks.encodePromise?.(object);
      if (ref === undefined) throw cannotClone('a promise');
      return { [TAG]: 'p', v: ref };
    }
    if (object instanceof ArrayBuffer) {
      const bytes = new Uint8Array(object);
      if (beside && bytes.byteLength >= beside.min)
        return { [TAG]: 'ab', i: beside.parts.push(bytes) - 1 };
      return { [TAG]: 'ab', v: toBase64(bytes) };
    }
    if (ArrayBuffer.isView(object)) {
      const bytes = new Uint8Array(object.buffer, object.byteOffset, object.byteLength);
      const name = object.constructor.name;
      const kind =
        object instanceof DataView ? 'DataView' : TYPED.includes(name) ? name : 'Uint8Array';
      if (beside && bytes.byteLength >= beside.min)
        return { [TAG]: 'ta', k: kind, i: beside.parts.push(bytes) - 1 };
      return { [TAG]: 'ta', k: kind, v: toBase64(bytes) };
    }
    if (object instanceof Date) return { [TAG]: 'd', v: object.getTime() };
    if (object instanceof RegExp) return { [TAG]: 'r', v: object.source, f: object.flags };
    if (object instanceof Error) {
      return { [TAG]: 'e', name: object.name, message: object.message, stack: object.stack };
    }
    seen.add(object);
    try {
      if (object instanceof Map)
        return {
          [TAG]: 'm',
          v: [...object].map(([k, v]) => [
            pack(k, hooks, seen, beside),
            pack(v, hooks, seen, beside),
          ]),
        };
      if (object instanceof Set)
        return { [TAG]: 's', v: [...object].map((v) => pack(v, hooks, seen, beside)) };
      if (Array.isArray(object)) return object.map((item) => pack(item, hooks, seen, beside));
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(object)) {
        out[key] = pack((object as Record<string, unknown>)[key], hooks, seen, beside);
      }
      return out;
    } finally {
      seen.delete(object);
    }
  }

  /** A payload's bytes by index, in a buffer of its own (unpack's); none for plain text. */
  type Part = (index: number) => ArrayBuffer;

  function unpack(value: unknown, hooks: CodecHooks, part?: Part): unknown {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => unpack(item, hooks, part));
    const record = value as Record<string, unknown>;
    const tag = record[TAG];
    if (tag === undefined) {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(record)) out[key] = unpack(record[key], hooks, part);
      return out;
    }
    const v = record['v'];
    const bytesOf = (): Uint8Array => {
      if (typeof record['i'] !== 'number') return fromBase64(v as string);
      if (!part) throw new Error('standin codec: a payload outside its block');
      return new Uint8Array(part(record['i']));
    };
    switch (tag) {
      case 'u':
        return undefined;
      case 'n':
        return v === '-0' ? -0 : Number(v);
      case 'b':
        return BigInt(v as string);
      case 'f':
        return hooks.decodeFunction ? hooks.decodeFunction(v) : undefined;
      case 'p':
        return hooks.decodePromise ? hooks.decodePromise(v) : undefined;
      case 'ab':
        return bytesOf().buffer;
      case 'ta': {
        const bytes = bytesOf();
        const kind = record['k'] as string;
        if (kind === 'DataView') return new DataView(bytes.buffer);
        const Ctor = g[TYPED.includes(kind) ? kind : 'Uint8Array'] as new (
          buffer: ArrayBufferLike,
        ) => unknown;
        return new Ctor(bytes.buffer);
      }
      case 'd':
        return new Date(v as number);
      case 'r':
        return new RegExp(v as string, record['f'] as string);
      case 'e': {
        const error = new Error(record['message'] as string);
        error.name = record['name'] as string;
        if (typeof record['stack'] === 'string') error.stack = record['stack'];
        return error;
      }
      case 'm':
        return new Map(
          (v as [unknown, unknown][]).map(([k, item]) => [
            unpack(k, hooks, part),
            unpack(item, hooks, part),
          ]),
        );
      case 's':
        return new Set((v as unknown[]).map((item) => unpack(item, hooks, part)));
      default:
        throw new Error(`standin codec: unknown tag ${JSON.stringify(tag)}`);
    }
  }

  // A block: u32 text bytes, u32 payload count, a u32 length per payload, the
  // text (UTF-8), then each payload at the next multiple of 8 (little-endian).
  const align8 = (at: number) => Math.ceil(at / 8) * 8;

  return {
    encode: (value, hooks = {}) => JSON.stringify(pack(value, hooks, new Set())),
    decode: (text, hooks = {}) => unpack(JSON.parse(text), hooks),
    pack(value, minBytes) {
      const parts: Uint8Array[] = [];
      const text = new TextEncoder().encode(
        JSON.stringify(pack(value, {}, new Set(), { min: minBytes, parts })),
      );
      const head = new Uint8Array(8 + 4 * parts.length);
      const view = new DataView(head.buffer);
      view.setUint32(0, text.byteLength, true);
      view.setUint32(4, parts.length, true);
      parts.forEach((bytes, i) => view.setUint32(8 + 4 * i, bytes.byteLength, true));
      let size = head.byteLength + text.byteLength;
      for (const bytes of parts) size = align8(size) + bytes.byteLength;
      const block = new Uint8Array(size);
      block.set(head, 0);
      block.set(text, head.byteLength);
      let at = head.byteLength + text.byteLength;
      for (const bytes of parts) {
        at = align8(at);
        block.set(bytes, at);
        at += bytes.byteLength;
      }
      return { block, parts: parts.length };
    },
    unpack(block) {
      const view = new DataView(block);
      const textBytes = view.getUint32(0, true);
      const count = view.getUint32(4, true);
      let at = 8 + 4 * count;
      const text = new TextDecoder().decode(new Uint8Array(block, at, textBytes));
      at += textBytes;
      const ranges: [number, number][] = [];
      for (let i = 0; i < count; i++) {
        const length = view.getUint32(8 + 4 * i, true);
        at = align8(at);
        if (at + length > block.byteLength) throw new Error('standin codec: a block cut short');
        ranges.push([at, at + length]);
        at += length;
      }
      const buffers: ArrayBuffer[] = [];
      const value = unpack(JSON.parse(text), {}, (index) => {
        const range = ranges[index];
        if (!range) throw new Error('standin codec: a payload outside its block');
        const copy = block.slice(range[0], range[1]);
        buffers.push(copy);
        return copy;
      });
      return { value, buffers };
    },
  };
}
