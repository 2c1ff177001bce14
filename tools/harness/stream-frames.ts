// The harness's binary form of an order stream's messages
// (src/shared/order-stream.ts): one frame per message, a length-prefixed JSON
// head (the message without its columns) and, for rows, the columns packed
// after it (screen-columns.ts's packScreenColumns), 8-byte aligned so the page reads
// them as views on the body it fetched, never copies. A body holds every
// frame waiting when the page asks (each after its length), so a page that
// fell behind catches up in one round trip, not one per part.

import type { OrderStreamMessage } from '../../src/shared/order-stream.ts';
import {
  packedLength,
  packScreenColumns,
  unpackScreenColumns,
} from '../../src/shared/screen-columns.ts';

const align8 = (bytes: number) => Math.ceil(bytes / 8) * 8;

export function encodeFrame(message: OrderStreamMessage): Uint8Array {
  const { columns, ...head } =
    message.kind === 'rows' ? message : { ...message, columns: undefined };
  const headBytes = new TextEncoder().encode(JSON.stringify(head));
  const columnsAt = align8(4 + headBytes.length);
  const frame = new Uint8Array(columnsAt + (columns ? packedLength(columns) : 0));
  new DataView(frame.buffer).setUint32(0, headBytes.length, true);
  frame.set(headBytes, 4);
  if (columns) packScreenColumns(columns, frame, columnsAt);
  return frame;
}

/** The 8 bytes before each frame in a body: its length, then padding (frames are multiples of 8). */
const FRAME_PREFIX = 8;

/** The prefix of a frame in a body (write it, then the frame). */
export function framePrefix(frame: Uint8Array): Uint8Array {
  const prefix = new Uint8Array(FRAME_PREFIX);
  new DataView(prefix.buffer).setUint32(0, frame.length, true);
  return prefix;
}

/** The bytes of a body of these frames. */
export function bodyLength(frames: readonly Uint8Array[]): number {
  return frames.reduce((sum, frame) => sum + FRAME_PREFIX + frame.length, 0);
}

/**
 * The messages of a body, each on a buffer of its own (to transfer): the
 * body's own when it holds one frame, else a copy of each frame.
 */
export function decodeBody(
  body: ArrayBuffer,
): { message: OrderStreamMessage; buffer: ArrayBuffer }[] {
  const view = new DataView(body);
  const frames: [number, number][] = [];
  for (let at = 0; at + FRAME_PREFIX <= body.byteLength;) {
    const length = view.getUint32(at, true);
    const start = at + FRAME_PREFIX;
    if (length % 8 !== 0 || start + length > body.byteLength)
      throw new RangeError('not a stream body');
    frames.push([start, length]);
    at = start + length;
  }
  if (frames.length === 1) return [{ message: decodeFrame(body, frames[0]![0]), buffer: body }];
  return frames.map(([start, length]) => {
    const buffer = body.slice(start, start + length);
    return { message: decodeFrame(buffer), buffer };
  });
}

/** The frame at `at` (a multiple of 8) in `buffer`; its columns are views on `buffer`. */
export function decodeFrame(buffer: ArrayBuffer, at = 0): OrderStreamMessage {
  const headLength = new DataView(buffer).getUint32(at, true);
  const head = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, at + 4, headLength))) as {
    kind: OrderStreamMessage['kind'];
    from?: number;
    count?: number;
    expected?: number;
  };
  if (head.kind === 'rows') {
    return {
      kind: 'rows',
      from: head.from ?? 0,
      columns: unpackScreenColumns(buffer, at + align8(4 + headLength)),
      ...(head.expected === undefined ? {} : { expected: head.expected }),
    };
  }
  if (head.kind === 'end') return { kind: 'end', count: head.count ?? 0 };
  return { kind: 'failed' };
}
