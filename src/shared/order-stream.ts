// An order list on its way from main to the renderer while it is read: the
// renderer calls `orders:list` (or `orders:cached`) with a stream id, and main
// posts the rows it has read as the screen takes them (screen-columns.ts), a part at a time,
// then an end mark, on a channel of their own. In Electron that channel is a
// MessagePort main sends the page (see src/main/ipc/handle.ts and the
// preload). No dependencies: the preload bundles this file.

import { checkScreenColumns, type ScreenColumns } from './screen-columns.ts';

export type OrderStreamMessage =
  /**
   * Rows `from` to `from + columns.count` of the list, in the order the service
   * sent them. `expected` (first part only): the rows the whole list likely
   * holds, from its Content-Length, so the renderer can size its table once.
   */
  | {
      readonly kind: 'rows';
      readonly from: number;
      readonly columns: ScreenColumns;
      readonly expected?: number;
    }
  /** Every row was sent: the list is whole and valid. */
  | { readonly kind: 'end'; readonly count: number }
  /** The list failed after some rows were sent: drop them (the call's result says why). */
  | { readonly kind: 'failed' };

/** Main to the preload: a port for the stream `streamId` (webContents.postMessage's channel). */
export const ORDER_STREAM_PORT = 'orders:stream-port';

/** The preload to the page: `window.postMessage` data that carries a stream's port. */
export interface OrderStreamPortMessage {
  readonly type: typeof ORDER_STREAM_PORT;
  readonly streamId: string;
}

/** A stream id: what the page makes up for each call, checked wherever it crosses. */
export const STREAM_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function isOrderStreamPortMessage(data: unknown): data is OrderStreamPortMessage {
  if (typeof data !== 'object' || data === null) return false;
  const { type, streamId } = data as { type?: unknown; streamId?: unknown };
  return (
    type === ORDER_STREAM_PORT && typeof streamId === 'string' && STREAM_ID_PATTERN.test(streamId)
  );
}

/** Where the renderer receives streams: the page's port messages, or a test's in-process delivery. */
export interface OrderStreams {
  /**
   * Calls `onMessage` with each message of the stream `streamId`, from now on.
   * Returns the stop (after the end, or when the stream is no longer wanted).
   */
  listen(streamId: string, onMessage: (message: OrderStreamMessage) => void): () => void;
}

const isRowCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 2 ** 32;

/**
 * A message that came over a stream, checked as the IPC contract checks a
 * call's arguments: its kind, its counts, and for rows their columns
 * (screen-columns.ts's checkScreenColumns). Anything else is a string saying
 * what is wrong; the receiver then treats the list as failed.
 */
export function checkOrderStreamMessage(data: unknown): OrderStreamMessage | string {
  if (typeof data !== 'object' || data === null) return 'not a stream message';
  const message = data as Record<string, unknown>;
  switch (message['kind']) {
    case 'rows': {
      const { from, expected } = message;
      if (!isRowCount(from)) return 'rows without where they go';
      if (expected !== undefined && !isRowCount(expected))
        return 'rows with a wrong expected count';
      const columns = checkScreenColumns(message['columns']);
      if (typeof columns === 'string') return columns;
      return { kind: 'rows', from, columns, ...(expected === undefined ? {} : { expected }) };
    }
    case 'end':
      return isRowCount(message['count'])
        ? { kind: 'end', count: message['count'] }
        : 'an end without its count';
    case 'failed':
      return { kind: 'failed' };
    default:
      return 'not a stream message';
  }
}
