// A list's rows on their way to the renderer while main reads them (the
// messages are src/shared/order-stream.ts's): the first rows as soon as a
// chunk holds one, then what was read since, at most every ROWS_INTERVAL_MS,
// so the renderer's count grows smoothly without a message per network chunk;
// then the end mark once the list is whole and valid. Each part is a copy
// of what the screen takes of the rows (screen-columns.ts), handed to the sink and forgotten: main keeps nothing of the list for the
// renderer's sake. How a part travels (a MessagePort in Electron, a binary
// body in the harness) is the sink's business.

import type { OrderColumns } from '../../shared/order-columns.ts';
import type { OrderStreamMessage } from '../../shared/order-stream.ts';
import { screenColumnsOf } from '../../shared/screen-columns.ts';

export interface OrderStreamSink {
  /** Sends one message; its arrays are the sink's from then on (main does not touch them again). */
  post(message: OrderStreamMessage): void;
  /** Nothing more will be sent. */
  close(): void;
}

/** Opens the channel of the stream the renderer named. */
export type OpenOrderStream = (streamId: string) => OrderStreamSink;

/** A sink for a call that asked for no rows (the summary only). */
const NO_STREAM: OrderStreamSink = { post: () => undefined, close: () => undefined };

/** Between two parts after the first: often enough for a growing count, seldom enough for large parts. */
export const ROWS_INTERVAL_MS = 100;

/** The rows read so far, and how far the body is. */
export interface RowsSoFar {
  readonly count: number;
  rowsSoFar(): OrderColumns;
  readonly receivedBytes: number;
  readonly totalBytes?: number | undefined;
}

export class RowsSender {
  readonly #open: () => OrderStreamSink;
  readonly #now: () => number;
  readonly #intervalMs: number;
  #sink: OrderStreamSink | undefined;
  #sent = 0;
  #lastAt = Number.NEGATIVE_INFINITY;
  #closed = false;

  /** The sink is opened with the first message, so a call that fails before any row opens none. */
  constructor(
    open: OpenOrderStream | undefined,
    streamId: string | undefined,
    now: () => number,
    intervalMs = ROWS_INTERVAL_MS,
  ) {
    this.#open = open && streamId !== undefined ? () => open(streamId) : () => NO_STREAM;
    this.#now = now;
    this.#intervalMs = intervalMs;
  }

  /** Rows sent so far. */
  get sent(): number {
    return this.#sent;
  }

  /** After each chunk: sends the rows read since the last part, if it is time. */
  offer(read: RowsSoFar): void {
    if (this.#closed || read.count === this.#sent) return;
    const at = this.#now();
    if (this.#sent > 0 && at - this.#lastAt < this.#intervalMs) return;
    this.#lastAt = at;
    const first = this.#sent === 0;
    // The whole list's rows, guessed from the bytes per row so far: the renderer sizes its table once.
    const expected =
      first && read.totalBytes !== undefined && read.receivedBytes > 0
        ? Math.ceil((read.totalBytes / read.receivedBytes) * read.count * 1.02)
        : undefined;
    this.#send(read.rowsSoFar(), read.count, expected);
  }

  /** The whole, valid list: the rows not sent yet, then the end mark. */
  end(columns: OrderColumns): void {
    if (this.#closed) return;
    if (columns.count > this.#sent) this.#send(columns, columns.count, undefined);
    this.#sink ??= this.#open();
    this.#sink.post({ kind: 'end', count: columns.count });
    this.#close();
  }

  /** The list failed: the renderer drops the rows it was sent. */
  fail(): void {
    if (this.#closed) return;
    this.#sink?.post({ kind: 'failed' });
    this.#close();
  }

  #send(columns: OrderColumns, to: number, expected: number | undefined): void {
    this.#sink ??= this.#open();
    const part = screenColumnsOf(columns, this.#sent, to);
    this.#sink.post({
      kind: 'rows',
      from: this.#sent,
      columns: part,
      ...(expected === undefined ? {} : { expected }),
    });
    this.#sent = to;
  }

  #close(): void {
    this.#closed = true;
    this.#sink?.close();
  }
}
