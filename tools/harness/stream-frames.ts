// The harness's binary form of an order stream's messages
// (src/shared/order-stream.ts): one frame per message, a length-prefixed JSON
// head (the message without its columns) and, for rows, the columns packed
// after it (order-columns.ts's packColumns), 8-byte aligned so the page reads
// them as views on the body it fetched, never copies.

import { packColumns, packedLength, unpackColumns } from '../../src/shared/order-columns.ts';
import type { OrderStreamMessage } from '../../src/shared/order-stream.ts';

const align8 = (bytes: number) => Math.ceil(bytes / 8) * 8;

export function encodeFrame(message: OrderStreamMessage): Uint8Array {
  const { columns, ...head } =
    message.kind === 'rows' ? message : { ...message, columns: undefined };
  const headBytes = new TextEncoder().encode(JSON.stringify(head));
  const columnsAt = align8(4 + headBytes.length);
  const frame = new Uint8Array(columnsAt + (columns ? packedLength(columns) : 0));
  new DataView(frame.buffer).setUint32(0, headBytes.length, true);
  frame.set(headBytes, 4);
  if (columns) packColumns(columns, frame, columnsAt);
  return frame;
}

export function decodeFrame(buffer: ArrayBuffer): OrderStreamMessage {
  const headLength = new DataView(buffer).getUint32(0, true);
  const head = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, headLength))) as {
    kind: OrderStreamMessage['kind'];
    from?: number;
    count?: number;
    expected?: number;
  };
  if (head.kind === 'rows') {
    return {
      kind: 'rows',
      from: head.from ?? 0,
      columns: unpackColumns(buffer, align8(4 + headLength)),
      ...(head.expected === undefined ? {} : { expected: head.expected }),
    };
  }
  if (head.kind === 'end') return { kind: 'end', count: head.count ?? 0 };
  return { kind: 'failed' };
}
